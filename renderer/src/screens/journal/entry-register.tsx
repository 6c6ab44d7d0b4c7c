import type { JournalEntryDto } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { useI18n } from '../../i18n/index.ts';
import { entryAccounts, entryTotals } from './entry-summary.ts';

/** One page of the journal, newest first; choosing a row opens the entry. */
export function EntryRegister({
  entries,
  selectedId,
  onOpen,
}: {
  entries: JournalEntryDto[];
  selectedId: string | null;
  onOpen: (entry: JournalEntryDto) => void;
}) {
  const { t } = useI18n();
  return (
    <div className="table-scroll">
      <table className="data-table register" aria-label={t('journal.register')}>
        <thead>
          <tr>
            <th scope="col">{t('entry.date')}</th>
            <th scope="col">{t('entry.memo')}</th>
            <th scope="col">{t('entry.accounts')}</th>
            <th scope="col" className="num">
              {t('entry.amount')}
            </th>
            <th scope="col">{t('entry.status')}</th>
            <th scope="col">{t('entry.source')}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr
              key={entry.id}
              className={entry.id === selectedId ? 'selected' : undefined}
              onClick={() => onOpen(entry)}
            >
              <td className="nowrap">{entry.entry_date}</td>
              <td>
                <button
                  type="button"
                  className="link row-open"
                  aria-label={t('journal.openEntry', { memo: entry.memo || t('entry.noMemo'), date: entry.entry_date })}
                  onClick={(e) => {
                    e.stopPropagation();
                    onOpen(entry);
                  }}
                >
                  {entry.memo || <span className="muted">{t('entry.noMemo')}</span>}
                </button>
              </td>
              <td className="accounts-cell">{entryAccounts(entry)}</td>
              <td className="num">
                {entryTotals(entry).map((x) => (
                  <div key={x.currency}>
                    <Amount value={x.amount} currency={x.currency} />
                  </div>
                ))}
              </td>
              <td>
                <span className={`badge status-${entry.status}`}>{t(`status.${entry.status}`)}</span>
              </td>
              <td>{t(`source.${entry.source_type}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
