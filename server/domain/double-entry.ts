import type { Minor } from './money.ts';

export const ACCOUNT_TYPES = ['ASSET', 'LIABILITY', 'EQUITY', 'INCOME', 'EXPENSE'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
export const DIRECTIONS = ['DEBIT', 'CREDIT'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/**
 * An entry counts in the books from its posting on, also once voided: its reversal, a posted entry
 * of its own, offsets it. A draft counts nowhere.
 */
export const BOOKED_ENTRY_STATUSES = ['posted', 'void'] as const;

export interface PostingLine {
  direction: Direction;
  amountMinor: Minor;
  currency: string;
}

/** Debits minus credits per currency. */
export function imbalanceByCurrency(lines: readonly PostingLine[]): Map<string, Minor> {
  const out = new Map<string, Minor>();
  for (const line of lines) {
    const signed = line.direction === 'DEBIT' ? line.amountMinor : -line.amountMinor;
    out.set(line.currency, (out.get(line.currency) ?? 0n) + signed);
  }
  return out;
}

/**
 * Balanced means debits equal credits exactly in every currency. The spec's tolerance of 0.01 is
 * exact equality for two-digit currencies; for three-digit ones (KWD) we stay exact too, so that a
 * posted ledger's trial balance is always exactly zero.
 */
export function unbalancedCurrencies(lines: readonly PostingLine[]): { currency: string; imbalance: Minor }[] {
  return [...imbalanceByCurrency(lines)]
    .filter(([, imbalance]) => imbalance !== 0n)
    .map(([currency, imbalance]) => ({ currency, imbalance }));
}

/** ASSET and EXPENSE are debit-normal; LIABILITY, EQUITY and INCOME credit-normal. */
export function isDebitNormal(type: AccountType): boolean {
  return type === 'ASSET' || type === 'EXPENSE';
}

/** Balance signed in the account's normal direction. */
export function normalBalance(type: AccountType, debitMinor: Minor, creditMinor: Minor): Minor {
  return isDebitNormal(type) ? debitMinor - creditMinor : creditMinor - debitMinor;
}

/** The lines of the reversal that voids an entry: same accounts and amounts, directions swapped. */
export function reversalLines<L extends PostingLine>(lines: readonly L[]): L[] {
  return lines.map((l) => ({ ...l, direction: l.direction === 'DEBIT' ? 'CREDIT' : 'DEBIT' }));
}

/** `Void: <original memo> (<reason>)`, leaving out what was not given. */
export function reversalMemo(originalMemo: string | null, reason: string | null): string {
  const parts = [originalMemo?.trim() || null, reason?.trim() ? `(${reason.trim()})` : null].filter(Boolean);
  return parts.length > 0 ? `Void: ${parts.join(' ')}` : 'Void:';
}
