import type { JournalEntryDto } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { useI18n } from '../../i18n/index.ts';

/** An entry's lines in debit and credit columns. */
export function EntryLinesTable({ entry, label }: { entry: JournalEntryDto; label: string }) {
  const { t } = useI18n();
  return (
    <table className="data-table compact" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">{t('entry.account')}</th>
          <th scope="col" className="num">
            {t('entry.debit')}
          </th>
          <th scope="col" className="num">
            {t('entry.credit')}
          </th>
        </tr>
      </thead>
      <tbody>
        {entry.lines.map((line) => (
          <tr key={line.id}>
            <td>{line.account_name}</td>
            <td className="num">
              {line.direction === 'DEBIT' && <Amount value={line.amount} currency={line.currency} />}
            </td>
            <td className="num">
              {line.direction === 'CREDIT' && <Amount value={line.amount} currency={line.currency} />}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
