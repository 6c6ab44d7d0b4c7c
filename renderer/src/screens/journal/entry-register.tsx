import type { ReactNode } from 'react';
import type { JournalEntryDto } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { Clipped } from '../../components/clipped.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { useI18n } from '../../i18n/index.ts';
import { entryAccounts, entryCleared, entryTotals } from './entry-summary.ts';

/** One page of the journal, newest first; choosing a row opens the entry. */
export function EntryRegister({
  entries,
  selectedId,
  onOpen,
  empty,
}: {
  entries: JournalEntryDto[];
  selectedId: string | null;
  onOpen: (entry: JournalEntryDto) => void;
  /** shown instead of the table when the page holds no entries */
  empty: ReactNode;
}) {
  const { t } = useI18n();
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
          header: t('entry.accounts'),
          cellClassName: 'accounts-cell',
          cell: (entry) => <Clipped text={entryAccounts(entry)} />,
        },
        {
          header: t('entry.amount'),
          numeric: true,
          cell: (entry) =>
            entryTotals(entry).map((x) => (
              <div key={x.currency}>
                <Amount value={x.amount} currency={x.currency} />
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
