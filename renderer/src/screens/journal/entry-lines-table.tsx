import type { JournalEntryDto } from '../../api.ts';
import { Amount } from '../../components/amount.tsx';
import { useI18n } from '../../i18n.tsx';

/** An entry's lines in debit and credit columns; an exchange's cost beside its amount, automatic lines marked. */
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
          <tr key={line.id} className={line.automatic ? 'automatic-line' : undefined}>
            <td>
              {line.account_name}
              {line.automatic && (
                <span className="tag" title={t('currency.automaticHint')}>
                  {t('currency.automatic')}
                </span>
              )}
            </td>
            {(['DEBIT', 'CREDIT'] as const).map((side) => (
              <td key={side} className="num">
                {line.direction === side && (
                  <>
                    <Amount value={line.amount} currency={line.currency} />
                    {line.cost && !line.automatic && (
                      <span className="line-cost">
                        {' '}
                        ({t('currency.cost')} <Amount value={line.cost.amount} currency={line.cost.currency} />)
                      </span>
                    )}
                  </>
                )}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
