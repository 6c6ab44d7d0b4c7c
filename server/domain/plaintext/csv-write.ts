import { formatMinor } from '../money.ts';
import { accountPaths } from './names.ts';
import type { Book, BookAccount, BookEntry, LineSink } from './types.ts';

const CSV_HEADER = [
  'date',
  'entry_id',
  'memo',
  'account',
  'debit',
  'credit',
  'currency',
  'status',
  'cost',
  'cost_currency',
] as const;

/**
 * RFC 4180 field. A text field that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab,
 * carriage return first) is prefixed with `'` (OWASP's advice against CSV injection).
 */
function field(value: string, text: boolean): string {
  const safe = text && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * One row per journal line: date, entry id, memo, account path, debit, credit, currency, entry
 * status, and what an exchange's line cost in the other currency (empty on other lines).
 */
export function writeCsv(book: Book): string {
  const rows: string[] = [];
  writeCsvRows(rows, book.accounts, book.entries);
  return rows.join('\r\n') + '\r\n';
}

/** The same rows, each to be ended by `\r\n`, the entries taken one at a time. */
export function writeCsvRows(out: LineSink, accounts: readonly BookAccount[], entries: Iterable<BookEntry>): void {
  const paths = accountPaths(accounts, 'hledger');
  out.push(CSV_HEADER.join(','));
  for (const entry of entries) {
    for (const l of entry.lines) {
      const amount = formatMinor(l.amountMinor, l.currency);
      out.push(
        [
          entry.date,
          entry.id,
          field(entry.memo ?? '', true),
          field(paths.get(l.accountId)!.path, true),
          l.direction === 'DEBIT' ? amount : '',
          l.direction === 'CREDIT' ? amount : '',
          l.currency,
          entry.status,
          l.cost ? formatMinor(l.cost.amountMinor, l.cost.currency) : '',
          l.cost?.currency ?? '',
        ].join(','),
      );
    }
  }
}
