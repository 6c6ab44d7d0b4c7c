/**
 * The change log (migration 0017_change_log): every change to a row the user owns becomes one
 * message `{timestamp, dataset, row, value}` in the write's own transaction. It is the books'
 * history and what the sync sends (docs/sync.md).
 *
 * The rule: a write marks the rows it touches (the migration's triggers, whichever connection
 * writes); the write path (SqliteDb.write and transaction) calls `take` before it commits, which
 * turns the marks into messages with this ledger's clock. So a change and its message commit
 * together or not at all. A job's connection (server/jobs) only marks; its marks become messages
 * at the next write or read of the log on the ledger's own connection, in bounded batches.
 *
 * A message's value is the whole row as JSON, an entry with its lines and a rule or a schedule with
 * theirs (one value, so that no merge assembles an entry line by line); integers as decimal
 * strings (minor units pass 2^53); the columns kept on this device only (creation order) left out.
 */
import { parseTimestamp, emptyTrie, LedgerClock, readMerkle, type MerkleTrie } from '../sync/clock.ts';
import Database from 'better-sqlite3';
import type { SqliteDb } from './sqlite.ts';

export interface Dataset {
  name: string;
  table: string;
  /** the key columns; a row's id is their values joined by a space */
  key: readonly string[];
  /** rows of other tables that travel inside the value, under `name` */
  children?: readonly { name: string; table: string; parent: string; order: string }[];
  /** columns of this device only (not sent, given on apply) */
  local?: readonly string[];
  /** the message's rank (change_log.rank) from its value: the highest rank wins, then the latest */
  rank?: (value: RowValue) => number;
}

export type RowValue = Record<string, unknown>;

const ENTRY_RANK: Record<string, number> = { draft: 0, posted: 1, void: 2 };

/** The datasets in the order a merge applies them: a row's parents before it. */
export const DATASETS: readonly Dataset[] = [
  { name: 'accounts', table: 'accounts', key: ['id'], local: ['name_key'] },
  { name: 'currency_trading_accounts', table: 'currency_trading_accounts', key: ['currency'] },
  {
    name: 'journal_entries',
    table: 'journal_entries',
    key: ['id'],
    local: ['seq'],
    children: [{ name: 'lines', table: 'journal_lines', parent: 'entry_id', order: 'line_no' }],
    rank: (value) => ENTRY_RANK[String(value.status)] ?? 0,
  },
  {
    name: 'rules',
    table: 'rules',
    key: ['id'],
    local: ['seq'],
    children: [{ name: 'splits', table: 'rule_splits', parent: 'rule_id', order: 'position' }],
  },
  { name: 'budget_lines', table: 'budget_lines', key: ['month', 'account_id'] },
  {
    name: 'schedules',
    table: 'schedules',
    key: ['id'],
    local: ['seq'],
    children: [{ name: 'lines', table: 'schedule_lines', parent: 'schedule_id', order: 'line_no' }],
  },
  { name: 'schedule_occurrences', table: 'schedule_occurrences', key: ['schedule_id', 'date'] },
  { name: 'prices', table: 'prices', key: ['id'] },
  { name: 'settings', table: 'settings', key: ['key'] },
  { name: 'csv_mappings', table: 'csv_mappings', key: ['account_id'] },
  { name: 'securities', table: 'securities', key: ['id'] },
  { name: 'investment_accounts', table: 'investment_accounts', key: ['account_id'] },
  { name: 'security_prices', table: 'security_prices', key: ['security_id', 'date'] },
  {
    // a buy's lot and a sale's reductions are facts of the trade; lots' units left and holdings are kept on apply
    name: 'trades',
    table: 'trades',
    key: ['id'],
    local: ['seq'],
    children: [
      { name: 'lots', table: 'lots', parent: 'trade_id', order: 'id' },
      { name: 'reductions', table: 'lot_reductions', parent: 'trade_id', order: 'lot_id' },
    ],
  },
  { name: 'attachment_files', table: 'attachment_files', key: ['sha256'] },
  // a file's bytes, 512 KiB a chunk: the log keeps the chunk's name, the sync reads its bytes when it sends
  { name: 'attachment_chunks', table: 'attachment_chunks', key: ['sha256', 'chunk'] },
  { name: 'attachments', table: 'attachments', key: ['id'] },
];

const BY_NAME = new Map(DATASETS.map((d) => [d.name, d]));

export function datasetOf(name: string): Dataset | undefined {
  return BY_NAME.get(name);
}

/** How many marks one write turns into messages at most; the rest wait for the next (`drain`). */
export const TAKE_BATCH = 2000;

/** A message of the log as the sync sends it. */
export interface LoggedChange {
  timestamp: string;
  dataset: string;
  row: string;
  /** the row's JSON, or null when it was deleted */
  value: string | null;
}

function jsonOf(row: RowValue): string {
  return JSON.stringify(row, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/** What the log needs of a connection (any schema). */
type Db = Pick<SqliteDb<unknown>, 'allSql' | 'runSql' | 'iterateSql' | 'existsSql' | 'writeHook'>;

/** A row as the log keeps it (key values, children inside), or null when there is none. */
export function readRowValue(db: Db, dataset: Dataset, rowId: string): RowValue | null {
  const keys = rowId.split(' ');
  if (keys.length !== dataset.key.length) return null;
  const where = dataset.key.map((k) => `${k} = ?`).join(' AND ');
  const [row] = db.allSql<RowValue>(`SELECT * FROM ${dataset.table} WHERE ${where}`, ...keys);
  if (!row) return null;
  for (const column of dataset.local ?? []) delete row[column];
  for (const child of dataset.children ?? []) {
    const rows = db.allSql<RowValue>(
      `SELECT * FROM ${child.table} WHERE ${child.parent} = ? ORDER BY ${child.order}`,
      keys[0],
    );
    for (const r of rows) delete r[child.parent];
    row[child.name] = rows;
  }
  return row;
}

/** A row's id from its key values. */
export function rowIdOf(dataset: Dataset, row: RowValue): string {
  return dataset.key.map((k) => String(row[k])).join(' ');
}

/**
 * One ledger's change log on its own connection: its clock (loaded on first use) and the step
 * that turns marks into messages.
 */
export class ChangeLog {
  private clock: LedgerClock | undefined;
  private readonly db: Db;
  private present: boolean | undefined;
  /** Set while an Undo writes: its changes are logged as an undo's (never undone in turn). */
  undoing = false;

  constructor(db: Db) {
    this.db = db;
  }

  /** This device's node id for these books (made on first use). */
  node(): string {
    return this.ledgerClock().node;
  }

  /**
   * The ledger's clock: its node from sync_state (a new one the first time), past the log's latest
   * timestamp. Its trie is filled only for a sync (`foldTrie`).
   */
  ledgerClock(): LedgerClock {
    if (this.clock) return this.clock;
    let [state] = this.db.allSql<{ node: string; trie: string; trie_through: bigint }>(
      'SELECT node, trie, trie_through FROM sync_state WHERE id = 1',
    );
    if (!state) {
      state = { node: LedgerClock.create().node, trie: JSON.stringify(emptyTrie()), trie_through: 0n };
      this.db.runSql(
        'INSERT INTO sync_state (id, node, trie, trie_through) VALUES (1, ?, ?, 0)',
        state.node,
        state.trie,
      );
    }
    const [latest] = this.db.allSql<{ timestamp: string | null }>('SELECT MAX(timestamp) AS timestamp FROM change_log');
    this.clock = LedgerClock.resume(state.node, latest?.timestamp ?? null, readMerkle(state.trie) ?? emptyTrie());
    this.foldedThrough = state.trie_through;
    return this.clock;
  }

  /** The last change_log rowid the clock's trie covers. */
  private foldedThrough = 0n;

  /**
   * Adds every timestamp logged since the trie last took any (this device's and those received) to
   * the clock's trie, and answers the clock: the trie then covers the whole log.
   */
  foldTrie(): LedgerClock {
    const clock = this.ledgerClock();
    for (const { rowid, timestamp } of this.db.allSql<{ rowid: bigint; timestamp: string }>(
      'SELECT rowid, timestamp FROM change_log WHERE rowid > ? ORDER BY rowid',
      this.foldedThrough,
    )) {
      clock.track(parseTimestamp(timestamp)!);
      this.foldedThrough = rowid;
    }
    return clock;
  }

  /** Keeps the trie as far as it is folded, so that the next load folds only what came after. */
  saveTrie(): void {
    const clock = this.foldTrie();
    this.db.runSql(
      'UPDATE sync_state SET trie = ?, trie_through = ? WHERE id = 1',
      JSON.stringify(clock.merkle satisfies MerkleTrie),
      this.foldedThrough,
    );
  }

  /** Forgets the clock kept in memory: a rolled-back write may have moved it. */
  forget(): void {
    this.clock = undefined;
  }

  /**
   * Turns up to `limit` marks, the oldest first (a row before the rows that name it), into messages; answers how many
   * it took. Call inside a write transaction.
   */
  take(limit = TAKE_BATCH): number {
    // A ledger file older than the log (a test of an upgrade runs today's code on one) logs nothing.
    this.present ??= this.db.existsSql("SELECT 1 FROM sqlite_master WHERE name = 'change_dirty'");
    if (!this.present) return 0;
    // taken and cleared in one statement; RETURNING gives no order, so the marks are put back in theirs
    const marks = this.db
      .allSql<{ rowid: bigint; dataset: string; row_id: string }>(
        `DELETE FROM change_dirty WHERE rowid IN (SELECT rowid FROM change_dirty ORDER BY rowid LIMIT ?)
         RETURNING rowid, dataset, row_id`,
        limit,
      )
      .sort((a, b) => (a.rowid < b.rowid ? -1 : 1));
    if (marks.length === 0) return 0;
    const clock = this.ledgerClock();
    let write: string | undefined;
    for (const mark of marks) {
      const dataset = datasetOf(mark.dataset);
      const value = dataset ? readRowValue(this.db, dataset, mark.row_id) : null;
      const timestamp = clock.send();
      write ??= timestamp.toString();
      this.db.runSql(
        'INSERT INTO change_log (timestamp, node, dataset, row_id, value, rank, write_ts, undo) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        timestamp.toString(),
        clock.node,
        mark.dataset,
        mark.row_id,
        value === null ? null : jsonOf(value),
        value !== null && dataset?.rank ? dataset.rank(value) : 0,
        write,
        this.undoing ? 1 : 0,
      );
    }
    return marks.length;
  }

  /** Whether marks wait to become messages (a job's writes). */
  hasMarks(): boolean {
    return this.db.existsSql('SELECT 1 FROM change_dirty LIMIT 1');
  }
}

const LOGS = new WeakMap<object, ChangeLog>();

/** Makes every write on `db` log its changes before it commits. */
export function installChangeLog(db: Db): ChangeLog {
  let log = LOGS.get(db);
  if (!log) {
    const made = new ChangeLog(db);
    db.writeHook = { beforeCommit: () => void made.take(), rolledBack: () => made.forget() };
    LOGS.set(db, made);
    log = made;
  }
  return log;
}

/** The change log of a ledger connection (installed on it if it was not). */
export function changeLogOf(db: Db): ChangeLog {
  return installChangeLog(db);
}

/** Marks every row the log covers: the books so far become messages (a new sync group sends them). */
export function markEverything(db: Db): void {
  for (const dataset of DATASETS) {
    const id = dataset.key.join(" || ' ' || ");
    db.runSql(
      `INSERT INTO change_dirty (dataset, row_id) SELECT ?, ${id} FROM ${dataset.table} WHERE true
       ON CONFLICT (dataset, row_id) DO NOTHING`,
      dataset.name,
    );
  }
}

/** Whether a ledger file's books are in a sync group, read without opening it for use (no migration). */
export function fileInSyncGroup(file: string): boolean {
  let sqlite: Database.Database | undefined;
  try {
    sqlite = new Database(file, { readonly: true, fileMustExist: true });
    const row = sqlite.prepare('SELECT sync_group FROM sync_state WHERE id = 1').get() as
      { sync_group: string | null } | undefined;
    return typeof row?.sync_group === 'string';
  } catch {
    // no file, or books older than the change log: in no group
    return false;
  } finally {
    sqlite?.close();
  }
}

/**
 * Books restored from a backup take a new node id: under the old one this device may have issued
 * timestamps after the backup that the group holds and the backup does not. The trie is rebuilt
 * from the log at the next sync.
 */
export function restartClock(sqlite: Database.Database): void {
  const hasState = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sync_state'").get() !== undefined;
  if (!hasState) return;
  sqlite
    .prepare('UPDATE sync_state SET node = ?, trie = ?, trie_through = 0, since = NULL WHERE id = 1')
    .run(LedgerClock.create().node, JSON.stringify(emptyTrie()));
}
