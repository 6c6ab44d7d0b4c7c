import type { ImportPreview } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { useI18n } from '../../i18n/index.ts';

const SHOWN = 100;

/** The transactions an import would store, money in and out in their own columns. */
export function ImportPreviewTable({ preview, currency }: { preview: ImportPreview; currency?: string | undefined }) {
  const { t } = useI18n();
  const rows = preview.transactions.slice(0, SHOWN);
  return (
    <>
      <div className="table-scroll preview-scroll">
        <table className="data-table compact" aria-label={t('import.previewTable')}>
          <thead>
            <tr>
              <th scope="col">{t('entry.date')}</th>
              <th scope="col">{t('bank.description')}</th>
              <th scope="col" className="num">
                {t('bank.moneyIn')}
              </th>
              <th scope="col" className="num">
                {t('bank.moneyOut')}
              </th>
              <th scope="col">
                <span className="visually-hidden">{t('import.duplicate')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((tx, index) => (
              <tr key={`${tx.date}-${index}`} className={tx.duplicate ? 'inactive' : undefined}>
                <td className="nowrap">{tx.date}</td>
                <td>{tx.description}</td>
                <td className="num">{tx.type === 'credit' && <Amount value={tx.amount} currency={currency} />}</td>
                <td className="num">{tx.type === 'debit' && <Amount value={tx.amount} currency={currency} />}</td>
                <td>{tx.duplicate && <span className="badge badge-muted">{t('import.duplicate')}</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {preview.transactions.length > SHOWN && (
        <p className="hint">{t('import.moreRows', { shown: SHOWN, total: preview.transactions.length })}</p>
      )}
    </>
  );
}
