import type { LedgerSchema } from '../../db/schema.ts';
import type { LedgerDb } from '../../db/stores.ts';
import type { Direction } from '../../domain/double-entry.ts';
import type { Cost } from '../../domain/exchange.ts';
import type { Minor } from '../../domain/money.ts';
import { SEARCH_COUNT_AHEAD, type EntryStatus, type SourceType } from '../../contract/journal.ts';
import {
  countedPage,
  countedTotal,
  type CountFilter,
  type CountTables,
  type PageSpan,
} from '../../db/counted-pages.ts';
import { newRowId } from '../../db/ids.ts';

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

type EntryRow = Omit<LedgerSchema['journal_entries'], 'seq' | 'corrects_entry_id' | 'corrected_by_entry_id'> & {
  corrects_entry_id: string | null;
  corrected_by_entry_id: string | null;
};

const ENTRY_COLUMNS = [
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

function toEntries(db: LedgerDb, rows: EntryRow[]): JournalEntry[] {
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

/** Entries by id, in the order of `ids` (each id one that exists). */
export function findEntries(db: LedgerDb, ids: readonly string[]): JournalEntry[] {
  const rows: EntryRow[] = [];
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    rows.push(
      ...db.allSql<EntryRow>(
        `SELECT ${ENTRY_COLUMNS.join(', ')} FROM journal_entries WHERE id IN (${chunk.map(() => '?').join(', ')})`,
        ...chunk,
      ),
    );
  }
  const byId = new Map(toEntries(db, rows).map((e) => [e.id, e]));
  return ids.map((id) => byId.get(id)!);
}

export interface EntryFilter {
  status?: EntryStatus | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  accountId?: string | undefined;
  sourceType?: SourceType | undefined;
}

/** A search as the repository runs it: the FTS5 query of the memo words, and the amounts' lines. */
export interface EntrySearch {
  /** an FTS5 query over the memos, every phrase required; null: no words */
  words: string | null;
  /** each required: an entry with one of these lines (amount in minor units of that currency), or its memo phrase */
  amounts: { lines: { minor: bigint; currency: string }[]; memoPhrase: string }[];
  /** required when present: an entry with a line within one of these ranges (minor units of that currency) */
  range?: { min: bigint; max: bigint; currency: string }[] | undefined;
}

/** The SQL of lines `alias` within a range (`+`: a condition checked on lines found otherwise). */
function rangeSql(range: NonNullable<EntrySearch['range']>, alias: string, checked: boolean) {
  const p = checked ? '+' : '';
  return {
    sql:
      range.length === 0
        ? '0'
        : range.map(() => `(${p}${alias}amount_minor BETWEEN ? AND ? AND ${p}${alias}currency = ?)`).join(' OR '),
    params: range.flatMap((r) => [r.min, r.max, r.currency]),
  };
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
const E_COLUMNS = ENTRY_COLUMNS.map((c) => `e.${c}`).join(', ');

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

/** The key of an entry in the memo index (migration register_and_search): its place in every listing. */
const SEARCH_KEY = 'entry_search.rowid';
const SEQ_OF_KEY = '(entry_search.rowid & 4294967295)';

function searchKey(date: string, end: boolean): bigint {
  return (BigInt(date.replaceAll('-', '')) << 32n) | (end ? 0xffffffffn : 0n);
}

/**
 * The SQL conditions on `e` (an entry) of the filters and of the search's amounts, each checked on
 * the entry itself (`+column`: never a reason to read an index of every entry instead of the
 * matches; a line is looked up among the entry's own lines).
 */
function searchConditions(filter: EntryFilter, search: EntrySearch): { sql: string[]; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  if (filter.status) {
    sql.push('+e.status = ?');
    params.push(filter.status);
  }
  if (filter.sourceType) {
    sql.push('+e.source_type = ?');
    params.push(filter.sourceType);
  }
  if (filter.accountId) {
    sql.push(
      'EXISTS (SELECT 1 FROM journal_lines al WHERE al.account_id = ? AND al.entry_date = e.entry_date AND al.entry_id = e.id)',
    );
    params.push(filter.accountId);
  }
  for (const amount of search.amounts) {
    const either = ['e.seq IN (SELECT rowid & 4294967295 FROM entry_search WHERE entry_search MATCH ?)'];
    const eitherParams: unknown[] = [amount.memoPhrase];
    if (amount.lines.length > 0) {
      either.unshift(
        `EXISTS (SELECT 1 FROM journal_lines am WHERE am.entry_id = e.id AND (${amount.lines.map(() => '(+am.amount_minor = ? AND +am.currency = ?)').join(' OR ')}))`,
      );
      eitherParams.unshift(...amount.lines.flatMap((l) => [l.minor, l.currency]));
    }
    sql.push(`(${either.join(' OR ')})`);
    params.push(...eitherParams);
  }
  if (search.range) {
    const lines = rangeSql(search.range, 'ar.', true);
    sql.push(`EXISTS (SELECT 1 FROM journal_lines ar WHERE ar.entry_id = e.id AND (${lines.sql}))`);
    params.push(...lines.params);
  }
  return { sql, params };
}

/** Entries by their sequence numbers, in the order given (each one that exists). */
function entriesBySeq(db: LedgerDb, seqs: readonly bigint[]): EntryRow[] {
  const bySeq = new Map<bigint, EntryRow>();
  for (let i = 0; i < seqs.length; i += 100) {
    const chunk = seqs.slice(i, i + 100);
    for (const row of db.allSql<EntryRow & { seq: bigint }>(
      `SELECT seq, ${ENTRY_COLUMNS.join(', ')} FROM journal_entries WHERE seq IN (${chunk.map(() => '?').join(', ')})`,
      ...chunk,
    ))
      bySeq.set(row.seq, row);
  }
  return seqs.flatMap((seq) => {
    const row = bySeq.get(seq);
    if (!row) return [];
    const { seq: _seq, ...entry } = row as EntryRow & { seq: bigint };
    return [entry];
  });
}

/**
 * Entries found by a search (CONTRACT §15), with the other filters, newest first (date, then
 * creation), and their total counted up to `countAhead` matches past the page (`totalExact`
 * false: at least `total`). With memo words, the memo index drives: its keys are the listing's
 * order, so a page is read from it newest first and a date range is a key range; with no other
 * filter the index alone gives the page's keys and the count, and only the page's entries are
 * read, else the amounts and filters are checked on each entry it gives. With amounts only, the
 * lines of those amounts (their index) and the memos holding the number are the candidates,
 * sorted among themselves. Neither reads every entry: the work follows the matches.
 */
export function searchEntries(
  db: LedgerDb,
  filter: EntryFilter,
  search: EntrySearch,
  limit: number,
  offset: number,
  countAhead: number = SEARCH_COUNT_AHEAD,
): { items: JournalEntry[]; total: number; totalExact: boolean } {
  const conditions = searchConditions(filter, search);
  const cap = offset + limit + countAhead;
  const counted = (body: string, params: unknown[]) => {
    const n = Number(
      db.allSql<{ n: bigint }>(`SELECT COUNT(*) AS n FROM (SELECT 1 ${body} LIMIT ?)`, ...params, cap)[0]!.n,
    );
    return { total: n, totalExact: n < cap };
  };
  if (search.words !== null) {
    const where = ['entry_search MATCH ?'];
    const params: unknown[] = [search.words];
    if (filter.startDate) {
      where.push(`${SEARCH_KEY} >= ?`);
      params.push(searchKey(filter.startDate, false));
    }
    if (filter.endDate) {
      where.push(`${SEARCH_KEY} <= ?`);
      params.push(searchKey(filter.endDate, true));
    }
    if (conditions.sql.length === 0) {
      // every key of the memo index is an entry's (triggers keep it): the index alone answers
      const body = `FROM entry_search WHERE ${where.join(' AND ')}`;
      const count = counted(body, params);
      if (offset >= count.total) return { items: [], ...count };
      const keys = db.allSql<{ seq: bigint }>(
        `SELECT ${SEQ_OF_KEY} AS seq ${body} ORDER BY ${SEARCH_KEY} DESC LIMIT ? OFFSET ?`,
        ...params,
        limit,
        offset,
      );
      return {
        items: toEntries(
          db,
          entriesBySeq(
            db,
            keys.map((k) => k.seq),
          ),
        ),
        ...count,
      };
    }
    const body = `FROM entry_search JOIN journal_entries e ON e.seq = ${SEQ_OF_KEY} WHERE ${[...where, ...conditions.sql].join(' AND ')}`;
    return searchPage(
      db,
      body,
      [...params, ...conditions.params],
      `ORDER BY ${SEARCH_KEY} DESC`,
      limit,
      offset,
      counted,
    );
  }
  const first = search.amounts[0];
  const candidates: string[] = [];
  const params: unknown[] = [];
  if (first) {
    candidates.push('e.seq IN (SELECT rowid & 4294967295 FROM entry_search WHERE entry_search MATCH ?)');
    params.push(first.memoPhrase);
    if (first.lines.length > 0) {
      candidates.unshift(
        `e.id IN (SELECT entry_id FROM journal_lines WHERE ${first.lines.map(() => '(amount_minor = ? AND currency = ?)').join(' OR ')})`,
      );
      params.unshift(...first.lines.flatMap((l) => [l.minor, l.currency]));
    }
  } else {
    // an amount range alone: the lines within it (their amount index) are the candidates
    const lines = rangeSql(search.range ?? [], '', false);
    candidates.push(`e.id IN (SELECT entry_id FROM journal_lines WHERE ${lines.sql})`);
    params.push(...lines.params);
  }
  const where = [`(${candidates.join(' OR ')})`];
  if (filter.startDate) {
    where.push('+e.entry_date >= ?');
    params.push(filter.startDate);
  }
  if (filter.endDate) {
    where.push('+e.entry_date <= ?');
    params.push(filter.endDate);
  }
  // the first amount drives; the rest are checked like filters
  const rest = searchConditions(filter, {
    words: null,
    amounts: search.amounts.slice(1),
    range: first ? search.range : undefined,
  });
  where.push(...rest.sql);
  params.push(...rest.params);
  return searchPage(
    db,
    `FROM journal_entries e WHERE ${where.join(' AND ')}`,
    params,
    'ORDER BY e.entry_date DESC, e.seq DESC',
    limit,
    offset,
    counted,
  );
}

/** A page of a search whose matches are entries `e` checked one by one, and their count. */
function searchPage(
  db: LedgerDb,
  body: string,
  params: unknown[],
  order: string,
  limit: number,
  offset: number,
  counted: (body: string, params: unknown[]) => { total: number; totalExact: boolean },
): { items: JournalEntry[]; total: number; totalExact: boolean } {
  const count = counted(body, params);
  if (offset >= count.total) return { items: [], ...count };
  const rows = db.allSql<EntryRow>(`SELECT ${E_COLUMNS} ${body} ${order} LIMIT ? OFFSET ?`, ...params, limit, offset);
  return { items: toEntries(db, rows), ...count };
}

export interface NewLine {
  accountId: string;
  direction: Direction;
  amountMinor: Minor;
  currency: string;
  cost?: Cost | null;
  /** added by the server on a currency trading account */
  automatic?: boolean;
}

/** The creation order of the newest entry (0 for none): the next entry is one past it. */
function lastEntrySeq(db: LedgerDb): bigint {
  return db.allSql<{ s: bigint | null }>('SELECT MAX(seq) AS s FROM journal_entries')[0]!.s ?? 0n;
}

export function insertEntry(
  db: LedgerDb,
  entry: Omit<JournalEntry, 'lines' | 'correctedByEntryId'>,
  lines: readonly NewLine[],
  newId: () => string,
): void {
  const seq = lastEntrySeq(db);
  db.runSql(
    `INSERT INTO journal_entries (id, seq, entry_date, memo, status, source_type, created_at, updated_at, posted_at, voided_at, void_reason, reversal_entry_id, reverses_entry_id, corrects_entry_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    entry.id,
    seq + 1n,
    entry.entryDate,
    entry.memo,
    entry.status,
    entry.sourceType,
    entry.createdAt,
    entry.updatedAt,
    entry.postedAt,
    entry.voidedAt,
    entry.voidReason,
    entry.reversalEntryId,
    entry.reversesEntryId,
    entry.correctsEntryId,
  );
  insertLines(db, entry.id, entry.entryDate, lines, newId);
}

function insertLines(
  db: LedgerDb,
  entryId: string,
  entryDate: string,
  lines: readonly NewLine[],
  newId: () => string,
): void {
  lines.forEach((line, index) => {
    db.runSql(
      'INSERT INTO journal_lines (id, entry_id, line_no, account_id, direction, amount_minor, currency, entry_date, cost_minor, cost_currency, automatic) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      newId(),
      entryId,
      index + 1,
      line.accountId,
      line.direction,
      line.amountMinor,
      line.currency,
      entryDate,
      line.cost?.amountMinor ?? null,
      line.cost?.currency ?? null,
      line.automatic ? 1 : 0,
    );
  });
}

/**
 * Many rows per INSERT: one statement per `batch` rows cuts the per-statement cost that dominates
 * a bulk load. `rowSql` is one row's `(?, ...)`. Rows wait until `write` (whole batches) or
 * `writeAll` (the rest too).
 */
class BatchInsert {
  private readonly db: LedgerDb;
  private readonly head: string;
  private readonly rowSql: string;
  private readonly width: number;
  private readonly batch: number;
  /**
   * A whole batch's statement, the same every time: built at the first whole batch (most inserts of
   * a few entries never fill one), prepared once per connection (SqliteDb's cache).
   */
  private batchSql: string | undefined;
  private params: unknown[] = [];

  constructor(db: LedgerDb, head: string, rowSql: string, batch: number) {
    this.db = db;
    this.head = head;
    this.rowSql = rowSql;
    this.width = rowSql.split('?').length - 1;
    this.batch = batch;
  }

  get pending(): number {
    return this.params.length / this.width;
  }

  add(...row: unknown[]): void {
    for (const value of row) this.params.push(value);
  }

  /** Writes the waiting rows in whole batches; fewer than a batch keep waiting. */
  write(): void {
    const size = this.batch * this.width;
    let at = 0;
    for (; this.params.length - at >= size; at += size) {
      this.batchSql ??= this.sql(this.batch);
      this.db.runSql(this.batchSql, ...this.params.slice(at, at + size));
    }
    this.params = this.params.slice(at);
  }

  writeAll(): void {
    this.write();
    // The rest's statement is one of a batch's worth of sizes (the lines' 127 would keep 14 MB): not kept.
    if (this.pending > 0) this.db.sqlite.prepare(this.sql(this.pending)).run(this.params);
    this.params = [];
  }

  private sql(rows: number): string {
    return this.head + Array(rows).fill(this.rowSql).join(',');
  }
}

const ENTRY_BATCH = 64;

/** An entry to store in bulk (insertEntriesInBulk): checked, posted or a draft. */
export interface NewEntry {
  date: string;
  memo: string | null;
  status: 'posted' | 'draft';
  lines: readonly NewLine[];
}

/**
 * Inserts many entries, in the order given, after every existing entry; answers their ids. Many
 * rows per statement (a journal import, a batch): each batch of entries is written before the
 * lines that refer to them, so every foreign key holds the moment its row is written (deferring the
 * checks instead would make SQLite look for children at every parent insert). The caller holds the
 * transaction and adds the posted entries to the totals.
 */
export function insertEntriesInBulk(
  db: LedgerDb,
  entries: readonly NewEntry[],
  sourceType: SourceType,
  at: string,
): string[] {
  const ids: string[] = [];
  let seq = lastEntrySeq(db);
  const entryRows = new BatchInsert(
    db,
    'INSERT INTO journal_entries (id, seq, entry_date, memo, status, source_type, created_at, updated_at, posted_at) VALUES ',
    '(?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ENTRY_BATCH,
  );
  const lineRows = new BatchInsert(
    db,
    'INSERT INTO journal_lines (id, entry_id, line_no, account_id, direction, amount_minor, currency, entry_date, cost_minor, cost_currency, automatic) VALUES ',
    '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    128,
  );
  for (const entry of entries) {
    const id = newRowId();
    ids.push(id);
    seq += 1n;
    entryRows.add(
      id,
      seq,
      entry.date,
      entry.memo,
      entry.status,
      sourceType,
      at,
      at,
      entry.status === 'posted' ? at : null,
    );
    let lineNo = 0;
    for (const l of entry.lines)
      lineRows.add(
        newRowId(),
        id,
        ++lineNo,
        l.accountId,
        l.direction,
        l.amountMinor,
        l.currency,
        entry.date,
        l.cost?.amountMinor ?? null,
        l.cost?.currency ?? null,
        l.automatic ? 1 : 0,
      );
    if (entryRows.pending === ENTRY_BATCH) {
      entryRows.write();
      lineRows.write();
    }
  }
  entryRows.writeAll();
  lineRows.writeAll();
  return ids;
}

/** Replaces a draft's date, memo and lines. */
export function rewriteDraft(
  db: LedgerDb,
  id: string,
  fields: { entryDate: string; memo: string | null; updatedAt: string },
  lines: readonly NewLine[],
  newId: () => string,
): void {
  db.run(
    db.qb
      .updateTable('journal_entries')
      .set({ entry_date: fields.entryDate, memo: fields.memo, updated_at: fields.updatedAt })
      .where('id', '=', id)
      .where('status', '=', 'draft'),
  );
  db.run(db.qb.deleteFrom('journal_lines').where('entry_id', '=', id));
  insertLines(db, id, fields.entryDate, lines, newId);
}

export function markPosted(db: LedgerDb, id: string, at: string): void {
  db.run(
    db.qb
      .updateTable('journal_entries')
      .set({ status: 'posted', posted_at: at, updated_at: at })
      .where('id', '=', id)
      .where('status', '=', 'draft'),
  );
}

export function markVoid(
  db: LedgerDb,
  id: string,
  fields: { at: string; reason: string | null; reversalEntryId: string },
): void {
  db.run(
    db.qb
      .updateTable('journal_entries')
      .set({
        status: 'void',
        voided_at: fields.at,
        void_reason: fields.reason,
        reversal_entry_id: fields.reversalEntryId,
        updated_at: fields.at,
      })
      .where('id', '=', id)
      .where('status', '=', 'posted'),
  );
}

/** Points a voided entry at the entry that corrected it. */
export function markCorrectedBy(db: LedgerDb, id: string, correctedById: string): void {
  db.runSql('UPDATE journal_entries SET corrected_by_entry_id = ? WHERE id = ?', correctedById, id);
}
