import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import {
  allAccounts,
  fillBudget,
  getBudget,
  putBudget,
  type BudgetDto,
  type BudgetLineDto,
  type FillSource,
} from '../../api/index.ts';
import { AccountPicker } from '../../components/account-picker.tsx';
import { AmountInput } from '../../components/amount-input.tsx';
import { Busy } from '../../components/busy.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { FieldError, fieldProblem, invalidField } from '../../components/field-error.tsx';
import { monthOf, today } from '../../dates.ts';
import { useAction } from '../../hooks/use-action.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import { plainAmount } from '../../money.ts';
import { TabList } from '../../components/tab-list.tsx';
import { MonthPicker } from '../../components/month-picker.tsx';
import { BudgetRow } from './budget-row.tsx';
import { BudgetColumnHeadings, BudgetTotals } from './budget-table.tsx';
import { BudgetYear } from './budget-year.tsx';
import { addMonths } from '../../months.ts';

type View = 'month' | 'year';

type LineBody = { account_id: string; amount: string; carry_over: boolean };

const bodyOf = (lines: readonly BudgetLineDto[]): LineBody[] =>
  lines.map((l) => ({ account_id: l.account_id, amount: l.budgeted, carry_over: l.carry_over }));

/** Depth of a line under budgeted ancestors of the month (a sub-account indented under its parent). */
function depths(lines: readonly BudgetLineDto[]): Map<string, number> {
  const parents = new Map(lines.map((l) => [l.account_id, l.parent_id]));
  const out = new Map<string, number>();
  for (const line of lines) {
    let depth = 0;
    for (let p = line.parent_id; p && parents.has(p) && depth < lines.length; p = parents.get(p) ?? null) depth++;
    out.set(line.account_id, depth);
  }
  return out;
}

/**
 * The month's budget: budgeted, actual and left per account with a progress bar, amounts edited in
 * place from the keyboard, carry-over per line, and the month filled in one action; or the year's,
 * month by month against what happened.
 */
export function BudgetScreen() {
  const { t } = useI18n();
  const [view, setView] = useState<View>('month');
  const [month, setMonth] = useState(() => monthOf(today()));
  const accounts = useLoader(allAccounts, []);
  const loaded = useLoader(() => getBudget(month), [month]);
  const [budget, setBudget] = useState<BudgetDto | undefined>(undefined);
  useEffect(() => setBudget(loaded.data), [loaded.data]);
  const [saved, setSaved] = useState(false);
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  const addInput = useRef<HTMLInputElement | null>(null);

  /** the lines last sent, so that a refused line's error (`lines.3.amount`) finds its account */
  const sent = useRef<LineBody[]>([]);
  const save = useAction(async (lines: LineBody[]) => {
    setSaved(false);
    sent.current = lines;
    setBudget(await putBudget(month, { lines }));
    setSaved(true);
  });
  const amountProblem = (accountId: string): string | undefined => {
    const index = sent.current.findIndex((l) => l.account_id === accountId);
    return index < 0 ? undefined : fieldProblem(save.error, `lines.${index}.amount`, t);
  };
  const fill = useAction(async (from: FillSource) => setBudget(await fillBudget(month, from)));
  const busy = save.busy || fill.busy;

  const [newAccount, setNewAccount] = useState('');
  const [newAmount, setNewAmount] = useState('');
  const current = budget?.month === month ? budget : undefined;
  const lines = current?.lines ?? [];
  const choices = useMemo(
    () =>
      (accounts.data ?? []).filter(
        (a) => (a.type === 'EXPENSE' || a.type === 'INCOME') && !lines.some((l) => l.account_id === a.id),
      ),
    [accounts.data, lines],
  );
  const indent = useMemo(() => depths(lines), [lines]);

  const change = (accountId: string, patch: Partial<LineBody>) =>
    save.run(bodyOf(lines).map((l) => (l.account_id === accountId ? { ...l, ...patch } : l)));

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!newAccount || !newAmount.trim()) return;
    const amount = plainAmount(newAmount);
    if (await save.run([...bodyOf(lines), { account_id: newAccount, amount, carry_over: false }])) {
      setNewAccount('');
      setNewAmount('');
      addInput.current?.focus();
    }
  };

  const move = (index: number, step: -1 | 1) => {
    const next = inputs.current[index + step];
    if (next) next.focus();
    else if (step === 1) addInput.current?.focus();
  };

  const goTo = (next: string) => {
    setSaved(false);
    save.clearError();
    setMonth(next);
  };

  const year = month.slice(0, 4);
  const openMonth = (next: string) => {
    goTo(next);
    setView('month');
  };

  return (
    <section className="screen" aria-labelledby="budget-title">
      <div className="screen-head">
        <h1 id="budget-title">{t('budget.title')}</h1>
        {view === 'month' ? (
          <div className="toolbar">
            <button type="button" onClick={() => goTo(addMonths(month, -1))}>
              {t('budget.previousMonth')}
            </button>
            <MonthPicker value={month} onChange={goTo} />
            <button type="button" onClick={() => goTo(addMonths(month, 1))}>
              {t('budget.nextMonth')}
            </button>
          </div>
        ) : (
          <div className="toolbar">
            <button type="button" onClick={() => goTo(addMonths(month, -12))}>
              {t('budget.previousYear')}
            </button>
            <strong>{year}</strong>
            <button type="button" onClick={() => goTo(addMonths(month, 12))}>
              {t('budget.nextYear')}
            </button>
          </div>
        )}
      </div>
      <TabList
        className="tabs"
        items={[
          { id: 'month', label: t('budget.monthView') },
          { id: 'year', label: t('budget.yearView') },
        ]}
        selected={view}
        onSelect={setView}
        label={t('budget.view')}
        idPrefix="budget"
      />
      {view === 'year' ? (
        <div role="tabpanel" id="budget-panel-year" aria-labelledby="budget-tab-year">
          <BudgetYear year={year} onOpenMonth={openMonth} />
        </div>
      ) : (
        <div role="tabpanel" id="budget-panel-month" aria-labelledby="budget-tab-month">
          <div className="form-actions">
            <button type="button" disabled={busy} onClick={() => void fill.run('previous_month')}>
              {t('budget.copyLast')}
            </button>
            <button type="button" disabled={busy} onClick={() => void fill.run('average_actuals')}>
              {t('budget.average')}
            </button>
            <span className="hint">{t('budget.keys')}</span>
            {saved && !busy && (
              <span role="status" className="muted">
                {t('budget.saved')}
              </span>
            )}
          </div>
          <ErrorNotice error={loaded.error ?? accounts.error} />
          <ErrorNotice error={save.error ?? fill.error} onDismiss={() => (save.clearError(), fill.clearError())} />
          {!current && loaded.loading && <Busy label={t('loading')} />}
          {current && lines.length === 0 && (
            <EmptyState title={t('budget.emptyTitle', { month })}>
              {choices.length === 0 ? t('budget.noAccounts') : t('budget.emptyHint')}
            </EmptyState>
          )}
          {current && (
            <div className="table-scroll">
              <table className="data-table budget-table" aria-label={t('budget.title')}>
                <thead>
                  <tr>
                    <BudgetColumnHeadings />
                    <th scope="col">{t('budget.progress')}</th>
                    <th scope="col">{t('budget.carryOver')}</th>
                    <th scope="col">
                      <span className="visually-hidden">{t('accounts.actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {lines.map((line, i) => (
                    <BudgetRow
                      key={line.account_id}
                      line={line}
                      depth={indent.get(line.account_id) ?? 0}
                      busy={busy}
                      problem={amountProblem(line.account_id)}
                      inputRef={(el) => {
                        inputs.current[i] = el;
                      }}
                      onSave={(amount) => change(line.account_id, { amount })}
                      onCarryOver={(carry_over) => void change(line.account_id, { carry_over })}
                      onRemove={() => void save.run(bodyOf(lines).filter((l) => l.account_id !== line.account_id))}
                      onMove={(step) => move(i, step)}
                    />
                  ))}
                </tbody>
                <BudgetTotals totals={current.totals.map((x) => ({ ...x, left: x.available }))} trailing={3} />
              </table>
            </div>
          )}
          {current && choices.length > 0 && (
            <form className="form-actions budget-add" onSubmit={(e) => void add(e)}>
              <div className="inline-field">
                <AccountPicker
                  accounts={choices}
                  value={newAccount}
                  onChange={setNewAccount}
                  label={t('budget.addAccount')}
                  placeholder={t('budget.addAccount')}
                  inputRef={addInput}
                  onChosen={() => document.getElementById('budget-new-amount')?.focus()}
                />
              </div>
              <AmountInput
                id="budget-new-amount"
                className="amount-input"
                currency={(accounts.data ?? []).find((a) => a.id === newAccount)?.currency}
                aria-label={t('budget.addAmount')}
                placeholder={t('budget.addAmount')}
                value={newAmount}
                onChange={setNewAmount}
                {...invalidField(amountProblem(newAccount), 'budget-new-amount-error')}
              />
              <FieldError id="budget-new-amount-error" problem={amountProblem(newAccount)} />
              <button type="submit" className="primary" disabled={busy || !newAccount || !newAmount.trim()}>
                {t('budget.add')}
              </button>
            </form>
          )}
        </div>
      )}
    </section>
  );
}
