import type { PayeeModel } from './payee-model.ts';
import { MONEY_IN_COUNTER_TYPES, MONEY_OUT_COUNTER_TYPES } from './scoring.ts';
import type { AccountType } from './types.ts';

/** What a suggestion needs to know of an account. */
export interface SuggestableAccount {
  readonly id: string;
  readonly name: string;
  readonly type: AccountType;
  readonly isActive: boolean;
}

export interface SuggestedAccount {
  id: string;
  name: string;
  /** 0..1, two decimals; 1 for a rule's account */
  confidence: number;
  /** the rule that names this account, if one does */
  rule_id: string | null;
}

/**
 * The least confidence a learnt account needs to be chosen for a person before they choose (a
 * payee booked to it once gives 0.5 at most: the payee model's calibration). Below it a bank line
 * waits for a choice: a guess booked with one click is worse than a question.
 */
export const PRESELECT_MIN_CONFIDENCE = 0.5;

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/**
 * Counter accounts for a bank transaction, highest confidence first:
 * - the account of the first rule that matches it (`rule`), with confidence 1;
 * - accounts learnt for this description (`learntAccounts`: this payee's own bookings first, then
 *   the payee model's calibrated confidence): up to three whose type fits the direction (money out
 *   to EXPENSE/ASSET/LIABILITY, money in from INCOME/ASSET/LIABILITY/EQUITY) and one that does not
 *   (a refund credited to an expense);
 * - the user's most used fitting accounts (`usage`: entries per account) to make three fitting
 *   ones, with a small confidence proportional to their share of use (at most 0.25).
 * An account that does not fit is ranked above one that fits only for a payee booked before to
 * that very account (the same payee key) and to no fitting one; otherwise, and always for a payee
 * never booked before, its confidence is held at the lowest fitting one's, and ties go to the
 * fitting account. Never the bank account itself, nor an inactive account.
 */
export function suggestCounterAccounts(
  model: PayeeModel,
  accounts: ReadonlyMap<string, SuggestableAccount>,
  usage: ReadonlyMap<string, number>,
  txn: { readonly description: string; readonly type: 'debit' | 'credit'; readonly accountId: string },
  rule?: { readonly id: string; readonly accountId: string } | undefined,
): SuggestedAccount[] {
  const fits = txn.type === 'debit' ? MONEY_OUT_COUNTER_TYPES : MONEY_IN_COUNTER_TYPES;
  const usable = (a: SuggestableAccount | undefined): a is SuggestableAccount =>
    a !== undefined && a.isActive && a.id !== txn.accountId;
  const ruleAccount = rule ? accounts.get(rule.accountId) : undefined;
  const taken = new Set<string>();
  const out: (SuggestedAccount & { fits: boolean })[] = [];
  if (rule && usable(ruleAccount)) {
    out.push({ id: ruleAccount.id, name: ruleAccount.name, confidence: 1, rule_id: rule.id, fits: true });
    taken.add(ruleAccount.id);
  }
  const learnt = learntAccounts(model, txn.description)
    .map((p) => ({ account: accounts.get(p.accountId), confidence: p.confidence }))
    .filter(
      (x): x is { account: SuggestableAccount; confidence: number } => usable(x.account) && !taken.has(x.account.id),
    );
  const fitting = learnt.filter((x) => fits.has(x.account.type)).slice(0, 3);
  for (const x of fitting) {
    out.push({ id: x.account.id, name: x.account.name, confidence: round2(x.confidence), rule_id: null, fits: true });
    taken.add(x.account.id);
  }
  const others = [...accounts.values()].filter((a) => usable(a) && fits.has(a.type) && !taken.has(a.id));
  const used = others.reduce((sum, a) => sum + (usage.get(a.id) ?? 0), 0);
  others
    .sort((a, b) => (usage.get(b.id) ?? 0) - (usage.get(a.id) ?? 0) || a.name.localeCompare(b.name))
    .slice(0, Math.max(0, 3 - fitting.length))
    .forEach((a) => {
      const share = used === 0 ? 0 : ((usage.get(a.id) ?? 0) / used) * 0.25;
      out.push({ id: a.id, name: a.name, confidence: round2(share), rule_id: null, fits: true });
      taken.add(a.id);
    });
  const unfitting = learnt.find((x) => !fits.has(x.account.type));
  if (unfitting) {
    // Only a payee booked before to this very account, and to no fitting one, can have it ranked
    // first: a refund credited to an expense. Words shared with other payees never do.
    const known = fitting.length === 0 && (model.payeeAccounts(txn.description).get(unfitting.account.id) ?? 0) > 0;
    const lowestFitting = Math.min(...out.filter((o) => o.fits && o.rule_id === null).map((o) => o.confidence));
    const confidence = round2(unfitting.confidence);
    out.push({
      id: unfitting.account.id,
      name: unfitting.account.name,
      confidence: known || !Number.isFinite(lowestFitting) ? confidence : Math.min(confidence, lowestFitting),
      rule_id: null,
      fits: false,
    });
  }
  return out
    .map((o, index) => ({ o, index }))
    .sort(
      (a, b) =>
        Number(b.o.rule_id !== null) - Number(a.o.rule_id !== null) ||
        b.o.confidence - a.o.confidence ||
        Number(b.o.fits) - Number(a.o.fits) ||
        a.index - b.index,
    )
    .map(({ o }) => ({ id: o.id, name: o.name, confidence: o.confidence, rule_id: o.rule_id }));
}

/**
 * The accounts learnt for a description, surest first. This very payee (the same payee key) booked
 * before speaks first: of n such bookings, an account's share of them, damped by n / (n + 1) as the
 * model damps its evidence, and the model's confidence (payees sharing words) fills the rest,
 * 1 / (n + 1). So three bookings of "Giubiasco City" to groceries outweigh ten of "City Power"
 * to utilities that share one word with it.
 */
function learntAccounts(model: PayeeModel, description: string): { accountId: string; confidence: number }[] {
  const predicted = model.predict(description, 8);
  const exact = model.payeeAccounts(description);
  let n = 0;
  for (const c of exact.values()) n += c;
  if (n === 0) return predicted;
  const rest = 1 / (n + 1);
  const out = new Map<string, number>();
  for (const p of predicted) out.set(p.accountId, p.confidence * rest);
  for (const [accountId, c] of exact) out.set(accountId, (out.get(accountId) ?? 0) + (c / n) * (n / (n + 1)));
  return [...out]
    .map(([accountId, confidence]) => ({ accountId, confidence: Math.min(1, confidence) }))
    .sort((a, b) => b.confidence - a.confidence || (a.accountId < b.accountId ? -1 : 1));
}

/** The account chosen for a person before they choose: a rule's, or a learnt one confident enough; else none. */
export function preselectedAccount(suggestions: readonly SuggestedAccount[]): string | null {
  const first = suggestions[0];
  if (!first) return null;
  return first.rule_id !== null || first.confidence >= PRESELECT_MIN_CONFIDENCE ? first.id : null;
}
