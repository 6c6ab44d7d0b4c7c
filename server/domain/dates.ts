/** Calendar dates are ISO `YYYY-MM-DD` text; arithmetic goes through UTC so time zones never shift a day. */

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

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

export function nextMonthStart(date: string): string {
  return addDays(endOfMonth(date), 1);
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

/** The periods covering [start, end], each clipped to the range: `[{ start, end }]`. */
export function periods(start: string, end: string, interval: Interval): { start: string; end: string }[] {
  const out: { start: string; end: string }[] = [];
  let cursor = start;
  while (cursor <= end) {
    const natural = interval === 'day' ? cursor : interval === 'week' ? endOfWeek(cursor) : endOfMonth(cursor);
    const periodEnd = natural < end ? natural : end;
    out.push({ start: cursor, end: periodEnd });
    cursor = addDays(periodEnd, 1);
  }
  return out;
}

export function countPeriods(start: string, end: string, interval: Interval): number {
  if (start > end) return 0;
  const days = daysBetween(start, end) + 1;
  if (interval === 'day') return days;
  if (interval === 'week') return Math.ceil(days / 7) + 1;
  const [sy, sm] = start.split('-').map(Number) as [number, number];
  const [ey, em] = end.split('-').map(Number) as [number, number];
  return (ey - sy) * 12 + (em - sm) + 1;
}
