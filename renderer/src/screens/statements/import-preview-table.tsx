import type { ImportPreview } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { useI18n } from '../../i18n/index.ts';

const SHOWN = 100;

type Transaction = ImportPreview['transactions'][number];

/** The transactions an import would store, money in and out in their own columns. */
export function ImportPreviewTable({ preview, currency }: { preview: ImportPreview; currency?: string | undefined }) {
  const { t } = useI18n();
  const amountIf = (type: Transaction['type']) => (tx: Transaction) =>
    tx.type === type && <Amount value={tx.amount} currency={currency} />;
  return (
    <>
      <DataTable
        scroll="preview-scroll"
        className="compact"
        label={t('import.previewTable')}
        rows={preview.transactions.slice(0, SHOWN)}
        rowKey={(tx, index) => `${tx.date}-${index}`}
        rowProps={(tx) => ({ className: tx.duplicate ? 'inactive' : undefined })}
        columns={[
          { header: t('entry.date'), cellClassName: 'nowrap', cell: (tx) => tx.date },
          { header: t('bank.description'), cell: (tx) => tx.description },
          { header: t('bank.moneyIn'), numeric: true, cell: amountIf('credit') },
          { header: t('bank.moneyOut'), numeric: true, cell: amountIf('debit') },
          {
            header: t('import.duplicate'),
            hiddenHeader: true,
            cell: (tx) => tx.duplicate && <span className="badge badge-muted">{t('import.duplicate')}</span>,
          },
        ]}
      />
      {preview.transactions.length > SHOWN && (
        <p className="hint">{t('import.moreRows', { shown: SHOWN, total: preview.transactions.length })}</p>
      )}
    </>
  );
}
