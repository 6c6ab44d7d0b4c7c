import type { Minor } from '../../domain/money.ts';

/** One account's budget of one month. */
export interface BudgetLine {
  month: string;
  accountId: string;
  amountMinor: Minor;
  carryOver: boolean;
}
