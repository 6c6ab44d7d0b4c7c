/** Calendar dates as ISO text (YYYY-MM-DD), in the user's local time zone (the server's "today"). */

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
