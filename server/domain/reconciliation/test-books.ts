import type { AccountType, BankTxn, CandidateEntry } from './types.ts';

/** Builders of bank transactions and candidate entries for the reconciliation domain's tests. */

export const USD = 2;

export function txn(
  id: string,
  date: string,
  description: string,
  amountMinor: bigint,
  type: BankTxn['type'] = 'debit',
): BankTxn {
  return { id, date, description, amountMinor, type };
}

export function entry(
  id: string,
  entryDate: string,
  memo: string | null,
  amountMinor: bigint,
  direction: 'DEBIT' | 'CREDIT' = 'CREDIT',
  counters: readonly (readonly [string, AccountType])[] = [['groceries', 'EXPENSE']],
): CandidateEntry {
  return {
    id,
    entryDate,
    memo,
    accountLine: { direction, amountMinor },
    counterAccounts: counters.map(([cid, type]) => ({ id: cid, type })),
  };
}

export function byDate(entries: readonly CandidateEntry[]): CandidateEntry[] {
  return [...entries].sort((a, b) => (a.entryDate < b.entryDate ? -1 : a.entryDate > b.entryDate ? 1 : 0));
}
