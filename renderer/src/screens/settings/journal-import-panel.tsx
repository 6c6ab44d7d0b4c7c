import { useId, useState, type FormEvent } from 'react';
import { JOURNAL_FORMAT_LIST, importJournal, type ImportJournalResult, type JournalFormat } from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Facts } from '../../components/facts.tsx';
import { FileField } from '../../components/file-field.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useI18n } from '../../i18n/index.ts';
import type { Route } from '../../router.ts';
import { FormatSelect } from './format-select.tsx';

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
        <FormatSelect
          label={t('journalImport.format')}
          formats={JOURNAL_FORMAT_LIST}
          value={format}
          onChange={setFormat}
        />
        <FileField
          label={t('journalImport.file')}
          accept=".journal,.hledger,.ledger,.dat,.beancount,.bean,.txt"
          resetKey={fileInputKey}
          onFile={(chosen) => {
            setFile(chosen);
            upload.clearError();
          }}
        />
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
          <Facts
            className="inline-facts"
            label={t('journalImport.summary')}
            facts={[
              { label: t('journalImport.entries'), value: result.entries_imported, testId: 'entries-imported' },
              { label: t('journalImport.lines'), value: result.lines_imported, testId: 'lines-imported' },
              {
                label: t('journalImport.accountsCreated'),
                value: result.accounts_created,
                testId: 'accounts-created',
              },
              { label: t('journalImport.accountsClosed'), value: result.accounts_closed, testId: 'accounts-closed' },
            ]}
          />
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
