import { dayBefore, isoDate } from '../../dates.ts';

/** The periods a report is usually read for, and a range of one's own. */
export const PRESETS = ['this-month', 'last-month', 'this-year', 'last-year', 'custom'] as const;
export type Preset = (typeof PRESETS)[number];

export interface Period {
  /** YYYY-MM-DD, first day */
  start: string;
  /** YYYY-MM-DD, last day (an as-of report's date) */
  end: string;
}

function utc(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

function iso(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function monthRange(year: number, month: number): Period {
  return { start: iso(new Date(Date.UTC(year, month, 1))), end: iso(new Date(Date.UTC(year, month + 1, 0))) };
}

/** A preset's whole calendar period around `today` (this month: its first to its last day). */
export function presetPeriod(preset: Exclude<Preset, 'custom'>, today: string = isoDate(new Date())): Period {
  const d = utc(today);
  const [y, m] = [d.getUTCFullYear(), d.getUTCMonth()];
  switch (preset) {
    case 'this-month':
      return monthRange(y, m);
    case 'last-month':
      return monthRange(y, m - 1);
    case 'this-year':
      return { start: `${String(y).padStart(4, '0')}-01-01`, end: `${String(y).padStart(4, '0')}-12-31` };
    case 'last-year':
      return { start: `${String(y - 1).padStart(4, '0')}-01-01`, end: `${String(y - 1).padStart(4, '0')}-12-31` };
  }
}

function isWholeMonth(p: Period): boolean {
  const s = utc(p.start);
  return s.getUTCDate() === 1 && iso(new Date(Date.UTC(s.getUTCFullYear(), s.getUTCMonth() + 1, 0))) === p.end;
}

function isWholeYear(p: Period): boolean {
  return p.start.endsWith('-01-01') && p.end === `${p.start.slice(0, 4)}-12-31`;
}

/**
 * The period a report is compared with: the month or year before for a whole month or year, else
 * as many days just before it.
 */
export function previousPeriod(p: Period): Period {
  const s = utc(p.start);
  if (isWholeYear(p)) {
    const y = String(s.getUTCFullYear() - 1).padStart(4, '0');
    return { start: `${y}-01-01`, end: `${y}-12-31` };
  }
  if (isWholeMonth(p)) return monthRange(s.getUTCFullYear(), s.getUTCMonth() - 1);
  const days = Math.round((utc(p.end).getTime() - s.getTime()) / 86_400_000);
  const end = dayBefore(p.start);
  const start = new Date(utc(end).getTime() - days * 86_400_000);
  return { start: iso(start), end };
}
