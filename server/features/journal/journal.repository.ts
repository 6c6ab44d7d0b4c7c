import type { LedgerSchema } from '../../db/schema.ts';
import type { LedgerDb } from '../../db/stores.ts';
import type { Direction } from '../../domain/double-entry.ts';
import type { Cost } from '../../domain/exchange.ts';
import type { Minor } from '../../domain/money.ts';
import type { EntryStatus, SourceType } from '../../contract/journal.ts';
import {
  countedPage,
  countedTotal,
  type CountFilter,
  type CountTables,
  type PageSpan,
} from '../../db/counted-pages.ts';

export interface JournalLine {
  id: string;
  accountId: string;
  accountName: string;
  direction: Direction;
  amountMinor: Minor;
  currency: string;
  cleared: 'uncleared' | 'cleared' | 'reconciled';
  cost: Cost | null;
  automatic: boolean;
}

export interface JournalEntry {
  id: string;
  entryDate: string;
  memo: string | null;
  status: EntryStatus;
  sourceType: SourceType;
  createdAt: string;
  updatedAt: string;
  postedAt: string | null;
  voidedAt: string | null;
  voidReason: string | null;
  reversalEntryId: string | null;
  reversesEntryId: string | null;
  /** the entry this one corrects (voided by the correction), and the entry that corrected this one */
  correctsEntryId: string | null;
  correctedByEntryId: string | null;
  lines: JournalLine[];
}

export type EntryRow = Omit<LedgerSchema['journal_entries'], 'seq' | 'corrects_entry_id' | 'corrected_by_entry_id'> & {
  corrects_entry_id: string | null;
  corrected_by_entry_id: string | null;
};

export const ENTRY_COLUMNS = [
  'id',
  'entry_date',
  'memo',
  'status',
  'source_type',
  'created_at',
  'updated_at',
  'posted_at',
  'voided_at',
  'void_reason',
  'reversal_entry_id',
  'reverses_entry_id',
  'corrects_entry_id',
  'corrected_by_entry_id',
] as const;

type LineRow = Omit<LedgerSchema['journal_lines'], 'line_no' | 'entry_date' | 'cleared'> & {
  account_name: string;
  cleared: string;
};

/** A line's cost as stored (both columns or neither). */
export function costOf(costMinor: bigint | null, costCurrency: string | null): Cost | null {
  return costMinor === null || costCurrency === null ? null : { amountMinor: costMinor, currency: costCurrency };
}

/**
 * The lines of some entries with their account names. Hot paths (every posting answers with its
 * entry, every register page reads 50) run prepared SQL rather than a query built per call.
 */
function linesOf(db: LedgerDb, entryIds: readonly string[]): Map<string, JournalLine[]> {
  const out = new Map<string, JournalLine[]>();
  for (let i = 0; i < entryIds.length; i += 100) {
    const chunk = entryIds.slice(i, i + 100);
    const rows = db.allSql<LineRow>(
      `SELECT l.id, l.entry_id, l.account_id, a.name AS account_name, l.direction, l.amount_minor, l.currency,
               l.cost_minor, l.cost_currency, l.automatic, l.cleared
         FROM journal_lines l JOIN accounts a ON a.id = l.account_id
        WHERE l.entry_id IN (${chunk.map(() => '?').join(', ')}) ORDER BY l.entry_id, l.line_no`,
      ...chunk,
    );
    for (const row of rows) {
      const list = out.get(row.entry_id) ?? [];
      list.push({
        id: row.id,
        accountId: row.account_id,
        accountName: row.account_name,
        direction: row.direction as Direction,
        amountMinor: row.amount_minor,
        currency: row.currency,
        cleared: row.cleared as JournalLine['cleared'],
        cost: costOf(row.cost_minor, row.cost_currency),
        automatic: row.automatic === 1n,
      });
      out.set(row.entry_id, list);
    }
  }
  return out;
}

export function toEntries(db: LedgerDb, rows: EntryRow[]): JournalEntry[] {
  const lines = linesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    id: row.id,
    entryDate: row.entry_date,
    memo: row.memo,
    status: row.status as EntryStatus,
    sourceType: row.source_type as SourceType,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    postedAt: row.posted_at,
    voidedAt: row.voided_at,
    voidReason: row.void_reason,
    reversalEntryId: row.reversal_entry_id,
    reversesEntryId: row.reverses_entry_id,
    correctsEntryId: row.corrects_entry_id,
    correctedByEntryId: row.corrected_by_entry_id,
    lines: lines.get(row.id) ?? [],
  }));
}

export function findEntry(db: LedgerDb, id: string): JournalEntry | undefined {
  const [row] = db.allSql<EntryRow>(`SELECT ${ENTRY_COLUMNS.join(', ')} FROM journal_entries WHERE id = ?`, id);
  return row ? toEntries(db, [row])[0] : undefined;
}

export interface EntryFilter {
  status?: EntryStatus | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  accountId?: string | undefined;
  sourceType?: SourceType | undefined;
}

/**
 * Entries by date, then creation, newest first, with the exact total. Both come from the day and
 * month counts (migrations 0004 and month_counts): the total is a sum over months, and page N is
 * found by walking the months back to the one holding it, then that month's days, so the page
 * itself is read from an index range of a few days, whatever the page number. Nothing here reads
 * every line of an account.
 */
export function listEntries(
  db: LedgerDb,
  filter: EntryFilter,
  limit: number,
  offset: number,
): { items: JournalEntry[]; total: number } {
  const { total, span } = entryPage(db, filter, offset, limit);
  if (!span) return { items: [], total };
  const rows = filter.accountId
    ? accountPage(db, filter.accountId, filter, span, limit)
    : journalPage(db, filter, span, limit);
  return { items: toEntries(db, rows), total };
}

/** The entry counts a filter reads: every entry's, or the entries with a line on one account. */
function entryCounts(filter: EntryFilter): { tables: CountTables; filter: CountFilter } {
  const sql: string[] = [];
  const params: unknown[] = [];
  if (filter.accountId) {
    sql.push('account_id = ?');
    params.push(filter.accountId);
  }
  for (const [column, value] of [
    ['status = ?', filter.status],
    ['source_type = ?', filter.sourceType],
  ] as const) {
    if (value === undefined) continue;
    sql.push(column);
    params.push(value);
  }
  return {
    tables: filter.accountId
      ? { days: 'account_day_counts', months: 'account_month_counts', count: 'entries' }
      : { days: 'journal_day_counts', months: 'journal_month_counts', count: 'entries' },
    filter: { sql, params },
  };
}

function entryPage(db: LedgerDb, filter: EntryFilter, offset: number, limit: number) {
  const counts = entryCounts(filter);
  return countedPage(db, counts.tables, counts.filter, { start: filter.startDate, end: filter.endDate }, offset, limit);
}

function totalOf(db: LedgerDb, filter: EntryFilter): number {
  const counts = entryCounts(filter);
  return countedTotal(db, counts.tables, counts.filter, { start: filter.startDate, end: filter.endDate });
}

const PAGE_ORDER = 'ORDER BY e.entry_date DESC, e.created_at DESC, e.seq DESC';
export const E_COLUMNS = ENTRY_COLUMNS.map((c) => `e.${c}`).join(', ');

function statusSourceWhere(filter: EntryFilter, noIndex: boolean): { sql: string; params: unknown[] } {
  // `+column` keeps SQLite from driving the query by the status or source index instead of the range.
  const plus = noIndex ? '+' : '';
  const parts: string[] = [];
  const params: unknown[] = [];
  if (filter.status) {
    parts.push(`${plus}e.status = ?`);
    params.push(filter.status);
  }
  if (filter.sourceType) {
    parts.push(`${plus}e.source_type = ?`);
    params.push(filter.sourceType);
  }
  return { sql: parts.map((p) => ` AND ${p}`).join(''), params };
}

/** A page of all entries: the date (or status) index read from the page's newest day down. */
function journalPage(db: LedgerDb, filter: EntryFilter, span: PageSpan, limit: number): EntryRow[] {
  const extra = statusSourceWhere(filter, false);
  return db.allSql<EntryRow>(
    `SELECT ${E_COLUMNS} FROM journal_entries e WHERE e.entry_date >= ? AND e.entry_date <= ?${extra.sql} ${PAGE_ORDER} LIMIT ? OFFSET ?`,
    span.from,
    span.to,
    ...extra.params,
    limit,
    span.skip,
  );
}

/**
 * A page of one account's register. Usually its lines' index (account, date) read from the
 * page's newest day down, each entry once (by its first line on the account), sorted within a day
 * only. When a status or source filter keeps few of the account's entries in those days, the
 * entries of that status or source are read instead, each checked for a line on the account.
 */
function accountPage(db: LedgerDb, accountId: string, filter: EntryFilter, span: PageSpan, limit: number): EntryRow[] {
  const range = [span.from, span.to];
  if (filter.status || filter.sourceType) {
    const byLines = totalOf(db, { accountId, startDate: span.from, endDate: span.to });
    const byStatus = totalOf(db, {
      status: filter.status,
      sourceType: filter.sourceType,
      startDate: span.from,
      endDate: span.to,
    });
    if (byStatus < byLines) {
      const extra = statusSourceWhere(filter, false);
      return db.allSql<EntryRow>(
        `SELECT ${E_COLUMNS} FROM journal_entries e
          WHERE e.entry_date >= ? AND e.entry_date <= ?${extra.sql}
            AND EXISTS (SELECT 1 FROM journal_lines l WHERE l.entry_id = e.id AND l.account_id = ?)
          ${PAGE_ORDER} LIMIT ? OFFSET ?`,
        ...range,
        ...extra.params,
        accountId,
        limit,
        span.skip,
      );
    }
  }
  const extra = statusSourceWhere(filter, true);
  return db.allSql<EntryRow>(
    `SELECT ${E_COLUMNS} FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
      WHERE l.account_id = ? AND l.entry_date >= ? AND l.entry_date <= ?${extra.sql}
        AND NOT EXISTS (SELECT 1 FROM journal_lines o WHERE o.entry_id = l.entry_id AND +o.account_id = l.account_id AND o.line_no < l.line_no)
      ORDER BY l.entry_date DESC, e.created_at DESC, e.seq DESC LIMIT ? OFFSET ?`,
    accountId,
    ...range,
    ...extra.params,
    limit,
    span.skip,
  );
}

// Bulk insert lives with the writes; its name stays importable from here (the journal import).
export { insertEntriesInBulk, type NewEntry } from './journal.writes.repository.ts';
