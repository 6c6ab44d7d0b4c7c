import { dayBefore, isoDate } from '../../dates.ts';

/** The periods a report is usually read for, and a range of one's own. */
export const PRESETS = ['this-month', 'last-month', 'last-12-months', 'this-year', 'last-year', 'custom'] as const;
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
    case 'last-12-months':
      return { start: monthRange(y, m - 11).start, end: monthRange(y, m).end };
    case 'this-year':
      return { start: `${String(y).padStart(4, '0')}-01-01`, end: `${String(y).padStart(4, '0')}-12-31` };
    case 'last-year':
      return { start: `${String(y - 1).padStart(4, '0')}-01-01`, end: `${String(y - 1).padStart(4, '0')}-12-31` };
  }
}

/** How many whole calendar months the period is (it starts on a 1st and ends on a last day), else null. */
function wholeMonths(p: Period): number | null {
  const s = utc(p.start);
  const e = utc(p.end);
  const lastDay = iso(new Date(Date.UTC(e.getUTCFullYear(), e.getUTCMonth() + 1, 0)));
  if (s.getUTCDate() !== 1 || p.end !== lastDay || p.start > p.end) return null;
  return (e.getUTCFullYear() - s.getUTCFullYear()) * 12 + e.getUTCMonth() - s.getUTCMonth() + 1;
}

/**
 * The period a report is compared with: as many whole months just before it for whole months (the
 * month before a month, the year before a year, the twelve months before twelve), else as many
 * days just before it.
 */
export function previousPeriod(p: Period): Period {
  const s = utc(p.start);
  const months = wholeMonths(p);
  if (months !== null) {
    const [y, m] = [s.getUTCFullYear(), s.getUTCMonth()];
    return { start: monthRange(y, m - months).start, end: monthRange(y, m - 1).end };
  }
  const days = Math.round((utc(p.end).getTime() - s.getTime()) / 86_400_000);
  const end = dayBefore(p.start);
  const start = new Date(utc(end).getTime() - days * 86_400_000);
  return { start: iso(start), end };
}
