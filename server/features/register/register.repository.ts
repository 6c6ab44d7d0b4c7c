import type { LedgerDb } from '../../db/stores.ts';
import type { Direction } from '../../domain/double-entry.ts';
import type { Minor } from '../../domain/money.ts';
import type { EntryStatus } from '../../contract/journal.ts';
import type { CLEARED_STATES } from '../../contract/journal.ts';

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

export interface DateRange {
  start?: string | undefined;
  end?: string | undefined;
}

/** A line's cleared state (uncleared, cleared or reconciled), the one place the register reads it. */
const CLEARED_COLUMN = 'l.cleared';

function rangeWhere(range: DateRange): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  if (range.start !== undefined) {
    parts.push('day >= ?');
    params.push(range.start);
  }
  if (range.end !== undefined) {
    parts.push('day <= ?');
    params.push(range.end);
  }
  return { sql: parts.map((p) => ` AND ${p}`).join(''), params };
}

/** How many of the account's lines count in its balance within the range (migration register_and_search's day rows). */
export function countLines(db: LedgerDb, accountId: string, range: DateRange): number {
  const where = rangeWhere(range);
  const [row] = db.allSql<{ n: bigint | null }>(
    `SELECT SUM(lines) AS n FROM account_day_lines WHERE account_id = ?${where.sql}`,
    accountId,
    ...where.params,
  );
  return Number(row?.n ?? 0n);
}

/** The days a page spans (newest `to`, oldest `from`), and how many of day `to`'s lines come before it. */
export interface PageSpan {
  from: string;
  to: string;
  skip: number;
}

/**
 * Walks the account's day rows, newest first, to the day holding line number `offset` (the
 * page's first) and the day holding its last: one small row per day, never a line.
 */
export function pageSpan(
  db: LedgerDb,
  accountId: string,
  range: DateRange,
  offset: number,
  limit: number,
): PageSpan | undefined {
  const where = rangeWhere(range);
  let before = 0;
  let to: string | null = null;
  let skip = 0;
  let last: string | null = null;
  for (const row of db.iterateSql<{ day: string; lines: bigint }>(
    `SELECT day, lines FROM account_day_lines WHERE account_id = ?${where.sql} ORDER BY day DESC`,
    accountId,
    ...where.params,
  )) {
    const n = Number(row.lines);
    if (to === null && before + n > offset) {
      to = row.day;
      skip = offset - before;
    }
    before += n;
    last = row.day;
    if (to !== null && before >= offset + limit) return { from: row.day, to, skip };
  }
  return to === null || last === null ? undefined : { from: last, to, skip };
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
        WHERE l.account_id = ? AND l.entry_date >= ? AND l.entry_date <= ? AND +e.status IN ('posted', 'void')
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
