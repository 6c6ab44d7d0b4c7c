import { useCallback, useState } from 'react';
import { unmatchedItems, type AccountDto } from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Pager } from '../../components/pager.tsx';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import { groupDecimal } from '../../money.ts';
import { UnmatchedItem } from './unmatched-item.tsx';

const PER_PAGE = 10;

/** Bank transactions with no match (and posted entries with no bank line), with suggested accounts. */
export function UnmatchedList({
  accounts,
  refresh,
  onChanged,
}: {
  accounts: AccountDto[];
  refresh: number;
  onChanged: () => void;
}) {
  const { t } = useI18n();
  const [page, setPage] = useState(1);
  const load = useCallback(() => unmatchedItems(page, PER_PAGE), [page]);
  const { data, error, loading } = useLoader(load, [load, refresh]);
  const active = accounts.filter((a) => a.is_active);
  const [booked, setBooked] = useState<{ description: string; account: string; amount: string } | null>(null);
  return (
    <div className="stack">
      {booked && (
        <p role="status" className="notice notice-ok" data-testid="booked">
          {t('unmatched.booked', {
            description: booked.description,
            amount: groupDecimal(booked.amount),
            account: booked.account,
          })}
        </p>
      )}
      <ErrorNotice error={error} />
      {loading && !data && <Busy label={t('loading')} />}
      {data && data.items.length === 0 && (
        <EmptyState title={t('unmatched.empty')}>{t('unmatched.emptyHint')}</EmptyState>
      )}
      {data?.items.map((item) => (
        <UnmatchedItem
          key={`${item.type}:${item.transaction.id}`}
          item={item}
          accounts={active}
          onCreated={(what) => {
            setBooked(what);
            onChanged();
          }}
        />
      ))}
      {data && (
        <Pager page={page} perPage={PER_PAGE} total={data.total} onPage={setPage} label={t('unmatched.pages')} />
      )}
    </div>
  );
}
