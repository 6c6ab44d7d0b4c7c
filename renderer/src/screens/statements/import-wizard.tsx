import { useId, useState, type FormEvent } from 'react';
import {
  importStatement,
  previewImport,
  type AccountDto,
  type CsvMapping,
  type ImportPreview,
  type ImportResult,
} from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Facts } from '../../components/facts.tsx';
import { useI18n } from '../../i18n/index.ts';
import { CsvMappingForm } from './csv-mapping-form.tsx';
import { ImportPreviewTable } from './import-preview-table.tsx';

interface ImportWizardProps {
  /** the bank accounts: active ASSET and LIABILITY accounts */
  accounts: AccountDto[];
  onImported: (result: ImportResult) => void;
  onRun: (statementId: string) => void;
}

/**
 * Importing a bank file in three steps: choose the account and the file; check the preview (and,
 * for CSV, the column mapping); import. Nothing is stored before the last step.
 */
export function ImportWizard({ accounts, onImported, onRun }: ImportWizardProps) {
  const { t } = useI18n();
  const headingId = useId();
  const [accountId, setAccountId] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [fileInputKey, setFileInputKey] = useState(0);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<CsvMapping | undefined>(undefined);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [busy, setBusy] = useState<'preview' | 'import' | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const chosenAccount = accounts.find((a) => a.id === accountId) ?? (accounts.length === 1 ? accounts[0] : undefined);

  const runPreview = async (withMapping: CsvMapping | undefined) => {
    if (!file || !chosenAccount) return;
    setBusy('preview');
    setError(undefined);
    try {
      const answer = await previewImport({ accountId: chosenAccount.id, file, mapping: withMapping, name });
      setPreview(answer);
      setMapping(withMapping ?? answer.csv_mapping ?? undefined);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  };

  const runImport = async () => {
    if (!file || !chosenAccount || !preview) return;
    setBusy('import');
    setError(undefined);
    try {
      const answer = await importStatement({
        accountId: chosenAccount.id,
        file,
        mapping: preview.format === 'csv' ? mapping : undefined,
        name,
      });
      setResult(answer);
      setPreview(null);
      onImported(answer);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  };

  const restart = () => {
    setPreview(null);
    setResult(null);
    setFile(null);
    setName('');
    setMapping(undefined);
    setError(undefined);
    setFileInputKey((k) => k + 1);
  };

  const submitChoice = (event: FormEvent) => {
    event.preventDefault();
    void runPreview(undefined);
  };

  if (accounts.length === 0) {
    return (
      <article className="panel" aria-labelledby={headingId}>
        <h2 id={headingId}>{t('import.title')}</h2>
        <EmptyState title={t('import.noBankAccount')}>{t('import.noBankAccountHint')}</EmptyState>
      </article>
    );
  }

  return (
    <article className="panel import-wizard" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('import.title')}</h2>
      <ol className="steps" aria-label={t('import.steps')}>
        <li aria-current={!preview && !result ? 'step' : undefined}>{t('import.step1')}</li>
        <li aria-current={preview ? 'step' : undefined}>{t('import.step2')}</li>
        <li aria-current={result ? 'step' : undefined}>{t('import.step3')}</li>
      </ol>

      {!preview && !result && (
        <form className="form-grid" onSubmit={submitChoice}>
          <label>
            {t('import.account')}
            <select required value={chosenAccount?.id ?? ''} onChange={(e) => setAccountId(e.target.value)}>
              {!chosenAccount && <option value="">{t('mapping.choose')}</option>}
              {accounts.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} ({a.currency})
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('import.file')}
            <input
              key={fileInputKey}
              type="file"
              required
              accept=".csv,.txt,.ofx,.qfx,.qif,.xml,.camt,.053"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </label>
          <label className="span-2">
            {t('import.name')}
            <input
              maxLength={200}
              value={name}
              placeholder={t('import.namePlaceholder')}
              onChange={(e) => setName(e.target.value)}
            />
          </label>
          <p className="hint span-2">{t('import.formats')}</p>
          <div className="form-actions span-2">
            <button type="submit" className="primary" disabled={!file || !chosenAccount || busy !== null}>
              {t('import.preview')}
            </button>
          </div>
        </form>
      )}

      {preview && (
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
            ]}
          />
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
              busy={busy !== null}
              onApply={(m) => void runPreview(m)}
            />
          )}
          <ImportPreviewTable preview={preview} currency={chosenAccount?.currency} />
          <div className="form-actions">
            <button
              type="button"
              className="primary"
              disabled={busy !== null || preview.transaction_count === 0}
              onClick={() => void runImport()}
            >
              {t('import.import', { count: preview.transaction_count - preview.duplicate_count })}
            </button>
            <button type="button" disabled={busy !== null} onClick={() => setPreview(null)}>
              {t('action.back')}
            </button>
          </div>
        </div>
      )}

      {result && (
        <div className="stack">
          {result.id === null ? (
            <p role="status" className="notice notice-warn">
              {t('import.nothingNew', { duplicates: result.duplicate_count })}
            </p>
          ) : (
            <p role="status" className="notice notice-ok">
              {t('import.done', {
                count: result.imported_count,
                duplicates: result.duplicate_count,
                name: result.name,
              })}
            </p>
          )}
          <div className="form-actions">
            {result.id !== null && (
              <button type="button" className="primary" onClick={() => result.id !== null && onRun(result.id)}>
                {t('import.runNow')}
              </button>
            )}
            <button type="button" onClick={restart}>
              {t('import.another')}
            </button>
          </div>
        </div>
      )}

      {busy === 'preview' && <Busy label={t('import.reading')} />}
      {busy === 'import' && <Busy label={t('import.importing')} />}
      <ErrorNotice error={error} onDismiss={() => setError(undefined)} />
    </article>
  );
}
