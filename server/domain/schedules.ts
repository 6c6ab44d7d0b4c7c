import { addDays, daysBetween, dayNumber, isLedgerDate, LAST_DATE, LAST_YEAR } from './dates.ts';

/**
 * When a scheduled entry falls due. Occurrence n (0, 1, 2, …) is computed directly from the start,
 * never by stepping from the one before, so a monthly schedule on the 31st falls on the last day of
 * shorter months and comes back to the 31st after them (Jan 31, Feb 28, Mar 31), and a yearly one
 * on Feb 29 falls on Feb 28 in common years. Every walk here is bounded by a count the caller gives.
 */

export const FREQUENCIES = ['daily', 'weekly', 'monthly', 'yearly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export interface Recurrence {
  frequency: Frequency;
  /** every `interval` days, weeks, months or years; ≥ 1 */
  interval: number;
  startDate: string;
  /** inclusive; null: no end */
  endDate: string | null;
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function ymd(date: string): [number, number, number] {
  return date.split('-').map(Number) as [number, number, number];
}

function format(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The start's day of month, or the month's last day when the month is shorter. */
function monthsAfter(start: string, months: number): string | null {
  const [y, m, d] = ymd(start);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  if (year > LAST_YEAR) return null;
  const month = (index % 12) + 1;
  return format(year, month, Math.min(d, daysIn(year, month)));
}

/** Occurrence n of the recurrence, ignoring its end date; null past the ledger's last date. */
export function occurrenceDate(r: Recurrence, n: number): string | null {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError('occurrence index must be a whole number ≥ 0');
  switch (r.frequency) {
    case 'daily':
    case 'weekly': {
      const days = n * r.interval * (r.frequency === 'weekly' ? 7 : 1);
      if (days > daysBetween(r.startDate, LAST_DATE)) return null;
      return addDays(r.startDate, days);
    }
    case 'monthly':
      return monthsAfter(r.startDate, n * r.interval);
    case 'yearly':
      return monthsAfter(r.startDate, n * r.interval * 12);
  }
}

/** The index of the first occurrence on or after `date` (ignoring the end date). */
export function firstIndexOnOrAfter(r: Recurrence, date: string): number {
  if (date <= r.startDate) return 0;
  let n: number;
  if (r.frequency === 'daily' || r.frequency === 'weekly') {
    const step = r.interval * (r.frequency === 'weekly' ? 7 : 1);
    n = Math.ceil(daysBetween(r.startDate, date) / step);
  } else {
    const [y0, m0] = ymd(r.startDate);
    const [y, m] = ymd(date);
    const months = (y - y0) * 12 + (m - m0);
    n = Math.max(0, Math.floor(months / (r.interval * (r.frequency === 'yearly' ? 12 : 1))) - 1);
    // the estimate is at most two short: the day of month decides the rest
    for (let guard = 0; guard < 3; guard++) {
      const at = occurrenceDate(r, n);
      if (at === null || at >= date) break;
      n += 1;
    }
  }
  return n;
}

/** The first occurrence on or after `date`, within the end date; null when there is none. */
export function nextOccurrence(r: Recurrence, date: string): string | null {
  const at = occurrenceDate(r, firstIndexOnOrAfter(r, date));
  return at !== null && (r.endDate === null || at <= r.endDate) ? at : null;
}

/** The first occurrence after `date`, within the end date; null when there is none. */
export function occurrenceAfter(r: Recurrence, date: string): string | null {
  return dayNumber(date) >= dayNumber(LAST_DATE) ? null : nextOccurrence(r, addDays(date, 1));
}

/** Whether `date` is one of the recurrence's occurrences (within its end date). */
export function isOccurrence(r: Recurrence, date: string): boolean {
  return isLedgerDate(date) && nextOccurrence(r, date) === date;
}

/**
 * The occurrences in [from, to] (within the end date), in order, at most `limit` of them;
 * `more` says whether the range holds further ones.
 */
export function occurrencesBetween(
  r: Recurrence,
  from: string,
  to: string,
  limit: number,
): { dates: string[]; more: boolean } {
  const last = r.endDate !== null && r.endDate < to ? r.endDate : to;
  const dates: string[] = [];
  let n = firstIndexOnOrAfter(r, from);
  for (;;) {
    const at = occurrenceDate(r, n);
    if (at === null || at > last) return { dates, more: false };
    if (dates.length === limit) return { dates, more: true };
    dates.push(at);
    n += 1;
  }
}
