import { Fragment, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { createEntry, postEntry, updateEntry, type AccountDto, type JournalEntryDto } from '../../api.ts';
import { AccountPicker } from '../../components/account-picker.tsx';
import { Busy } from '../../components/busy.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { today } from '../../dates.ts';
import { useI18n, type MessageKey } from '../../i18n.tsx';
import { BalanceHint } from './balance-hint.tsx';
import {
  balancingAmount,
  blankLine,
  checkEntry,
  linesOf,
  statedRate,
  toLineInputs,
  type EditableLine,
  type LineProblem,
} from './entry-lines.ts';

const PROBLEM_TEXT: Record<LineProblem, MessageKey> = {
  'no-account': 'editor.problem.noAccount',
  'no-amount': 'editor.problem.noAmount',
  both: 'editor.problem.both',
  format: 'editor.problem.format',
  digits: 'editor.problem.digits',
  zero: 'editor.problem.zero',
  inactive: 'editor.problem.inactive',
  cost: 'currency.problem.cost',
  'cost-same': 'currency.problem.same',
};

interface EntryEditorProps {
  accounts: AccountDto[];
  /** a draft to change, or undefined for a new entry */
  draft?: JournalEntryDto | undefined;
  onSaved: (entry: JournalEntryDto) => void;
  onCancel: () => void;
}

type Field = 'account' | 'debit' | 'credit' | 'cost';
type Focus = { line: number; field: Field } | null;

/**
 * A journal entry being written. Keyboard: Tab moves between fields; Enter in an account search
 * chooses the account (and offers the balancing amount); Enter in an amount goes to the next line
 * (adding one); Ctrl+Enter posts. The "unbalanced by …" hint is computed exactly (BigInt minor units).
 * A line in another currency can state what it cost (an exchange): the ⇄ button opens its cost, the
 * editor shows the rate it implies, and the entry balances by cost (the server adds the automatic
 * lines on the currency trading accounts).
 */
export function EntryEditor({ accounts, draft, onSaved, onCancel }: EntryEditorProps) {
  const { t } = useI18n();
  const headingId = useId();
  const hintId = useId();
  const [date, setDate] = useState(draft?.entry_date ?? today());
  const [memo, setMemo] = useState(draft?.memo ?? '');
  const [lines, setLines] = useState<EditableLine[]>(() => (draft ? linesOf(draft) : [blankLine(), blankLine()]));
  const [busy, setBusy] = useState<'draft' | 'post' | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const [focus, setFocus] = useState<Focus>(null);
  const fields = useRef(new Map<string, HTMLInputElement>());

  const byId = useMemo(() => new Map(accounts.map((a) => [a.id, a])), [accounts]);
  const choosable = useMemo(() => accounts.filter((a) => a.is_active), [accounts]);
  const check = checkEntry(lines, byId);

  useEffect(() => {
    if (!focus) return;
    const key = lines[focus.line]?.key;
    const element = key === undefined ? undefined : fields.current.get(`${key}:${focus.field}`);
    if (element) {
      element.focus();
      element.select();
    }
    setFocus(null);
  }, [focus, lines]);

  const ref = (key: number, field: Field) => (element: HTMLInputElement | null) => {
    if (element) fields.current.set(`${key}:${field}`, element);
    else fields.current.delete(`${key}:${field}`);
  };

  const change = (index: number, patch: Partial<EditableLine>) =>
    setLines((all) => all.map((line, i) => (i === index ? { ...line, ...patch } : line)));

  const accountChosen = (index: number, accountId: string) => {
    const current = lines[index];
    const account = byId.get(accountId);
    if (!current || !account) return;
    const line = { ...current, accountId };
    if (!line.debit.trim() && !line.credit.trim()) {
      const offer = balancingAmount(lines, line.key, account.currency, byId);
      if (offer) {
        change(index, { [offer.side]: offer.amount });
        setFocus({ line: index, field: offer.side });
        return;
      }
    }
    setFocus({ line: index, field: line.credit.trim() && !line.debit.trim() ? 'credit' : 'debit' });
  };

  const nextLine = (index: number) => {
    if (index === lines.length - 1) setLines((all) => [...all, blankLine()]);
    setFocus({ line: index + 1, field: 'account' });
  };

  /** Opens a line's cost, in the entry's other currency where there is one. */
  const openCost = (index: number) => {
    const line = lines[index];
    const own = byId.get(line?.accountId ?? '')?.currency;
    const other =
      lines.map((l) => byId.get(l.accountId)?.currency).find((c) => c !== undefined && c !== own) ??
      (own === 'USD' ? 'EUR' : 'USD');
    change(index, { cost: { amount: '', currency: other } });
    setFocus({ line: index, field: 'cost' });
  };

  const changeCost = (index: number, patch: Partial<{ amount: string; currency: string }>) =>
    setLines((all) =>
      all.map((line, i) => (i === index && line.cost ? { ...line, cost: { ...line.cost, ...patch } } : line)),
    );

  const removeLine = (index: number) =>
    setLines((all) =>
      all.length <= 2 ? all.map((l, i) => (i === index ? blankLine() : l)) : all.filter((_, i) => i !== index),
    );

  const save = async (post: boolean) => {
    setBusy(post ? 'post' : 'draft');
    setError(undefined);
    try {
      const body = { entry_date: date, memo: memo.trim() || null, lines: toLineInputs(check.filled) };
      let entry: JournalEntryDto;
      if (draft) {
        entry = await updateEntry(draft.id, body);
        if (post) entry = await postEntry(entry.id);
      } else {
        entry = await createEntry({ ...body, auto_post: post });
      }
      onSaved(entry);
    } catch (failure) {
      setError(failure);
      setBusy(null);
    }
  };

  const onFormKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (check.ready && !busy) void save(true);
    } else if (event.key === 'Escape' && !busy) {
      const target = event.target as HTMLElement;
      if (target.getAttribute('role') !== 'combobox') onCancel();
    }
  };

  const amountKeyDown = (index: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      nextLine(index);
    }
  };

  return (
    <form
      className="panel entry-editor"
      aria-labelledby={headingId}
      onKeyDown={onFormKeyDown}
      onSubmit={(e) => {
        e.preventDefault();
        if (check.ready) void save(true);
      }}
    >
      <h2 id={headingId}>{draft ? t('editor.editDraft') : t('editor.new')}</h2>
      <p className="hint">{t('editor.keys')}</p>
      <div className="editor-head">
        <label>
          {t('entry.date')}
          <input type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
        </label>
        <label className="grow">
          {t('entry.memo')}
          <input type="text" autoFocus maxLength={500} value={memo} onChange={(e) => setMemo(e.target.value)} />
        </label>
      </div>
      <table className="lines-table">
        <thead>
          <tr>
            <th scope="col">{t('entry.account')}</th>
            <th scope="col" className="num">
              {t('entry.debit')}
            </th>
            <th scope="col" className="num">
              {t('entry.credit')}
            </th>
            <th scope="col">
              <span className="visually-hidden">{t('accounts.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line, index) => {
            const problem = check.problems.get(line.key);
            const account = byId.get(line.accountId);
            const n = index + 1;
            return (
              <Fragment key={line.key}>
                <tr className={problem ? 'line-problem' : undefined}>
                  <td>
                    <AccountPicker
                      accounts={choosable}
                      value={line.accountId}
                      onChange={(id) => change(index, { accountId: id })}
                      onChosen={(id) => accountChosen(index, id)}
                      label={t('editor.accountOfLine', { n })}
                      inputRef={ref(line.key, 'account')}
                    />
                    {problem && (
                      <span className="line-error" role="note">
                        {t(PROBLEM_TEXT[problem])}
                      </span>
                    )}
                  </td>
                  <td className="num">
                    <input
                      ref={ref(line.key, 'debit')}
                      className="amount-input"
                      inputMode="decimal"
                      aria-label={t('editor.debitOfLine', { n })}
                      aria-describedby={hintId}
                      value={line.debit}
                      onChange={(e) => change(index, { debit: e.target.value })}
                      onKeyDown={amountKeyDown(index)}
                    />
                  </td>
                  <td className="num">
                    <input
                      ref={ref(line.key, 'credit')}
                      className="amount-input"
                      inputMode="decimal"
                      aria-label={t('editor.creditOfLine', { n })}
                      aria-describedby={hintId}
                      value={line.credit}
                      onChange={(e) => change(index, { credit: e.target.value })}
                      onKeyDown={amountKeyDown(index)}
                    />
                    {account && <span className="line-currency">{account.currency}</span>}
                    {account && !line.cost && (
                      <button
                        type="button"
                        className="icon-button exchange-button"
                        aria-label={t('currency.addCost', { n })}
                        title={t('currency.addCost', { n })}
                        onClick={() => openCost(index)}
                      >
                        ⇄
                      </button>
                    )}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="icon-button"
                      tabIndex={-1}
                      aria-label={t('editor.removeLine', { n })}
                      onClick={() => removeLine(index)}
                    >
                      ×
                    </button>
                  </td>
                </tr>
                {line.cost && (
                  <tr className="cost-row">
                    <td colSpan={4}>
                      <div className="cost-fields">
                        <span className="cost-label">{t('currency.cost')}</span>
                        <input
                          ref={ref(line.key, 'cost')}
                          className="amount-input"
                          inputMode="decimal"
                          aria-label={t('currency.costAmount', { n })}
                          aria-describedby={hintId}
                          value={line.cost.amount}
                          onChange={(e) => changeCost(index, { amount: e.target.value })}
                          onKeyDown={amountKeyDown(index)}
                        />
                        <input
                          className="currency-input"
                          maxLength={3}
                          aria-label={t('currency.costCurrency', { n })}
                          value={line.cost.currency}
                          onChange={(e) => changeCost(index, { currency: e.target.value.toUpperCase() })}
                        />
                        {account && statedRate(line, account) && (
                          <span className="stated-rate" data-testid={`rate-of-line-${n}`}>
                            {t('currency.rate', {
                              from: account.currency,
                              to: line.cost.currency,
                              rate: statedRate(line, account)!,
                            })}
                          </span>
                        )}
                        <button
                          type="button"
                          className="icon-button"
                          aria-label={t('currency.removeCost', { n })}
                          onClick={() => change(index, { cost: null })}
                        >
                          ×
                        </button>
                      </div>
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      <div className="editor-foot">
        <button type="button" onClick={() => setLines((all) => [...all, blankLine()])}>
          {t('editor.addLine')}
        </button>
        <BalanceHint id={hintId} check={check} />
      </div>
      <ErrorNotice error={error} onDismiss={() => setError(undefined)} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={!check.ready || busy !== null}>
          {t('editor.post')}
        </button>
        <button type="button" disabled={!check.ready || busy !== null} onClick={() => void save(false)}>
          {t('editor.saveDraft')}
        </button>
        <button type="button" onClick={onCancel} disabled={busy !== null}>
          {t('action.cancel')}
        </button>
        {busy && <Busy inline label={busy === 'post' ? t('editor.posting') : t('editor.saving')} />}
      </div>
    </form>
  );
}
