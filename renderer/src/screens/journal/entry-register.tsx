import { useMemo, type ReactNode } from 'react';
import type { AccountDto, JournalEntryDto } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { Clipped } from '../../components/clipped.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { Paperclip } from '../../components/paperclip.tsx';
import { useAttachmentCounts } from '../../hooks/use-attachment-counts.ts';
import { useI18n } from '../../i18n/index.ts';
import { accountLabel } from '../../names.ts';
import { entryAccounts, entryAmounts, entryCleared } from './entry-summary.ts';

/**
 * One page of the journal, newest first; choosing a row opens the entry. Amounts are signed for the
 * account being viewed (the account filter), else as money in (+) and out (−) of the user's own accounts.
 */
export function EntryRegister({
  entries,
  accounts,
  viewedAccountId,
  selectedId,
  onOpen,
  empty,
  attachmentsVersion = 0,
}: {
  entries: JournalEntryDto[];
  accounts: readonly AccountDto[];
  viewedAccountId?: string | undefined;
  selectedId: string | null;
  onOpen: (entry: JournalEntryDto) => void;
  /** shown instead of the table when the page holds no entries */
  empty: ReactNode;
  /** changes when a file is attached or deleted: the paperclips are counted again */
  attachmentsVersion?: number;
}) {
  const { t } = useI18n();
  const types = useMemo(() => new Map(accounts.map((a) => [a.id, a.type])), [accounts]);
  const clips = useAttachmentCounts(
    useMemo(() => entries.map((e) => e.id), [entries]),
    attachmentsVersion,
  );
  const viewed = viewedAccountId ? accounts.find((a) => a.id === viewedAccountId) : undefined;
  return (
    <DataTable
      scroll
      className="register"
      label={t('journal.register')}
      rows={entries}
      rowKey={(entry) => entry.id}
      empty={empty}
      rowProps={(entry) => ({
        className: entry.id === selectedId ? 'selected' : undefined,
        onClick: () => onOpen(entry),
      })}
      columns={[
        { header: t('entry.date'), cellClassName: 'nowrap', cell: (entry) => entry.entry_date },
        {
          header: t('entry.memo'),
          cell: (entry) => (
            <button
              type="button"
              className="link row-open"
              aria-label={t('journal.openEntry', { memo: entry.memo || t('entry.noMemo'), date: entry.entry_date })}
              onClick={(e) => {
                e.stopPropagation();
                onOpen(entry);
              }}
            >
              {entry.memo ? <Clipped text={entry.memo} /> : <span className="muted">{t('entry.noMemo')}</span>}
            </button>
          ),
        },
        {
          header: t('attachments.title'),
          hiddenHeader: true,
          cell: (entry) => <Paperclip count={clips[entry.id]} />,
        },
        {
          header: t('entry.accounts'),
          cellClassName: 'accounts-cell',
          cell: (entry) => <Clipped text={entryAccounts(entry, (name) => accountLabel(name, t))} />,
        },
        {
          header: viewed ? t('journal.amountOf', { name: viewed.name }) : t('journal.moneyInOut'),
          numeric: true,
          cell: (entry) =>
            entryAmounts(entry, types, viewed?.id).map((x) => (
              <div key={x.currency} className={x.direction ? `money-${x.direction}` : undefined}>
                {x.direction === 'in' && <span aria-hidden="true">+</span>}
                <Amount value={x.direction === 'out' ? `-${x.amount}` : x.amount} currency={x.currency} />
                {x.direction && <span className="visually-hidden"> ({t(`bank.${x.direction}`)})</span>}
              </div>
            )),
        },
        {
          header: t('entry.status'),
          cell: (entry) => <span className={`badge status-${entry.status}`}>{t(`status.${entry.status}`)}</span>,
        },
        { header: t('entry.source'), cell: (entry) => t(`source.${entry.source_type}`) },
        {
          header: t('cleared.column'),
          cell: (entry) => {
            const state = entryCleared(entry);
            return state && <span className={`badge cleared-${state}`}>{t(`cleared.${state}`)}</span>;
          },
        },
      ]}
    />
  );
}
