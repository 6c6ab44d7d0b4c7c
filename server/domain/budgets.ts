import { FIRST_YEAR, LAST_YEAR, isLedgerYear } from './dates.ts';
import type { Minor } from './money.ts';

/**
 * Budget arithmetic on minor units. `remaining` is budgeted − actual (CONTRACT §17); a line with
 * carry-over also receives what the month before left (or overspent), envelope style as YNAB and
 * Actual Budget do: `available` = budgeted + carried in, and what is left of that at the month's
 * end carries on while each month's line keeps carry-over on.
 */

const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

export const FIRST_MONTH = `${FIRST_YEAR}-01`;
export const LAST_MONTH = `${LAST_YEAR}-12`;

/** A month YYYY-MM of the ledger's calendar (FIRST_MONTH … LAST_MONTH). */
export function isMonth(text: string): boolean {
  return MONTH_PATTERN.test(text) && isLedgerYear(Number(text.slice(0, 4)));
}

/** The month's number (months since year 0): months compared and counted as months, whatever their text. */
export function monthNumber(month: string): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return y * 12 + (m - 1);
}

/** How many months [start, end] holds (0 when end is before start). */
export function monthsIn(start: string, end: string): number {
  return Math.max(0, monthNumber(end) - monthNumber(start) + 1);
}

export function addMonths(month: string, months: number): string {
  const index = monthNumber(month) + months;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

export interface MonthFigures {
  month: string;
  budgeted: Minor;
  actual: Minor;
  carryOver: boolean;
}

/**
 * What carries into `month` for one account: walking back over the consecutive months just
 * before it whose line has carry-over on, the sum of (budgeted − actual) over that run. The run
 * stops at the first month without a carry-over line. `history` is the account's earlier lines
 * in any order; the walk is bounded by their number.
 */
export function carriedInto(month: string, history: readonly MonthFigures[]): Minor {
  const byMonth = new Map(history.map((h) => [h.month, h]));
  let carried = 0n;
  let cursor = addMonths(month, -1);
  for (let steps = 0; steps < history.length; steps++) {
    const line = byMonth.get(cursor);
    if (!line || !line.carryOver) break;
    carried += line.budgeted - line.actual;
    cursor = addMonths(cursor, -1);
  }
  return carried;
}

/** total / count rounded to a whole minor unit, half to even (as every rounding of money here). */
export function divideHalfEven(total: Minor, count: bigint): Minor {
  if (count <= 0n) throw new RangeError('count must be positive');
  const negative = total < 0n;
  const abs = negative ? -total : total;
  let quotient = abs / count;
  const twice = (abs % count) * 2n;
  if (twice > count || (twice === count && quotient % 2n === 1n)) quotient += 1n;
  return negative ? -quotient : quotient;
}
