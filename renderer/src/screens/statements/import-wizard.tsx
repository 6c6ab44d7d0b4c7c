import { useId, useState } from 'react';
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
import { useI18n } from '../../i18n/index.ts';
import { ImportDoneStep } from './import-done-step.tsx';
import { ImportFileStep } from './import-file-step.tsx';
import { ImportPreviewStep } from './import-preview-step.tsx';

interface ImportWizardProps {
  /** the bank accounts: active ASSET and LIABILITY accounts */
  accounts: AccountDto[];
  onImported: (result: ImportResult) => void;
  onRun: (statementId: string) => void;
  onBooked: () => void;
}

/**
 * Importing a bank file in three steps: choose the account and the file; check the preview (and,
 * for CSV, the column mapping); import. Nothing is stored before the last step.
 */
export function ImportWizard({ accounts, onImported, onRun, onBooked }: ImportWizardProps) {
  const { t } = useI18n();
  const headingId = useId();
  const [accountId, setAccountId] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [fileInputKey, setFileInputKey] = useState(0);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<CsvMapping | undefined>(undefined);
  /** the encoding chosen in the preview; undefined: detected */
  const [encoding, setEncoding] = useState<string | undefined>(undefined);
  /** where each account of a file of several goes (null: skipped); undefined: as the server suggests */
  const [accountIds, setAccountIds] = useState<(string | null)[] | undefined>(undefined);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [busy, setBusy] = useState<'preview' | 'import' | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const chosenAccount = accounts.find((a) => a.id === accountId) ?? (accounts.length === 1 ? accounts[0] : undefined);

  /** Reads the file again with these choices; a choice left out is the detected or suggested one. */
  const runPreview = async ({
    withMapping,
    withEncoding,
    withAccountIds,
  }: {
    withMapping?: CsvMapping | undefined;
    withEncoding?: string | undefined;
    withAccountIds?: (string | null)[] | undefined;
  }) => {
    if (!file || !chosenAccount) return;
    setBusy('preview');
    setError(undefined);
    try {
      const answer = await previewImport({
        accountId: chosenAccount.id,
        file,
        mapping: withMapping,
        name,
        encoding: withEncoding,
        accountIds: withAccountIds,
      });
      setPreview(answer);
      setMapping(withMapping ?? answer.csv_mapping ?? undefined);
      setEncoding(withEncoding);
      setAccountIds(answer.accounts.length > 1 ? answer.accounts.map((a) => a.account_id) : undefined);
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
        encoding,
        accountIds,
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
    setEncoding(undefined);
    setAccountIds(undefined);
    setError(undefined);
    setFileInputKey((k) => k + 1);
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
        <ImportFileStep
          accounts={accounts}
          chosenAccount={chosenAccount}
          onAccount={setAccountId}
          fileInputKey={fileInputKey}
          onFile={setFile}
          name={name}
          onName={setName}
          canPreview={!!file && !!chosenAccount && busy === null}
          onPreview={() => void runPreview({})}
        />
      )}

      {preview && (
        <ImportPreviewStep
          preview={preview}
          mapping={mapping}
          accounts={accounts}
          currency={chosenAccount?.currency}
          busy={busy !== null}
          onMapping={(m) => void runPreview({ withMapping: m, withEncoding: encoding, withAccountIds: accountIds })}
          // another encoding reads the header anew: the mapping is guessed again
          onEncoding={(e) => void runPreview({ withEncoding: e, withAccountIds: accountIds })}
          onAccounts={(ids) => void runPreview({ withMapping: mapping, withEncoding: encoding, withAccountIds: ids })}
          onImport={() => void runImport()}
          onBack={() => setPreview(null)}
        />
      )}

      {result && (
        <ImportDoneStep result={result} accounts={accounts} onRun={onRun} onBooked={onBooked} onAnother={restart} />
      )}

      {busy === 'preview' && <Busy label={t('import.reading')} />}
      {busy === 'import' && <Busy label={t('import.importing')} />}
      <ErrorNotice error={error} onDismiss={() => setError(undefined)} />
    </article>
  );
}
