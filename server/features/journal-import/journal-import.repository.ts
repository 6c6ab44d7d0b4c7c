import type { LedgerDb } from '../../db/stores.ts';
import type { Direction } from '../../domain/double-entry.ts';
import type { Cost } from '../../domain/exchange.ts';
import { newRowId } from '../../db/ids.ts';

/**
 * Writes a journal import in bulk: prepared statements run once per row, many rows per statement,
 * inside the import's one transaction.
 */

export interface ImportedEntry {
  date: string;
  memo: string | null;
  lines: {
    accountId: string;
    direction: Direction;
    amountMinor: bigint;
    currency: string;
    cost?: Cost | null;
    automatic?: boolean;
  }[];
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
  const maxSeq = db.sqlite.prepare('SELECT MAX(seq) AS s FROM journal_entries').safeIntegers(true).get() as {
    s: bigint | null;
  };
  let seq = maxSeq.s ?? 0n;
  const entryRows = new BatchInsert(
    db,
    'INSERT INTO journal_entries (id, seq, entry_date, memo, status, source_type, created_at, updated_at, posted_at) VALUES ',
    "(?, ?, ?, ?, 'posted', 'import', ?, ?, ?)",
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
    entryRows.add(id, seq, entry.date, entry.memo, at, at, at);
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

/** Marks an imported entry voided by an imported reversal, the two pointing at each other (both stay in history). */
export function linkVoid(db: LedgerDb, voidedId: string, reversalId: string, at: string): void {
  db.runSql(
    `UPDATE journal_entries SET status = 'void', voided_at = ?, reversal_entry_id = ?, updated_at = ? WHERE id = ? AND status = 'posted'`,
    at,
    reversalId,
    at,
    voidedId,
  );
  db.runSql('UPDATE journal_entries SET reverses_entry_id = ? WHERE id = ?', voidedId, reversalId);
}
