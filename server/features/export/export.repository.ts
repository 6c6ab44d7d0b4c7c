import crypto from 'node:crypto';
import type { LedgerDb } from '../../db/stores.ts';
import type { Direction } from '../../domain/double-entry.ts';
import type { BookEntry, BookLine } from '../../domain/plaintext/types.ts';

/**
 * Reads posted history (status posted and void: a voided entry and its reversal both) for an
 * export, and writes a journal import in bulk: prepared statements run once per row inside the
 * import's one transaction.
 */

export interface DateFilter {
  from: string | null;
  to: string | null;
}

type EntryRow = { id: string; entry_date: string; memo: string | null; status: 'posted' | 'void'; reversal_entry_id: string | null; reverses_entry_id: string | null };
type LineRow = { entry_id: string; account_id: string; direction: Direction; amount_minor: bigint; currency: string };

/** Posted and voided entries with their lines, by date, then creation. */
export function postedHistory(db: LedgerDb, filter: DateFilter): BookEntry[] {
  const where = `e.status IN ('posted', 'void') AND e.entry_date >= ? AND e.entry_date <= ?`;
  const range = [filter.from ?? '', filter.to ?? '9999-12-31'];
  const rows = db.allSql<EntryRow>(
    `SELECT e.id, e.entry_date, e.memo, e.status, e.reversal_entry_id, e.reverses_entry_id
       FROM journal_entries e WHERE ${where} ORDER BY e.entry_date, e.created_at, e.seq`,
    ...range,
  );
  const lines = new Map<string, BookLine[]>();
  for (const l of db.allSql<LineRow>(
    `SELECT l.entry_id, l.account_id, l.direction, l.amount_minor, l.currency
       FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id WHERE ${where} ORDER BY l.entry_id, l.line_no`,
    ...range,
  )) {
    let list = lines.get(l.entry_id);
    if (!list) lines.set(l.entry_id, (list = []));
    list.push({ accountId: l.account_id, direction: l.direction, amountMinor: l.amount_minor, currency: l.currency });
  }
  return rows.map((r) => ({
    id: r.id,
    date: r.entry_date,
    memo: r.memo,
    status: r.status,
    reversalEntryId: r.reversal_entry_id,
    reversesEntryId: r.reverses_entry_id,
    lines: lines.get(r.id) ?? [],
  }));
}

export interface ImportedEntry {
  date: string;
  memo: string | null;
  lines: { accountId: string; direction: Direction; amountMinor: bigint; currency: string }[];
}

/**
 * Time-ordered UUIDs (version 7: milliseconds, then random bits) for a bulk import: successive ids
 * sort together, so the inserts append to the primary-key indexes instead of landing on random
 * pages, which keeps a million-entry import fast. They are ordinary UUIDs to everything else.
 */
export function uuidV7Factory(startMs: number): () => string {
  let ms = startMs;
  let counter = 0;
  let pool = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (++counter > 0xfff) {
      counter = 0;
      ms++;
    }
    if (at + 8 > pool.length) {
      pool = crypto.randomBytes(8 * 8192);
      at = 0;
    }
    const time = ms.toString(16).padStart(12, '0').slice(-12);
    const variant = ((pool[at]! & 0x3f) | 0x80).toString(16) + HEX[pool[at + 1]!]!;
    const rest = pool.toString('hex', at + 2, at + 8);
    at += 8;
    return `${time.slice(0, 8)}-${time.slice(8)}-${(0x7000 | counter).toString(16)}-${variant}-${rest}`;
  };
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

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
  private readonly full: ReturnType<LedgerDb['sqlite']['prepare']>;
  private params: unknown[] = [];

  constructor(db: LedgerDb, head: string, rowSql: string, batch: number) {
    this.db = db;
    this.head = head;
    this.rowSql = rowSql;
    this.width = rowSql.split('?').length - 1;
    this.batch = batch;
    this.full = db.sqlite.prepare(head + Array(batch).fill(rowSql).join(','));
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
    for (; this.params.length - at >= size; at += size) this.full.run(this.params.slice(at, at + size));
    this.params = this.params.slice(at);
  }

  writeAll(): void {
    this.write();
    const rows = this.pending;
    if (rows > 0) this.db.sqlite.prepare(this.head + Array(rows).fill(this.rowSql).join(',')).run(this.params);
    this.params = [];
  }
}

const ENTRY_BATCH = 64;

/**
 * Inserts posted entries with `source_type` import, in the order given, after every existing entry;
 * answers their ids. Each batch of entries is written before the lines that refer to them, so every
 * foreign key holds the moment its row is written (deferring the checks instead would make SQLite
 * look for children at every parent insert).
 */
export function insertImportedEntries(db: LedgerDb, entries: readonly ImportedEntry[], at: string): string[] {
  const ids: string[] = [];
  const newId = uuidV7Factory(Date.parse(at));
  const maxSeq = db.sqlite.prepare('SELECT MAX(seq) AS s FROM journal_entries').safeIntegers(true).get() as { s: bigint | null };
  let seq = maxSeq.s ?? 0n;
  const entryRows = new BatchInsert(
    db,
    'INSERT INTO journal_entries (id, seq, entry_date, memo, status, source_type, created_at, updated_at, posted_at) VALUES ',
    "(?, ?, ?, ?, 'posted', 'import', ?, ?, ?)",
    ENTRY_BATCH,
  );
  const lineRows = new BatchInsert(
    db,
    'INSERT INTO journal_lines (id, entry_id, line_no, account_id, direction, amount_minor, currency, entry_date) VALUES ',
    '(?, ?, ?, ?, ?, ?, ?, ?)',
    128,
  );
  for (const entry of entries) {
    const id = newId();
    ids.push(id);
    seq += 1n;
    entryRows.add(id, seq, entry.date, entry.memo, at, at, at);
    let lineNo = 0;
    for (const l of entry.lines) lineRows.add(newId(), id, ++lineNo, l.accountId, l.direction, l.amountMinor, l.currency, entry.date);
    if (entryRows.pending === ENTRY_BATCH) {
      entryRows.write();
      lineRows.write();
    }
  }
  entryRows.writeAll();
  lineRows.writeAll();
  return ids;
}

/** Marks an imported entry voided by an imported reversal, the two pointing at each other (both stay in history). */
export function linkVoid(db: LedgerDb, voidedId: string, reversalId: string, at: string): void {
  db.runSql(`UPDATE journal_entries SET status = 'void', voided_at = ?, reversal_entry_id = ?, updated_at = ? WHERE id = ? AND status = 'posted'`, at, reversalId, at, voidedId);
  db.runSql('UPDATE journal_entries SET reverses_entry_id = ? WHERE id = ?', voidedId, reversalId);
}
