import type { CsvMapping, ImportPreview } from '../../api/index.ts';
import { Facts } from '../../components/facts.tsx';
import { useI18n } from '../../i18n/index.ts';
import { CsvMappingForm } from './csv-mapping-form.tsx';
import { ImportPreviewTable } from './import-preview-table.tsx';

/**
 * The import's second step: what the file holds, the lines it skipped, for CSV the column mapping
 * (changed and previewed again), the transactions, and the button that stores them.
 */
export function ImportPreviewStep({
  preview,
  mapping,
  currency,
  busy,
  onMapping,
  onImport,
  onBack,
}: {
  preview: ImportPreview;
  mapping: CsvMapping | undefined;
  currency: string | undefined;
  busy: boolean;
  onMapping: (mapping: CsvMapping) => void;
  onImport: () => void;
  onBack: () => void;
}) {
  const { t } = useI18n();
  const newCount = preview.transaction_count - preview.duplicate_count;
  return (
    <div className="stack">
      <Facts
        className="inline-facts"
        label={t('import.summary')}
        facts={[
          { label: t('import.format'), value: preview.format.toUpperCase() },
          { label: t('import.encoding'), value: preview.encoding },
          { label: t('import.transactions'), value: preview.transaction_count, testId: 'preview-count' },
          { label: t('import.duplicates'), value: preview.duplicate_count },
          {
            label: t('import.period'),
            value: preview.start_date ? `${preview.start_date} – ${preview.end_date}` : '—',
          },
          preview.closing_balance !== null && {
            label: t('import.closingBalance'),
            value: `${preview.closing_balance}${preview.closing_date ? ` (${preview.closing_date})` : ''}`,
            testId: 'preview-closing-balance',
          },
        ]}
      />
      {preview.rule_matched_count > 0 && (
        <p className="hint">{t('import.ruleMatched', { count: preview.rule_matched_count })}</p>
      )}
      {preview.skipped.length > 0 && (
        <div className="notice notice-warn" role="note">
          <strong>{t('import.skipped', { count: preview.skipped.length })}</strong>
          <ul>
            {preview.skipped.slice(0, 10).map((s) => (
              <li key={s.line}>{t('import.skippedLine', { line: s.line, reason: s.reason })}</li>
            ))}
          </ul>
        </div>
      )}
      {preview.format === 'csv' && mapping && preview.csv_columns && (
        <CsvMappingForm
          key={JSON.stringify(mapping)}
          mapping={mapping}
          columns={preview.csv_columns}
          busy={busy}
          onApply={onMapping}
        />
      )}
      <ImportPreviewTable preview={preview} currency={currency} />
      <div className="form-actions">
        <button type="button" className="primary" disabled={busy || newCount === 0} onClick={onImport}>
          {newCount === 0 ? t('import.nothingNewButton') : t('import.import', { count: newCount })}
        </button>
        <button type="button" disabled={busy} onClick={onBack}>
          {t('action.back')}
        </button>
      </div>
    </div>
  );
}
