import type { LedgerDb } from '../../db/stores.ts';
import { sqlWords } from '../../db/sql-text.ts';
import { BOOKED_ENTRY_STATUSES, type Direction } from '../../domain/double-entry.ts';
import type { Minor } from '../../domain/money.ts';
import type { EntryStatus } from '../../contract/journal.ts';
import type { CLEARED_STATES } from '../../contract/journal.ts';
import { countedPage, type CountTables, type DateRange, type PageSpan } from '../../db/counted-pages.ts';

/** The statuses of the entries that count in the books, in raw SQL. */
const BOOKED = sqlWords(BOOKED_ENTRY_STATUSES);

export type Cleared = (typeof CLEARED_STATES)[number];

export interface RegisterRow {
  lineId: string;
  entryId: string;
  entryDate: string;
  memo: string | null;
  direction: Direction;
  amountMinor: Minor;
  currency: string;
  status: EntryStatus;
  cleared: Cleared;
}

/** A line's cleared state (uncleared, cleared or reconciled), the one place the register reads it. */
const CLEARED_COLUMN = 'l.cleared';

/** The account's counted lines per day and per month (migrations register_and_search and month_counts). */
const LINE_COUNTS: CountTables = { days: 'account_day_lines', months: 'account_month_lines', count: 'lines' };

/**
 * How many of the account's lines count in its balance within the range, and the days of the page
 * whose first line is number `offset`: a walk over the account's months, then one month's days.
 */
export function linePage(db: LedgerDb, accountId: string, range: DateRange, offset: number, limit: number) {
  return countedPage(db, LINE_COUNTS, { sql: ['account_id = ?'], params: [accountId] }, range, offset, limit);
}

type LineRow = {
  line_id: string;
  entry_id: string;
  entry_date: string;
  memo: string | null;
  direction: Direction;
  amount_minor: bigint;
  currency: string;
  status: EntryStatus;
  cleared: Cleared;
};

/**
 * The account's counted lines over the page's days in register order (newest date, then newest
 * entry, then the entry's later line first), the first `take` of them: an index range of the
 * account's lines over those days, sorted within them only.
 */
export function linesInSpan(db: LedgerDb, accountId: string, span: PageSpan, take: number): RegisterRow[] {
  return db
    .allSql<LineRow>(
      `SELECT l.id AS line_id, l.entry_id, l.entry_date, e.memo, l.direction, l.amount_minor, l.currency, e.status,
              ${CLEARED_COLUMN} AS cleared
         FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
        WHERE l.account_id = ? AND l.entry_date >= ? AND l.entry_date <= ? AND +e.status IN ${BOOKED}
        ORDER BY l.entry_date DESC, e.created_at DESC, e.seq DESC, l.line_no DESC LIMIT ?`,
      accountId,
      span.from,
      span.to,
      take,
    )
    .map((r) => ({
      lineId: r.line_id,
      entryId: r.entry_id,
      entryDate: r.entry_date,
      memo: r.memo,
      direction: r.direction,
      amountMinor: r.amount_minor,
      currency: r.currency,
      status: r.status,
      cleared: r.cleared,
    }));
}

/** Each entry's accounts other than `accountId`, once each, in the order of their first line. */
export function counterAccounts(
  db: LedgerDb,
  entryIds: readonly string[],
  accountId: string,
): Map<string, { id: string; name: string }[]> {
  const out = new Map<string, { id: string; name: string }[]>();
  const unique = [...new Set(entryIds)];
  for (let i = 0; i < unique.length; i += 100) {
    const chunk = unique.slice(i, i + 100);
    const rows = db.allSql<{ entry_id: string; account_id: string; name: string }>(
      `SELECT l.entry_id, l.account_id, a.name
         FROM journal_lines l JOIN accounts a ON a.id = l.account_id
        WHERE l.entry_id IN (${chunk.map(() => '?').join(', ')}) ORDER BY l.entry_id, l.line_no`,
      ...chunk,
    );
    for (const row of rows) {
      if (row.account_id === accountId) continue;
      const list = out.get(row.entry_id) ?? [];
      if (!list.some((a) => a.id === row.account_id)) list.push({ id: row.account_id, name: row.name });
      out.set(row.entry_id, list);
    }
  }
  return out;
}
