import type { Minor } from '../../domain/money.ts';

/** A currency's balances of one account type at one date: their sum, and how many are not zero. */
export interface WorthSide {
  sum: Minor;
  nonZero: number;
}

/** One point of the net-worth series: per currency, its ASSET and LIABILITY balances. */
export interface WorthPoint {
  date: string;
  byCurrency: ReadonlyMap<string, { assets: WorthSide; liabilities: WorthSide }>;
}
