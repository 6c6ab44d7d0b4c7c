import { DomainError } from './errors.ts';

/**
 * Calendar dates are ISO `YYYY-MM-DD` text; arithmetic goes through UTC so time zones never shift a
 * day. The ledger keeps the dates FIRST_DATE … LAST_DATE: every date it is given is one of them, so
 * every walk over days or months has a known, small number of steps.
 */

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export const FIRST_YEAR = 1900;
export const LAST_YEAR = 2199;
const FIRST_DATE = `${FIRST_YEAR}-01-01`;
export const LAST_DATE = `${LAST_YEAR}-12-31`;
export const DATE_RANGE_TEXT = `${FIRST_DATE} to ${LAST_DATE}`;

/** A calendar date within FIRST_DATE … LAST_DATE: the dates the ledger takes. */
export function isLedgerDate(text: string): boolean {
  return isCalendarDate(text) && isLedgerYear(Number(text.slice(0, 4)));
}

export function isLedgerYear(year: number): boolean {
  return Number.isInteger(year) && year >= FIRST_YEAR && year <= LAST_YEAR;
}

export function isCalendarDate(text: string): boolean {
  const m = DATE_PATTERN.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  return d <= daysInMonth(y, mo);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function toUtc(date: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const utc = new Date(Date.UTC(2000, m - 1, d));
  utc.setUTCFullYear(y);
  return utc;
}

function fromUtc(utc: Date): string {
  const y = String(utc.getUTCFullYear()).padStart(4, '0');
  const m = String(utc.getUTCMonth() + 1).padStart(2, '0');
  const d = String(utc.getUTCDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** Today in the machine's local time zone: the user's own calendar day. */
export function localToday(now: Date = new Date()): string {
  const y = String(now.getFullYear()).padStart(4, '0');
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

export function addDays(date: string, days: number): string {
  const utc = toUtc(date);
  utc.setUTCDate(utc.getUTCDate() + days);
  return fromUtc(utc);
}

export function daysBetween(a: string, b: string): number {
  return Math.round((toUtc(b).getTime() - toUtc(a).getTime()) / 86_400_000);
}

/** The day's number (days since 1970-01-01): dates compared as dates, whatever their text. */
export function dayNumber(date: string): number {
  return Math.round(toUtc(date).getTime() / 86_400_000);
}

export function monthOf(date: string): string {
  return date.slice(0, 7);
}

export function startOfMonth(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

export function endOfMonth(date: string): string {
  const [y, m] = date.split('-').map(Number) as [number, number];
  return `${date.slice(0, 7)}-${String(daysInMonth(y, m)).padStart(2, '0')}`;
}

/** ISO week: weeks end on Sunday. */
export function endOfWeek(date: string): string {
  const weekday = toUtc(date).getUTCDay(); // 0 = Sunday
  return addDays(date, (7 - weekday) % 7);
}

export function startOfYear(date: string): string {
  return `${date.slice(0, 4)}-01-01`;
}

export type Interval = 'day' | 'week' | 'month';

/**
 * The periods covering [start, end], each clipped to the range: `[{ start, end }]`. Their number is
 * counted first and refused past `limit` (VALIDATION_ERROR naming it), so the walk's length is known
 * before it starts.
 */
export function periods(
  start: string,
  end: string,
  interval: Interval,
  limit: number,
): { start: string; end: string }[] {
  const count = countPeriods(start, end, interval);
  if (count > limit)
    throw new DomainError(
      'VALIDATION_ERROR',
      `The range has more than ${limit} ${interval}s; choose a longer interval or a shorter range`,
      [{ field: 'interval', message: `at most ${limit} periods in the range` }],
    );
  const last = dayNumber(end);
  const out: { start: string; end: string }[] = [];
  let cursor = start;
  for (let i = 0; i < count && dayNumber(cursor) <= last; i++) {
    const natural = interval === 'day' ? cursor : interval === 'week' ? endOfWeek(cursor) : endOfMonth(cursor);
    const periodEnd = dayNumber(natural) < last ? natural : end;
    out.push({ start: cursor, end: periodEnd });
    cursor = addDays(periodEnd, 1);
  }
  return out;
}

/** How many periods cover [start, end] (for weeks, at most one more than there are). */
export function countPeriods(start: string, end: string, interval: Interval): number {
  if (dayNumber(start) > dayNumber(end)) return 0;
  const days = daysBetween(start, end) + 1;
  if (interval === 'day') return days;
  if (interval === 'week') return Math.ceil(days / 7) + 1;
  const [sy, sm] = start.split('-').map(Number) as [number, number];
  const [ey, em] = end.split('-').map(Number) as [number, number];
  return (ey - sy) * 12 + (em - sm) + 1;
}
