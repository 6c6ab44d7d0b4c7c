import { useId, useState, type FormEvent } from 'react';
import { JOURNAL_FORMAT_LIST, importJournal, type ImportJournalResult, type JournalFormat } from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useI18n } from '../../i18n/index.ts';
import type { Route } from '../../router.ts';

/** Importing a ledger, hledger or beancount journal: all of it, or (a line refused) nothing. */
export function JournalImportPanel({ onNavigate }: { onNavigate: (route: Route) => void }) {
  const { t } = useI18n();
  const headingId = useId();
  const [format, setFormat] = useState<JournalFormat>('hledger');
  const [file, setFile] = useState<File | null>(null);
  const [fileInputKey, setFileInputKey] = useState(0);
  const [result, setResult] = useState<ImportJournalResult | null>(null);
  const upload = useAction(async (chosen: File) => {
    setResult(null);
    setResult(await importJournal(format, chosen));
    setFile(null);
    setFileInputKey((k) => k + 1);
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file) void upload.run(file);
  };

  return (
    <article className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('journalImport.title')}</h2>
      <p className="hint">{t('journalImport.hint')}</p>
      <form className="form-grid" aria-labelledby={headingId} onSubmit={submit}>
        <label>
          {t('journalImport.format')}
          <select value={format} onChange={(e) => setFormat(e.target.value as JournalFormat)}>
            {JOURNAL_FORMAT_LIST.map((f) => (
              <option key={f} value={f}>
                {t(`format.${f}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('journalImport.file')}
          <input
            key={fileInputKey}
            type="file"
            required
            accept=".journal,.hledger,.ledger,.dat,.beancount,.bean,.txt"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              upload.clearError();
            }}
          />
        </label>
        <div className="form-actions span-2">
          <button type="submit" className="primary" disabled={!file || upload.busy}>
            {t('journalImport.submit')}
          </button>
        </div>
      </form>
      {upload.busy && <Busy label={t('journalImport.importing')} />}
      <ErrorNotice error={upload.error} onDismiss={upload.clearError} />
      {result && (
        <div className="stack">
          <p role="status" className="notice notice-ok">
            {result.entries_imported > 0
              ? t('journalImport.done', {
                  entries: result.entries_imported,
                  lines: result.lines_imported,
                  first: result.first_date ?? '—',
                  last: result.last_date ?? '—',
                })
              : t('journalImport.doneEmpty')}
          </p>
          <dl className="facts inline-facts" aria-label={t('journalImport.summary')}>
            <div>
              <dt>{t('journalImport.entries')}</dt>
              <dd data-testid="entries-imported">{result.entries_imported}</dd>
            </div>
            <div>
              <dt>{t('journalImport.lines')}</dt>
              <dd data-testid="lines-imported">{result.lines_imported}</dd>
            </div>
            <div>
              <dt>{t('journalImport.accountsCreated')}</dt>
              <dd data-testid="accounts-created">{result.accounts_created}</dd>
            </div>
            <div>
              <dt>{t('journalImport.accountsClosed')}</dt>
              <dd data-testid="accounts-closed">{result.accounts_closed}</dd>
            </div>
          </dl>
          {result.entries_imported > 0 && (
            <div className="form-actions">
              <button type="button" onClick={() => onNavigate('/journal')}>
                {t('journalImport.openJournal')}
              </button>
            </div>
          )}
        </div>
      )}
    </article>
  );
}
