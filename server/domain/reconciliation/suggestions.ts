import type { PayeeModel } from './payee-model.ts';
import type { AccountType } from './types.ts';

/** What a suggestion needs to know of an account. */
export interface SuggestableAccount {
  readonly id: string;
  readonly name: string;
  readonly type: AccountType;
  readonly isActive: boolean;
  readonly currency: string;
}

interface SuggestedAccount {
  id: string;
  name: string;
  /** 0.01..1, two decimals; 1 for a rule's account */
  confidence: number;
  /** the rule that names this account, if one does */
  rule_id: string | null;
}

export interface Suggestions {
  suggested: SuggestedAccount[];
  /** the account chosen for a person before they choose, or null */
  preselected: string | null;
}

/** Learnt accounts offered for a line at most (a rule's account comes on top). */
const MAX_SUGGESTIONS = 3;
/** The least calibrated confidence a learnt account is offered with: below it, a chip is noise. */
export const MIN_SUGGESTED_CONFIDENCE = 0.05;
/** The least calibrated confidence that preselects an account for a payee never booked before. */
const PRESELECT_NEW_PAYEE = 0.9;
/** The least calibrated confidence that preselects the account a payee booked before mostly went to. */
export const PRESELECT_KNOWN_PAYEE = 0.8;

/**
 * The kinds of account a line may be booked to without having been booked so before: money out to
 * an expense, money in from income, either way to or from one of the user's own accounts (an
 * asset or a liability: a transfer). Never equity (an opening balance is not a bank line's
 * other side) unless a rule says so.
 */
const KINDS: Record<'debit' | 'credit', ReadonlySet<AccountType>> = {
  debit: new Set(['EXPENSE', 'ASSET', 'LIABILITY']),
  credit: new Set(['INCOME', 'ASSET', 'LIABILITY']),
};

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/**
 * Counter accounts for a bank line, surest first, and the one chosen before the person chooses:
 * - the account of the first rule that matches it (`rule`), with confidence 1, preselected;
 * - then up to three accounts the payee model ranks for it (this payee's own bookings, then the
 *   text classifier; calibrated confidences), each offered only if its confidence is at least
 *   `MIN_SUGGESTED_CONFIDENCE` and it is active, not the bank account itself, and of a kind that
 *   fits the direction (`KINDS`) and in the bank account's currency, unless this very payee was
 *   booked to it before in this direction (a refund credited to an expense, a payee paid in
 *   another currency);
 * - preselected without a rule: the first, when it is the account this payee mostly went to
 *   before and is at least `PRESELECT_KNOWN_PAYEE` sure, or when it is at least
 *   `PRESELECT_NEW_PAYEE` sure and that confidence is measured (enough of the user's own bookings
 *   stand behind it); otherwise none, and the line waits for a choice.
 * With no history at all, nothing is offered: a guess is worse than the account list.
 */
export function suggestCounterAccounts(
  model: PayeeModel,
  accounts: ReadonlyMap<string, SuggestableAccount>,
  txn: {
    readonly description: string;
    readonly type: 'debit' | 'credit';
    readonly accountId: string;
    readonly amountMinor: bigint;
  },
  rule?: { readonly id: string; readonly accountId: string } | undefined,
): Suggestions {
  const bank = accounts.get(txn.accountId);
  const usable = (a: SuggestableAccount | undefined): a is SuggestableAccount =>
    a !== undefined && a.isActive && a.id !== txn.accountId;
  const suggested: SuggestedAccount[] = [];
  const ruleAccount = rule ? accounts.get(rule.accountId) : undefined;
  if (rule && usable(ruleAccount))
    suggested.push({ id: ruleAccount.id, name: ruleAccount.name, confidence: 1, rule_id: rule.id });
  const prediction = model.predict(txn.description, { type: txn.type, amountMinor: txn.amountMinor });
  const bookedBefore = model.payeeAccounts(txn.description);
  let learnt = 0;
  let first: { id: string; confidence: number; supported: boolean } | undefined;
  for (const p of prediction.accounts) {
    if (learnt === MAX_SUGGESTIONS) break;
    const account = accounts.get(p.accountId);
    const confidence = round2(p.confidence);
    if (!usable(account) || confidence < MIN_SUGGESTED_CONFIDENCE || suggested.some((s) => s.id === account.id))
      continue;
    const evidence = (bookedBefore.get(account.id) ?? 0) > 0;
    const fits = KINDS[txn.type].has(account.type) && (bank === undefined || account.currency === bank.currency);
    if (!fits && !(evidence && account.type !== 'EQUITY')) continue;
    suggested.push({ id: account.id, name: account.name, confidence, rule_id: null });
    first ??= { id: account.id, confidence: p.confidence, supported: p.supported };
    learnt += 1;
  }
  if (suggested[0]?.rule_id) return { suggested, preselected: suggested[0].id };
  const sure =
    first !== undefined &&
    ((first.confidence >= PRESELECT_NEW_PAYEE && first.supported) ||
      (first.id === prediction.payeeAccount && first.confidence >= PRESELECT_KNOWN_PAYEE));
  return { suggested, preselected: sure ? first!.id : null };
}
