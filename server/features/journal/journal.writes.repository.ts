import type { LedgerDb } from '../../db/stores.ts';
import type { Direction } from '../../domain/double-entry.ts';
import type { Cost } from '../../domain/exchange.ts';
import type { Minor } from '../../domain/money.ts';
import type { SourceType } from '../../contract/journal.ts';
import { newRowId } from '../../db/ids.ts';
import type { JournalEntry } from './journal.repository.ts';

// Writes of entries and their lines: one entry at a time, a draft's rewrite, and many at once.

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
 * Inserts many entries, in the order given, after every existing entry; answers their ids (`lineId`
 * draws the lines' ids, entry after entry, line after line). Many
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
  lineId: () => string = newRowId,
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
        lineId(),
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
