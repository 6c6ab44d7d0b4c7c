import type { AccountType, Direction } from '../../domain/double-entry.ts';
import type { Minor } from '../../domain/money.ts';

/** One line of a posted entry, as the maintained totals count it. */
export interface PostedLine {
  accountId: string;
  accountType: AccountType;
  direction: Direction;
  amountMinor: Minor;
  currency: string;
}

/** Two sums of an account: debit and credit for its totals, in and out for its cash flow. */
export interface Pair {
  a: Minor;
  b: Minor;
}
