import { DATE_RANGE_TEXT, isCalendarDate, isLedgerDate } from '../dates.ts';
import { invalid, unsupported } from './errors.ts';

const FULL = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/;

const seen = new Map<string, string>();

/**
 * `2024-01-05`, `2024/1/5` or `2024.01.05` as ISO text; a date without a year is refused by name.
 * A date the ledger keeps (`kept`: a transaction's, a price's) must lie in its range; another
 * directive's date (a commodity declared on 1792-01-01) is read but never stored.
 */
export function journalDate(text: string, line: number, kept = true): string {
  const known = seen.get(text);
  if (known !== undefined) return known;
  const m = FULL.exec(text);
  if (!m) {
    if (/^\d{1,2}[-/.]\d{1,2}$/.test(text)) unsupported(line, 'a date without a year');
    invalid(line, `${JSON.stringify(text)} is not a date`);
  }
  const iso = `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}`;
  if (!isCalendarDate(iso)) invalid(line, `${text} is not a calendar date`);
  if (!isLedgerDate(iso)) {
    if (kept) invalid(line, `${text} is outside the dates the ledger keeps (${DATE_RANGE_TEXT})`);
    return iso;
  }
  // Journals repeat their dates; a small cache of valid ones saves the calendar check.
  if (seen.size > 100_000) seen.clear();
  seen.set(text, iso);
  return iso;
}
