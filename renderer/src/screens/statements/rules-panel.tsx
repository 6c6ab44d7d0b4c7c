import { useState } from 'react';
import { allRules, deleteRule, type RuleDto } from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import { RuleForm } from './rule-form.tsx';
import type { StatementsTabProps } from './tab-props.ts';

/** The rules in the order they apply: each one's conditions and account; new, change, delete. */
export function RulesPanel({ accounts, refresh, onChanged }: StatementsTabProps) {
  const { t } = useI18n();
  const { data, error, loading, reload } = useLoader(allRules, [refresh]);
  const [editing, setEditing] = useState<RuleDto | 'new' | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const remove = useAction(async (rule: RuleDto) => {
    await deleteRule(rule.id);
    reload();
    onChanged();
  });
  const names = new Map(accounts.map((a) => [a.id, a.name]));
  const conditions = (r: RuleDto) =>
    [
      r.description ? `${t(`rules.op.${r.description.op}`)} “${r.description.value}”` : '',
      r.type ? t(r.type === 'debit' ? 'rules.out' : 'rules.in') : '',
      r.amount_min || r.amount_max ? `${r.amount_min ?? '…'} – ${r.amount_max ?? '…'}` : '',
    ]
      .filter(Boolean)
      .join(' · ');

  return (
    <div className="stack">
      <p className="hint">{t('rules.hint')}</p>
      {editing === null ? (
        <div className="form-actions">
          <button type="button" onClick={() => (setEditing('new'), setSaved(null))}>
            {t('rules.new')}
          </button>
          {saved && (
            <span role="status" className="muted">
              {t('rules.saved', { name: saved })}
            </span>
          )}
        </div>
      ) : (
        <RuleForm
          key={editing === 'new' ? 'new' : editing.id}
          accounts={accounts.filter((a) => a.is_active)}
          rule={editing === 'new' ? undefined : editing}
          onSaved={(rule) => {
            setEditing(null);
            setSaved(rule.name);
            reload();
            onChanged();
          }}
          onCancel={() => setEditing(null)}
        />
      )}
      <ErrorNotice error={error ?? remove.error} onDismiss={remove.clearError} />
      {loading && !data && <Busy label={t('loading')} />}
      {data && (
        <DataTable
          className="compact"
          label={t('rules.list')}
          rows={data}
          rowKey={(r) => r.id}
          empty={<EmptyState title={t('rules.empty')}>{t('rules.emptyHint')}</EmptyState>}
          columns={[
            { header: t('rules.priority'), numeric: true, cell: (r) => r.priority },
            { header: t('rules.name'), cell: (r) => r.name },
            { header: t('rules.conditions'), cell: conditions },
            {
              header: t('rules.account'),
              // a split rule: its parts first, then its own account with the rest
              cell: (r) =>
                [
                  ...r.splits.map(
                    (p) => `${names.get(p.account_id) ?? '—'} ${p.percent !== null ? `${p.percent}%` : p.amount}`,
                  ),
                  names.get(r.account_id) ?? '—',
                ].join(' · '),
            },
            {
              header: t('accounts.actions'),
              hiddenHeader: true,
              cellClassName: 'nowrap',
              cell: (r) => (
                <>
                  <button
                    type="button"
                    aria-label={t('rules.editLabel', { name: r.name })}
                    onClick={() => setEditing(r)}
                  >
                    {t('rules.edit')}
                  </button>{' '}
                  <button
                    type="button"
                    className="danger"
                    disabled={remove.busy}
                    aria-label={t('rules.deleteLabel', { name: r.name })}
                    onClick={() => void remove.run(r)}
                  >
                    {t('rules.delete')}
                  </button>
                </>
              ),
            },
          ]}
        />
      )}
    </div>
  );
}
