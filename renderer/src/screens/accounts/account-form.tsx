import { useId, useState, type FormEvent } from 'react';
import { createAccount, type AccountType, type BalanceRow } from '../../api/index.ts';
import { TEXT_LIMITS } from '../../../../server/contract/limits.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { fieldProblem } from '../../components/field-error.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useI18n } from '../../i18n/index.ts';
import { TYPE_ORDER } from './account-tree-model.ts';

export interface NewAccountDraft {
  parentId: string | null;
  type: AccountType;
  currency?: string;
}

/** Creates an account: name, type, currency (the home currency unless changed), an optional parent of the same type. */
export function AccountForm({
  draft,
  accounts,
  onCancel,
  onCreated,
}: {
  draft: NewAccountDraft;
  accounts: BalanceRow[];
  onCancel: () => void;
  onCreated: () => void;
}) {
  const { t } = useI18n();
  const headingId = useId();
  const [name, setName] = useState('');
  const [type, setType] = useState<AccountType>(draft.type);
  const [currency, setCurrency] = useState(draft.currency ?? 'USD');
  const [parentId, setParentId] = useState(draft.parentId ?? '');
  const [description, setDescription] = useState('');
  const save = useAction(async () => {
    await createAccount({
      name: name.trim(),
      type,
      currency: currency.trim().toUpperCase() || 'USD',
      ...(parentId ? { parent_id: parentId } : {}),
      ...(description.trim() ? { description: description.trim() } : {}),
    });
    onCreated();
  });
  const parents = accounts.filter((a) => a.type === type).sort((a, b) => a.name.localeCompare(b.name));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };

  return (
    <form className="panel form-grid" onSubmit={submit} aria-labelledby={headingId}>
      <h2 id={headingId}>{t('accounts.new')}</h2>
      <TextField
        label={t('accounts.name')}
        limit={TEXT_LIMITS.accountName}
        autoFocus
        required
        value={name}
        onChange={setName}
        problem={fieldProblem(save.error, 'name', t)}
      />
      <label>
        {t('accounts.type')}
        <select
          value={type}
          onChange={(e) => {
            setType(e.target.value as AccountType);
            setParentId('');
          }}
        >
          {TYPE_ORDER.map((ty) => (
            <option key={ty} value={ty}>
              {t(`type.${ty}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('accounts.currency')}
        <input
          value={currency}
          maxLength={3}
          pattern="[A-Za-z]{3}"
          onChange={(e) => setCurrency(e.target.value.toUpperCase())}
        />
      </label>
      <label>
        {t('accounts.parent')}
        <select value={parentId} onChange={(e) => setParentId(e.target.value)}>
          <option value="">{t('accounts.noParent')}</option>
          {parents.map((p) => (
            <option key={p.account_id} value={p.account_id}>
              {p.name} ({p.currency})
            </option>
          ))}
        </select>
      </label>
      <TextField
        className="span-2"
        label={t('accounts.description')}
        limit={TEXT_LIMITS.accountDescription}
        value={description}
        onChange={setDescription}
        problem={fieldProblem(save.error, 'description', t)}
      />
      <div className="form-actions span-2">
        <button type="submit" className="primary" disabled={save.busy}>
          {t('accounts.create')}
        </button>
        <button type="button" onClick={onCancel}>
          {t('action.cancel')}
        </button>
      </div>
      <div className="span-2">
        <ErrorNotice error={save.error} onDismiss={save.clearError} />
      </div>
    </form>
  );
}
