import type { FormEvent } from 'react';
import type { AccountDto } from '../../api/index.ts';
import { FileField } from '../../components/file-field.tsx';
import { useI18n } from '../../i18n/index.ts';
import { TextField } from '../../components/text-field.tsx';
import { TEXT_LIMITS } from '../../../../server/contract/limits.ts';

/** The import's first step: the bank account, the file and an optional name. */
export function ImportFileStep({
  accounts,
  chosenAccount,
  onAccount,
  fileInputKey,
  onFile,
  name,
  onName,
  canPreview,
  onPreview,
}: {
  accounts: AccountDto[];
  chosenAccount: AccountDto | undefined;
  onAccount: (accountId: string) => void;
  /** a new key empties the file input */
  fileInputKey: number;
  onFile: (file: File | null) => void;
  name: string;
  onName: (name: string) => void;
  canPreview: boolean;
  onPreview: () => void;
}) {
  const { t } = useI18n();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onPreview();
  };
  return (
    <form className="form-grid" onSubmit={submit}>
      <label>
        {t('import.account')}
        <select required value={chosenAccount?.id ?? ''} onChange={(e) => onAccount(e.target.value)}>
          {!chosenAccount && <option value="">{t('mapping.choose')}</option>}
          {accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name} ({a.currency})
            </option>
          ))}
        </select>
      </label>
      <FileField
        label={t('import.file')}
        accept=".csv,.txt,.ofx,.qfx,.qif,.xml,.camt,.053"
        resetKey={fileInputKey}
        onFile={onFile}
      />
      <TextField
        className="span-2"
        label={t('import.name')}
        limit={TEXT_LIMITS.statementName}
        value={name}
        placeholder={t('import.namePlaceholder')}
        onChange={onName}
      />
      <p className="hint span-2">{t('import.formats')}</p>
      <div className="form-actions span-2">
        <button type="submit" className="primary" disabled={!canPreview}>
          {t('import.preview')}
        </button>
      </div>
    </form>
  );
}
