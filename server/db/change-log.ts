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
  /** the same rank as SQL over the row's columns (`alias.column`), for the log's one-statement insert */
  rankSql?: (alias: string) => string;
}

export type RowValue = Record<string, unknown>;

/** A rank by one text column's value (0 for any other), in JS and in SQL alike. */
function rankBy(column: string, ranks: Readonly<Record<string, number>>): Pick<Dataset, 'rank' | 'rankSql'> {
  return {
    rank: (value) => {
      const key = String(value[column]);
      return Object.hasOwn(ranks, key) ? ranks[key]! : 0;
    },
    rankSql: (alias) =>
      `CASE ${alias}.${column} ${Object.entries(ranks)
        .map(([key, rank]) => `WHEN '${key}' THEN ${rank}`)
        .join(' ')} ELSE 0 END`,
  };
}

const ENTRY_RANK = rankBy('status', { draft: 0, posted: 1, void: 2 });
/** A match only moves forward: proposed, then taken (by a run or a person), then rejected or superseded. */
const MATCH_RANK = rankBy('status', {
  pending: 0,
  pending_review: 0,
  auto_accepted: 1,
  accepted: 1,
  rejected: 2,
  superseded: 2,
});

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
    ...ENTRY_RANK,
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
  // a bank line is its own row (matched and merged on its own), after its statement; matches after
  // the lines and entries they pair (server/features/sync/sync-apply-bank.ts)
  { name: 'statements', table: 'statements', key: ['id'], local: ['seq'] },
  { name: 'bank_transactions', table: 'bank_transactions', key: ['id'], local: ['seq'] },
  { name: 'reconciliation_runs', table: 'reconciliation_runs', key: ['id'] },
  {
    name: 'reconciliation_matches',
    table: 'reconciliation_matches',
    key: ['id'],
    ...MATCH_RANK,
  },
  { name: 'bank_reconciliations', table: 'bank_reconciliations', key: ['id'], local: ['seq'] },
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

/**
 * The oldest marks, at most `limit`; the limit written out, not bound: a bound LIMIT makes SQLite
 * prepare the statement again whenever its value changes.
 */
function takeSql(limit: number): string {
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new Error(`a batch of marks is a positive integer, not ${limit}`);
  return `SELECT rowid, dataset, row_id FROM change_dirty ORDER BY rowid LIMIT ${limit}`;
}

/** A message of the log as the sync sends it. */
export interface LoggedChange {
  timestamp: string;
  dataset: string;
  row: string;
  /** the row's JSON, or null when it was deleted */
  value: string | null;
}

/** What the log needs of a connection (any schema). */
type Db = Pick<SqliteDb<unknown>, 'allSql' | 'runSql' | 'iterateSql' | 'existsSql' | 'writeHook'>;

/**
 * A column as the value's JSON holds it: text as it is, an integer as its decimal string (minor
 * units pass 2^53, which a JSON number does not hold exactly).
 */
function jsonColumn(ref: string, type: string): string {
  if (type === 'INTEGER') return `CAST(${ref} AS TEXT)`;
  if (type === 'TEXT') return ref;
  return `CASE typeof(${ref}) WHEN 'integer' THEN CAST(${ref} AS TEXT) ELSE ${ref} END`;
}

function tableColumns(db: Db, table: string): { name: string; type: string }[] {
  const columns = db.allSql<{ name: string; type: string }>('SELECT name, type FROM pragma_table_info(?)', table);
  if (columns.length === 0) throw new Error(`the change log covers ${table}, which these books do not have`);
  return columns.map((c) => ({ name: c.name, type: c.type.toUpperCase() }));
}

/**
 * The SQL of a dataset's value over its row `r`: `json_object` of the row's columns in the table's
 * order, the local ones left out, then each child table's rows in their order, each without its
 * parent column. The same JSON text as JSON.stringify of the row read in JavaScript with bigints as
 * strings (change-log.test.ts compares them).
 */
function valueSql(db: Db, dataset: Dataset): string {
  const local = new Set(dataset.local ?? []);
  const fields = tableColumns(db, dataset.table)
    .filter((c) => !local.has(c.name))
    .map((c) => `'${c.name}', ${jsonColumn(`r.${c.name}`, c.type)}`);
  for (const child of dataset.children ?? []) {
    const columns = tableColumns(db, child.table)
      .filter((c) => c.name !== child.parent)
      .map((c) => `'${c.name}', ${jsonColumn(`c.${c.name}`, c.type)}`);
    // json(): a scalar subquery's result loses its JSON subtype and would be nested as a string
    fields.push(
      `'${child.name}', json((SELECT json_group_array(json_object(${columns.join(', ')}) ORDER BY c.${child.order})
         FROM ${child.table} AS c WHERE c.${child.parent} = r.${dataset.key[0]}))`,
    );
  }
  return `json_object(${fields.join(', ')})`;
}

/**
 * The statements the log runs for a dataset on one connection, made once. Each reads the row by
 * its key in a plain WHERE: SQLite prepares a statement again at every new binding when its plan may
 * depend on a parameter's value (a LEFT JOIN's ON, ORDER BY … LIMIT ?), which would cost more than
 * the whole message.
 */
export interface DatasetStatements {
  /** the value's JSON by the key values (no row: no answer) */
  read: string;
  /**
   * One message of a row that is there: its timestamp, node, row id, write and undo, then the key
   * values; the value and its rank are read from the row in the same statement (no row: no insert).
   */
  log: string;
}

const STATEMENTS = new WeakMap<Db, Map<string, DatasetStatements>>();

/** The log's statements for a dataset on a connection (made once; exported for the query plans' test). */
export function statementsOf(db: Db, dataset: Dataset): DatasetStatements {
  let byName = STATEMENTS.get(db);
  if (!byName) STATEMENTS.set(db, (byName = new Map()));
  let made = byName.get(dataset.name);
  if (!made) {
    const value = valueSql(db, dataset);
    const where = dataset.key.map((k) => `r.${k} = ?`).join(' AND ');
    made = {
      read: `SELECT ${value} AS value FROM ${dataset.table} AS r WHERE ${where}`,
      log: `INSERT INTO change_log (timestamp, node, dataset, row_id, value, rank, write_ts, undo)
        SELECT ?, ?, '${dataset.name}', ?, ${value}, ${dataset.rankSql?.('r') ?? '0'}, ?, ? FROM ${dataset.table} AS r WHERE ${where}`,
    };
    byName.set(dataset.name, made);
  }
  return made;
}

/** A row's value as the log keeps it (JSON text), or null when there is none. */
export function readRowJson(db: Db, dataset: Dataset, rowId: string): string | null {
  const keys = rowId.split(' ');
  if (keys.length !== dataset.key.length) return null;
  const [row] = db.allSql<{ value: string | null }>(statementsOf(db, dataset).read, ...keys);
  return row?.value ?? null;
}

/** A row as the log keeps it (key values, children inside; integers as decimal strings), or null when there is none. */
export function readRowValue(db: Db, dataset: Dataset, rowId: string): RowValue | null {
  const json = readRowJson(db, dataset, rowId);
  return json === null ? null : (JSON.parse(json) as RowValue);
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
    // the oldest first; cleared up to the last taken (one write at a time: nothing comes between)
    const marks = this.db.allSql<{ rowid: bigint; dataset: string; row_id: string }>(takeSql(limit));
    if (marks.length === 0) return 0;
    this.db.runSql('DELETE FROM change_dirty WHERE rowid <= ?', marks[marks.length - 1]!.rowid);
    const clock = this.ledgerClock();
    const node = clock.node;
    const undo = this.undoing ? 1 : 0;
    let write: string | undefined;
    for (const mark of marks) {
      const timestamp = clock.send().toString();
      write ??= timestamp;
      const dataset = datasetOf(mark.dataset);
      const keys = mark.row_id.split(' ');
      const logged =
        dataset !== undefined &&
        keys.length === dataset.key.length &&
        this.db.runSql(statementsOf(this.db, dataset).log, timestamp, node, mark.row_id, write, undo, ...keys) === 1;
      // a row no longer there: its deletion
      if (!logged)
        this.db.runSql(
          'INSERT INTO change_log (timestamp, node, dataset, row_id, value, rank, write_ts, undo) VALUES (?, ?, ?, ?, NULL, 0, ?, ?)',
          timestamp,
          node,
          mark.dataset,
          mark.row_id,
          write,
          undo,
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

/**
 * Marks every row the log covers and holds no message of (rows written before the books had a log):
 * the books so far become messages (a new sync group sends them). A row with a message is logged as
 * it is already: every write logs its rows, so marking it again would only send the books twice.
 */
export function markEverything(db: Db): void {
  for (const dataset of DATASETS) {
    const id = dataset.key.map((k) => `${dataset.table}.${k}`).join(" || ' ' || ");
    db.runSql(
      `INSERT INTO change_dirty (dataset, row_id) SELECT ?, ${id} FROM ${dataset.table}
        WHERE NOT EXISTS (SELECT 1 FROM change_log l WHERE l.dataset = ? AND l.row_id = ${id})
       ON CONFLICT (dataset, row_id) DO NOTHING`,
      dataset.name,
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
