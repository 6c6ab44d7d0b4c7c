import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import {
  correctEntry,
  createEntry,
  postEntry,
  updateEntry,
  type AccountDto,
  type JournalEntryDto,
} from '../api/index.ts';
import { Busy } from './busy.tsx';
import { TableHead } from './data-table.tsx';
import { ErrorNotice } from './error-notice.tsx';
import { fieldProblem } from './field-error.tsx';
import { TextField } from './text-field.tsx';
import { TEXT_LIMITS } from '../../../server/contract/limits.ts';
import { today } from '../dates.ts';
import { useI18n } from '../i18n/index.ts';
import { groupDecimal } from '../money.ts';
import { BalanceHint } from './balance-hint.tsx';
import { DateInput } from './date-input.tsx';
import {
  balancingAmount,
  blankLine,
  checkEntry,
  linesOf,
  toLineInputs,
  type EditableLine,
  type EditorCheck,
} from '../entry-lines.ts';
import { EntryLineRow, type CostSource } from './entry-line-row.tsx';
import { lookUpConversion } from '../hooks/use-conversion.ts';
import { useLineFocus } from '../hooks/use-line-focus.ts';

interface EntryEditorProps {
  accounts: AccountDto[];
  /**
   * a draft to change, or a posted entry to correct (saving voids it and posts the corrected entry
   * in its place), or undefined for a new entry
   */
  draft?: JournalEntryDto | undefined;
  /** a new entry's first lines (an account's register starts one on that account) */
  initialLines?: EditableLine[] | undefined;
  onSaved: (entry: JournalEntryDto) => void;
  onCancel: () => void;
}

/**
 * A journal entry being written. Keyboard: Tab moves between fields; Enter in an account search
 * chooses the account (and offers the balancing amount); Enter in an amount goes to the next line
 * (adding one); Ctrl+Enter posts. The "unbalanced by …" hint is computed exactly (BigInt minor units).
 * Work in progress is kept as a draft whether or not it balances; posting needs it balanced, and
 * the editor says so beside the Post button (and at once when Ctrl+Enter is pressed too early).
 * A line in another currency can state what it cost (an exchange): the ⇄ button opens its cost,
 * prefilled from the rate table at the entry's date, the editor shows the rate it implies, and the
 * entry balances by cost (the server adds the automatic lines on the currency trading accounts).
 * A posted entry is corrected here: it is shown as it is, and saving posts the correction (no draft).
 */
export function EntryEditor({ accounts, draft, initialLines, onSaved, onCancel }: EntryEditorProps) {
  const { t } = useI18n();
  const headingId = useId();
  const hintId = useId();
  const whyId = useId();
  const [date, setDate] = useState(draft?.entry_date ?? today());
  const [memo, setMemo] = useState(draft?.memo ?? '');
  const [lines, setLines] = useState<EditableLine[]>(() =>
    draft ? linesOf(draft) : initialLines && initialLines.length > 0 ? initialLines : [blankLine(), blankLine()],
  );
  const [busy, setBusy] = useState<'draft' | 'post' | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  /** Ctrl+Enter was pressed before the entry could be posted: say why, as an alert */
  const [tried, setTried] = useState(false);
  /** where each line's cost came from (by line key): the rate table's date, or no rate */
  const [costSources, setCostSources] = useState<ReadonlyMap<number, CostSource>>(new Map());
  const correcting = draft?.status === 'posted';

  const byId = useMemo(() => new Map(accounts.map((a) => [a.id, a])), [accounts]);
  const choosable = useMemo(() => accounts.filter((a) => a.is_active), [accounts]);
  const check = checkEntry(lines, byId);
  const { fieldRef, focusField, inEmptyField } = useLineFocus(lines);

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
        focusField(index, offer.side);
        return;
      }
    }
    focusField(index, line.credit.trim() && !line.debit.trim() ? 'credit' : 'debit');
  };

  const nextLine = (index: number) => {
    if (index === lines.length - 1) setLines((all) => [...all, blankLine()]);
    focusField(index + 1, 'account');
  };

  /** Fills an empty cost from the rate table at the entry's date (the line's amount converted), or says there is no rate. */
  const prefillCost = async (key: number, amount: string, from: string, to: string) => {
    const answer = await lookUpConversion(amount, from, to, date).catch(() => null);
    if (answer === null) return;
    setCostSources((m) =>
      new Map(m).set(key, answer === 'missing' ? { missing: true, from, to, date } : { date: answer.price.date }),
    );
    if (answer === 'missing') return;
    // a prefilled cost the person is waiting in is selected, so that what they type replaces it
    const index = lines.findIndex((l) => l.key === key);
    if (index >= 0 && inEmptyField(key, 'cost')) focusField(index, 'cost');
    setLines((all) =>
      all.map((l) =>
        l.key === key && l.cost && !l.cost.amount.trim() && l.cost.currency === to
          ? { ...l, cost: { ...l.cost, amount: groupDecimal(answer.converted_amount) } }
          : l,
      ),
    );
  };

  /** Opens a line's cost, in the entry's other currency where there is one, prefilled from the rate table. */
  const openCost = (index: number) => {
    const line = lines[index];
    const own = byId.get(line?.accountId ?? '')?.currency;
    const other =
      lines.map((l) => byId.get(l.accountId)?.currency).find((c) => c !== undefined && c !== own) ??
      (own === 'USD' ? 'EUR' : 'USD');
    change(index, { cost: { amount: '', currency: other } });
    focusField(index, 'cost');
    if (line && own) void prefillCost(line.key, line.debit || line.credit, own, other);
  };

  const changeCost = (index: number, patch: Partial<NonNullable<EditableLine['cost']>>) => {
    const line = lines[index];
    setLines((all) => all.map((l, i) => (i === index && l.cost ? { ...l, cost: { ...l.cost, ...patch } } : l)));
    const own = byId.get(line?.accountId ?? '')?.currency;
    // a new currency for an empty cost: look it up again
    if (line?.cost && own && patch.currency && patch.currency.length === 3 && !line.cost.amount.trim())
      void prefillCost(line.key, line.debit || line.credit, own, patch.currency);
  };

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
      if (correcting) {
        entry = (await correctEntry(draft.id, body)).entry;
      } else if (draft) {
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

  const whyNot = postBlocker(check);
  // too few lines is what the balance hint says already; the rest is said here, at once
  const showWhy = whyNot !== null && (tried || whyNot !== 'lines');

  const onFormKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (check.ready && !busy) void save(true);
      else setTried(true);
    } else if (event.key === 'Escape' && !busy) {
      const target = event.target as HTMLElement;
      if (target.getAttribute('role') !== 'combobox') onCancel();
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
        else setTried(true);
      }}
    >
      <h2 id={headingId}>{correcting ? t('editor.correct') : draft ? t('editor.editDraft') : t('editor.new')}</h2>
      <p className="hint">{correcting ? t('editor.correctHint') : t('editor.keys')}</p>
      <div className="editor-head">
        <DateInput label={t('entry.date')} required value={date} onChange={setDate} />
        <TextField
          className="grow"
          label={t('entry.memo')}
          type="text"
          autoFocus
          limit={TEXT_LIMITS.memo}
          value={memo}
          onChange={setMemo}
          problem={fieldProblem(error, 'memo', t)}
        />
      </div>
      <table className="lines-table">
        <TableHead
          columns={[
            { header: t('entry.account') },
            { header: t('entry.debit'), numeric: true },
            { header: t('entry.credit'), numeric: true },
            { header: t('accounts.actions'), hiddenHeader: true },
          ]}
        />
        <tbody>
          {lines.map((line, index) => (
            <EntryLineRow
              key={line.key}
              line={line}
              n={index + 1}
              account={byId.get(line.accountId)}
              accounts={choosable}
              problem={check.problems.get(line.key)}
              hintId={hintId}
              fieldRef={fieldRef}
              onChange={(patch) => change(index, patch)}
              onChosen={(id) => accountChosen(index, id)}
              onNext={() => nextLine(index)}
              onTabNext={() => {
                if (index >= lines.length - 1) return false;
                focusField(index + 1, 'account');
                return true;
              }}
              onRemove={() => removeLine(index)}
              onOpenCost={() => openCost(index)}
              onCostChange={(patch) => changeCost(index, patch)}
              costSource={costSources.get(line.key)}
            />
          ))}
        </tbody>
      </table>
      <div className="editor-foot">
        <button type="button" onClick={() => setLines((all) => [...all, blankLine()])}>
          {t('editor.addLine')}
        </button>
        <BalanceHint id={hintId} check={check} />
      </div>
      <ErrorNotice
        error={error}
        onDismiss={() => setError(undefined)}
        // a correction refused for the entry's state: said plainly, the server's reason (the bank line) under Details
        words={correcting ? { INVALID_STATUS: 'editor.correctBlocked' } : undefined}
      />
      <div className="form-actions">
        <button
          type="submit"
          className="primary"
          aria-disabled={!check.ready || busy !== null}
          aria-describedby={showWhy ? whyId : undefined}
          disabled={busy !== null}
        >
          {correcting ? t('editor.saveCorrection') : t('editor.post')}
        </button>
        {!correcting && (
          <button type="button" disabled={!check.draftReady || busy !== null} onClick={() => void save(false)}>
            {t('editor.saveDraft')}
          </button>
        )}
        <button type="button" onClick={onCancel} disabled={busy !== null}>
          {t('action.cancel')}
        </button>
        {busy && <Busy inline label={busy === 'post' ? t('editor.posting') : t('editor.saving')} />}
      </div>
      {showWhy && (
        <p
          id={whyId}
          className={tried ? 'post-why notice notice-warn' : 'post-why hint'}
          role={tried ? 'alert' : undefined}
        >
          {whyNot === 'unbalanced'
            ? t('editor.whyUnbalanced')
            : whyNot === 'problems'
              ? t('editor.whyProblems')
              : t('editor.whyLines')}
        </p>
      )}
    </form>
  );
}

/** Why the entry cannot be posted yet, or null when it can. */
function postBlocker(check: EditorCheck): 'lines' | 'problems' | 'unbalanced' | null {
  if (check.ready) return null;
  if (check.problems.size > 0) return 'problems';
  if (check.filled.length < 2) return 'lines';
  return 'unbalanced';
}
