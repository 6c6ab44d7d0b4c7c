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
  /** 0..1, two decimals */
  confidence: number;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/**
 * Counter accounts for a bank transaction, best first: accounts the payee model learnt for this
 * description whose type fits the direction (money out to EXPENSE/ASSET/LIABILITY, money in from
 * INCOME/ASSET/LIABILITY/EQUITY); then the user's most used fitting accounts (`usage`: entries per
 * account), with a small confidence proportional to their share of use; last, learnt accounts of
 * another type (a refund credited to an expense). At most three fitting ones and one other; never
 * the bank account itself nor an inactive account.
 */
export function suggestCounterAccounts(
  model: PayeeModel,
  accounts: ReadonlyMap<string, SuggestableAccount>,
  usage: ReadonlyMap<string, number>,
  txn: { readonly description: string; readonly type: 'debit' | 'credit'; readonly accountId: string },
): SuggestedAccount[] {
  const fits = txn.type === 'debit' ? MONEY_OUT_COUNTER_TYPES : MONEY_IN_COUNTER_TYPES;
  const usable = (a: SuggestableAccount | undefined): a is SuggestableAccount =>
    a !== undefined && a.isActive && a.id !== txn.accountId;
  const learnt = model
    .predict(txn.description, 5)
    .map((p) => ({ account: accounts.get(p.accountId), confidence: p.confidence }))
    .filter((x): x is { account: SuggestableAccount; confidence: number } => usable(x.account));
  const out = learnt
    .filter((x) => fits.has(x.account.type))
    .slice(0, 3)
    .map((x) => ({ id: x.account.id, name: x.account.name, confidence: round2(x.confidence) }));
  const others = [...accounts.values()].filter((a) => usable(a) && fits.has(a.type) && !out.some((o) => o.id === a.id));
  const used = others.reduce((sum, a) => sum + (usage.get(a.id) ?? 0), 0);
  others
    .sort((a, b) => (usage.get(b.id) ?? 0) - (usage.get(a.id) ?? 0) || a.name.localeCompare(b.name))
    .slice(0, Math.max(0, 3 - out.length))
    .forEach((a) =>
      out.push({ id: a.id, name: a.name, confidence: used === 0 ? 0 : round2(((usage.get(a.id) ?? 0) / used) * 0.25) }),
    );
  const unfitting = learnt.find((x) => !fits.has(x.account.type));
  if (unfitting)
    out.push({ id: unfitting.account.id, name: unfitting.account.name, confidence: round2(unfitting.confidence) });
  return out;
}
