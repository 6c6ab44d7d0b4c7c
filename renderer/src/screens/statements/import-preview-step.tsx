import type { AccountDto, CsvMapping, ImportPreview } from '../../api/index.ts';
import { Facts } from '../../components/facts.tsx';
import { useI18n } from '../../i18n/index.ts';
import { CsvMappingForm } from './csv-mapping-form.tsx';
import { EncodingSelect } from './encoding-select.tsx';
import { FileAccountsTable } from './file-accounts-table.tsx';
import { ImportPreviewTable } from './import-preview-table.tsx';

/** Lines left out that the preview lists; the rest are counted. */
const LISTED = 50;

/**
 * The import's second step: what the file holds, the encoding it was read in (changeable), the
 * accounts in it and where each goes, every line left out and every cell not read, for CSV the
 * column mapping (changed and previewed again), the transactions, and the button that stores them.
 */
export function ImportPreviewStep({
  preview,
  mapping,
  accounts,
  currency,
  busy,
  onMapping,
  onEncoding,
  onAccounts,
  onImport,
  onBack,
}: {
  preview: ImportPreview;
  mapping: CsvMapping | undefined;
  /** the bank accounts one of the file's accounts may go to */
  accounts: AccountDto[];
  currency: string | undefined;
  busy: boolean;
  onMapping: (mapping: CsvMapping) => void;
  onEncoding: (encoding: string) => void;
  onAccounts: (accountIds: (string | null)[]) => void;
  onImport: () => void;
  onBack: () => void;
}) {
  const { t } = useI18n();
  const newCount = preview.transaction_count - preview.duplicate_count;
  const empty = preview.transaction_count === 0;
  return (
    <div className="stack">
      <Facts
        className="inline-facts"
        label={t('import.summary')}
        facts={[
          { label: t('import.format'), value: preview.format.toUpperCase() },
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
      <EncodingSelect encoding={preview.encoding} busy={busy} onEncoding={onEncoding} />
      {empty && (
        <div className="notice notice-warn" role="note" data-testid="preview-empty">
          <strong>{t('import.noTransactions')}</strong>{' '}
          {t('import.noTransactionsFound', {
            found: preview.accounts
              .map(
                (a) =>
                  `${a.account_ref ?? t('import.noAccountRef')} (${[a.currency, a.closing_balance].filter(Boolean).join(' ')})`,
              )
              .join('; '),
          })}
        </div>
      )}
      {preview.accounts.length > 1 && (
        <FileAccountsTable preview={preview} accounts={accounts} busy={busy} onAccounts={onAccounts} />
      )}
      {preview.rule_matched_count > 0 && (
        <p className="hint">{t('import.ruleMatched', { count: preview.rule_matched_count })}</p>
      )}
      <LeftOutLines
        title={t('import.skipped', { count: preview.skipped.length })}
        testId="preview-skipped"
        lines={preview.skipped.map((row) => ({ line: row.line, text: t('import.skippedLine', row) }))}
      />
      <LeftOutLines
        title={t('import.ignored', { count: preview.ignored_cells.length })}
        testId="preview-ignored"
        lines={preview.ignored_cells.map((row) => ({
          line: row.line,
          text: t('import.ignoredLine', { line: row.line, cells: row.cells.join(' | ') }),
        }))}
      />
      {preview.format === 'csv' && mapping && (
        <CsvMappingForm
          key={JSON.stringify(mapping)}
          mapping={mapping}
          columns={preview.csv_columns}
          firstRow={preview.csv_first_row}
          busy={busy}
          onApply={onMapping}
        />
      )}
      {!empty && <ImportPreviewTable preview={preview} currency={currency} />}
      <div className="form-actions">
        <button type="button" className="primary" disabled={busy || newCount === 0} onClick={onImport}>
          {empty
            ? t('import.nothingToImport')
            : newCount === 0
              ? t('import.nothingNewButton')
              : t('import.import', { count: newCount })}
        </button>
        <button type="button" disabled={busy} onClick={onBack}>
          {t('action.back')}
        </button>
      </div>
    </div>
  );
}

/** Lines of the file left out (or partly read), listed up to LISTED and the rest counted. */
function LeftOutLines({
  title,
  testId,
  lines,
}: {
  title: string;
  testId: string;
  lines: readonly { line: number; text: string }[];
}) {
  const { t } = useI18n();
  if (lines.length === 0) return null;
  return (
    <div className="notice notice-warn" role="note" aria-label={title}>
      <strong>{title}</strong>
      <ul data-testid={testId}>
        {lines.slice(0, LISTED).map((l) => (
          <li key={l.line}>{l.text}</li>
        ))}
      </ul>
      {lines.length > LISTED && <p>{t('import.skippedMore', { count: lines.length - LISTED })}</p>}
    </div>
  );
}
