/** Calendar dates as ISO text (YYYY-MM-DD), in the user's local time zone (the server's "today"). */

import type { Language } from './i18n/index.ts';

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

export function isoDate(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function today(): string {
  return isoDate(new Date());
}

/** The first day of the month `monthsBack` months before this one (0: this month). */
export function monthStart(monthsBack = 0, from: Date = new Date()): string {
  return isoDate(new Date(from.getFullYear(), from.getMonth() - monthsBack, 1));
}

/** "2026-03" from "2026-03-31". */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/** The last day of the month `monthsBack` months before this one. */
export function monthEnd(monthsBack = 0, from: Date = new Date()): string {
  return isoDate(new Date(from.getFullYear(), from.getMonth() - monthsBack + 1, 0));
}

/**
 * A date as typed, read as YYYY-MM-DD: 2026-03-05, 2026-3-5, 2026/03/05 and 2026.3.5 all read the
 * same; null when it is not a real calendar date (2026-02-30).
 */
export function readDate(text: string): string | null {
  const match = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(text.trim());
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${match[1]}-${pad(m)}-${pad(d)}`;
}

/** The day before a date (YYYY-MM-DD). */
export function dayBefore(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** A moment (an ISO date and time: a backup's, a change's) in the interface language, to the second. */
export function formatMoment(iso: string, language: Language): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(language === 'zh' ? 'zh-CN' : 'en-US', { dateStyle: 'medium', timeStyle: 'medium' });
}
