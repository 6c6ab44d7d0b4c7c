import { useId, useState, type FormEvent } from 'react';
import {
  createRule,
  RULE_DESCRIPTION_OPS,
  updateRule,
  type AccountDto,
  type RuleDescriptionOp,
  type RuleDto,
  type RuleInput,
} from '../../api/index.ts';
import { AccountPicker } from '../../components/account-picker.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { FieldError, fieldProblem, invalidField } from '../../components/field-error.tsx';
import { TextField } from '../../components/text-field.tsx';
import { TEXT_LIMITS } from '../../../../server/contract/limits.ts';
import { useI18n } from '../../i18n/index.ts';

/** What a new rule starts from: a bank line's payee words, direction and account ("make a rule from this"). */
export interface RuleStart {
  name: string;
  op: RuleDescriptionOp | '';
  value: string;
  type: 'debit' | 'credit' | '';
  accountId: string;
}

const BLANK: RuleStart = { name: '', op: 'contains', value: '', type: '', accountId: '' };

/** A part the rule books first, as the form holds it. */
interface SplitRow {
  key: number;
  accountId: string;
  kind: 'percent' | 'amount';
  value: string;
}

let nextKey = 1;
const splitRow = (accountId = '', kind: SplitRow['kind'] = 'percent', value = ''): SplitRow => ({
  key: nextKey++,
  accountId,
  kind,
  value,
});

function startOf(
  rule: RuleDto,
): RuleStart & { min: string; max: string; memo: string; priority: string; splits: SplitRow[] } {
  return {
    name: rule.name,
    op: rule.description?.op ?? '',
    value: rule.description?.value ?? '',
    type: rule.type ?? '',
    accountId: rule.account_id,
    min: rule.amount_min ?? '',
    max: rule.amount_max ?? '',
    memo: rule.memo ?? '',
    priority: String(rule.priority),
    splits: rule.splits.map((s) =>
      s.percent !== null ? splitRow(s.account_id, 'percent', s.percent) : splitRow(s.account_id, 'amount', s.amount!),
    ),
  };
}

/**
 * A rule's conditions and account, to create one (from `start`, prefilled from a bank line) or
 * change one (`rule`), and the parts it splits a line into (a percentage or a fixed amount each,
 * its account taking the rest). The server checks it (a pattern RE2 cannot read, bounds the wrong
 * way, percentages of 100 or more) and its words are shown as they come.
 */
export function RuleForm({
  accounts,
  rule,
  start,
  onSaved,
  onCancel,
}: {
  accounts: AccountDto[];
  rule?: RuleDto | undefined;
  start?: RuleStart | undefined;
  onSaved: (rule: RuleDto) => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const headingId = useId();
  const first = rule
    ? startOf(rule)
    : { ...BLANK, ...start, min: '', max: '', memo: '', priority: '0', splits: [] as SplitRow[] };
  const [form, setForm] = useState(first);
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const save = useAction(async () => {
    const input: RuleInput = {
      name: form.name.trim(),
      description: form.op === '' ? null : { op: form.op, value: form.value },
      type: form.type === '' ? null : form.type,
      amount_min: form.min.trim() || null,
      amount_max: form.max.trim() || null,
      account_id: form.accountId,
      memo: form.memo.trim() || null,
      priority: Number.parseInt(form.priority, 10) || 0,
      // a part is an amount or a percent, the other left out (the document: exactly one of them)
      splits: form.splits.map((s) =>
        s.kind === 'amount'
          ? { account_id: s.accountId, amount: s.value.trim() }
          : { account_id: s.accountId, percent: s.value.trim() },
      ),
    };
    onSaved(rule ? await updateRule(rule.id, input) : await createRule(input));
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };
  const opLabel = (op: RuleDescriptionOp | '') => t(`rules.op.${op === '' ? 'none' : op}`);
  const changeSplit = (index: number, patch: Partial<SplitRow>) =>
    set(
      'splits',
      form.splits.map((s, i) => (i === index ? { ...s, ...patch } : s)),
    );

  return (
    <form className="rule-form" aria-labelledby={headingId} onSubmit={submit}>
      <h3 id={headingId}>{rule ? t('rules.editLabel', { name: rule.name }) : t('rules.new')}</h3>
      <div className="rule-grid">
        <TextField
          label={t('rules.name')}
          required
          limit={TEXT_LIMITS.ruleName}
          value={form.name}
          onChange={(v) => set('name', v)}
          problem={fieldProblem(save.error, 'name', t)}
        />
        <label>
          {t('rules.opLabel')}
          <select value={form.op} onChange={(e) => set('op', e.target.value as RuleDescriptionOp | '')}>
            {(['', ...RULE_DESCRIPTION_OPS] as const).map((op) => (
              <option key={op} value={op}>
                {opLabel(op)}
              </option>
            ))}
          </select>
        </label>
        {form.op !== '' && (
          <TextField
            label={t('rules.value')}
            required
            limit={TEXT_LIMITS.rulePattern}
            value={form.value}
            onChange={(v) => set('value', v)}
            problem={fieldProblem(save.error, 'description.value', t)}
          />
        )}
        <label>
          {t('rules.type')}
          <select value={form.type} onChange={(e) => set('type', e.target.value as RuleStart['type'])}>
            <option value="">{t('rules.any')}</option>
            <option value="debit">{t('rules.out')}</option>
            <option value="credit">{t('rules.in')}</option>
          </select>
        </label>
        <label>
          {t('rules.amountMin')}
          <input
            inputMode="decimal"
            value={form.min}
            onChange={(e) => set('min', e.target.value)}
            {...invalidField(fieldProblem(save.error, 'amount_min', t), `${headingId}-min`)}
          />
          <FieldError id={`${headingId}-min`} problem={fieldProblem(save.error, 'amount_min', t)} />
        </label>
        <label>
          {t('rules.amountMax')}
          <input
            inputMode="decimal"
            value={form.max}
            onChange={(e) => set('max', e.target.value)}
            {...invalidField(fieldProblem(save.error, 'amount_max', t), `${headingId}-max`)}
          />
          <FieldError id={`${headingId}-max`} problem={fieldProblem(save.error, 'amount_max', t)} />
        </label>
        <AccountPicker
          accounts={accounts}
          value={form.accountId}
          onChange={(id) => set('accountId', id)}
          label={t('rules.account')}
          placeholder={t('rules.account')}
        />
        <TextField
          label={t('rules.memo')}
          limit={TEXT_LIMITS.memo}
          value={form.memo}
          onChange={(v) => set('memo', v)}
          problem={fieldProblem(save.error, 'memo', t)}
        />
        <label>
          {t('rules.priority')}
          <input type="number" step={1} value={form.priority} onChange={(e) => set('priority', e.target.value)} />
        </label>
      </div>
      <fieldset className="rule-splits">
        <legend>{t('rules.splits')}</legend>
        <p className="hint">{t('rules.splitsHint')}</p>
        {form.splits.map((split, index) => {
          const n = index + 1;
          return (
            <div className="inline-form" key={split.key}>
              <AccountPicker
                accounts={accounts}
                value={split.accountId}
                onChange={(accountId) => changeSplit(index, { accountId })}
                label={t('rules.splitAccount', { n })}
              />
              <select
                aria-label={t('rules.splitKind', { n })}
                value={split.kind}
                onChange={(e) => changeSplit(index, { kind: e.target.value as SplitRow['kind'] })}
              >
                <option value="percent">{t('rules.splitPercent')}</option>
                <option value="amount">{t('rules.splitAmount')}</option>
              </select>
              <input
                required
                inputMode="decimal"
                aria-label={t('rules.splitValue', { n })}
                value={split.value}
                onChange={(e) => changeSplit(index, { value: e.target.value })}
              />
              <button
                type="button"
                className="icon-button"
                aria-label={t('rules.removeSplit', { n })}
                onClick={() =>
                  set(
                    'splits',
                    form.splits.filter((_, i) => i !== index),
                  )
                }
              >
                ×
              </button>
            </div>
          );
        })}
        <button type="button" onClick={() => set('splits', [...form.splits, splitRow()])}>
          {t('rules.addSplit')}
        </button>
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={save.busy || !form.accountId || !form.name.trim()}>
          {t('rules.save')}
        </button>
        <button type="button" onClick={onCancel}>
          {t('action.cancel')}
        </button>
      </div>
      <ErrorNotice error={save.error} onDismiss={save.clearError} />
    </form>
  );
}
