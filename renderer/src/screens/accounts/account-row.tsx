import { useState, type FormEvent } from 'react';
import { deleteAccount, updateAccount } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Clipped } from '../../components/clipped.tsx';
import { fieldProblem } from '../../components/field-error.tsx';
import { TextField } from '../../components/text-field.tsx';
import { TEXT_LIMITS } from '../../../../server/contract/limits.ts';
import { useAction } from '../../hooks/use-action.ts';
import { useI18n } from '../../i18n/index.ts';
import { accountLabel } from '../../names.ts';
import type { AccountNode } from './account-tree-model.ts';

type Mode = 'view' | 'rename' | 'confirm-delete';

/** One account: its balances and what can be done with it (rename, (de)activate, sub-account, delete). */
export function AccountRow({
  node,
  depth,
  onChanged,
  onAddChild,
  onOpen,
}: {
  node: AccountNode;
  depth: number;
  onChanged: () => void;
  onAddChild: (parent: AccountNode) => void;
  /** opens the account's register */
  onOpen: (node: AccountNode) => void;
}) {
  const { t } = useI18n();
  const [mode, setMode] = useState<Mode>('view');
  const [name, setName] = useState(node.name);
  const action = useAction(async (change: () => Promise<unknown>) => {
    await change();
    setMode('view');
    onChanged();
  });

  const rename = (event: FormEvent) => {
    event.preventDefault();
    void action.run(() => updateAccount(node.id, { name: name.trim() }));
  };

  return (
    <>
      <tr className={node.isActive ? undefined : 'inactive'} data-account={node.name}>
        <td>
          <span className="tree-indent" style={{ paddingInlineStart: `${depth * 1.25}rem` }}>
            {depth > 0 && (
              <span className="tree-branch" aria-hidden="true">
                └{' '}
              </span>
            )}
            {mode === 'rename' ? (
              <form className="inline-form" onSubmit={rename}>
                <TextField
                  aria-label={t('accounts.newName', { name: node.name })}
                  autoFocus
                  required
                  limit={TEXT_LIMITS.accountName}
                  value={name}
                  onChange={setName}
                  problem={fieldProblem(action.error, 'name', t)}
                />
                <button type="submit" className="primary" disabled={action.busy}>
                  {t('action.save')}
                </button>
                <button type="button" onClick={() => setMode('view')}>
                  {t('action.cancel')}
                </button>
              </form>
            ) : (
              <a
                className="account-name"
                href={`/accounts/${encodeURIComponent(node.id)}`}
                aria-label={t('accounts.openRegister', { name: accountLabel(node.name, t) })}
                onClick={(e) => {
                  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
                  e.preventDefault();
                  onOpen(node);
                }}
              >
                <Clipped text={accountLabel(node.name, t)} />
              </a>
            )}
          </span>
        </td>
        <td className="num" data-label={t('accounts.own')}>
          <Amount value={node.balance} />
        </td>
        <td className="num" data-label={t('accounts.total')}>
          <Amount value={node.total} />
        </td>
        <td>
          {node.isActive ? (
            <span className="badge">{t('accounts.active')}</span>
          ) : (
            <span className="badge badge-muted">{t('accounts.inactive')}</span>
          )}
        </td>
        <td>
          <div className="row-actions">
            {mode === 'confirm-delete' ? (
              <>
                <span>{t('accounts.confirmDelete', { name: node.name })}</span>
                <button
                  type="button"
                  className="danger"
                  disabled={action.busy}
                  onClick={() => void action.run(() => deleteAccount(node.id))}
                >
                  {t('action.delete')}
                </button>
                <button type="button" onClick={() => setMode('view')}>
                  {t('action.cancel')}
                </button>
              </>
            ) : (
              <>
                <button
                  type="button"
                  className="link"
                  aria-label={t('accounts.renameLabel', { name: node.name })}
                  onClick={() => {
                    setName(node.name);
                    setMode('rename');
                  }}
                >
                  {t('accounts.rename')}
                </button>
                <button
                  type="button"
                  className="link"
                  aria-label={t(node.isActive ? 'accounts.deactivateLabel' : 'accounts.reactivateLabel', {
                    name: node.name,
                  })}
                  disabled={action.busy}
                  onClick={() => void action.run(() => updateAccount(node.id, { is_active: !node.isActive }))}
                >
                  {node.isActive ? t('accounts.deactivate') : t('accounts.reactivate')}
                </button>
                <button
                  type="button"
                  className="link"
                  aria-label={t('accounts.addChildLabel', { name: node.name })}
                  onClick={() => onAddChild(node)}
                >
                  {t('accounts.addChild')}
                </button>
                {node.children.length === 0 && (
                  <button
                    type="button"
                    className="link danger"
                    aria-label={t('accounts.deleteLabel', { name: node.name })}
                    onClick={() => setMode('confirm-delete')}
                  >
                    {t('action.delete')}
                  </button>
                )}
              </>
            )}
          </div>
        </td>
      </tr>
      {action.error !== undefined && (
        <tr>
          <td colSpan={5}>
            <ErrorNotice error={action.error} onDismiss={action.clearError} />
          </td>
        </tr>
      )}
    </>
  );
}
