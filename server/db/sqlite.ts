import fs from 'node:fs';
import Database from 'better-sqlite3';
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type Compilable } from 'kysely';
import { DomainError } from '../domain/errors.ts';
import { GroupCommit } from './group-commit.ts';

/**
 * What a request is told when its ledger's connection was closed under it: a restore replaced the
 * ledger (Stores.swapInLedger) while the request awaited something (the model server between
 * tool calls, the user's job queue) holding the old connection.
 */
export const LEDGER_REPLACED =
  'Your ledger was replaced by a restore while this request ran; nothing was changed. Try again.';

/**
 * A SQLite file with a typed query builder. Kysely only builds SQL here; better-sqlite3 runs it
 * synchronously, so a use case is one synchronous transaction that can never stay open across an
 * await (the model server, bcrypt, the network).
 */
export class SqliteDb<Schema> {
  readonly sqlite: Database.Database;
  readonly qb: Kysely<Schema>;
  private readonly statements = new Map<string, Database.Statement>();
  /**
   * Set while a job on another connection writes this file (server/jobs). A write transaction
   * here would then wait for SQLite's lock synchronously, stopping the whole server; it is
   * refused instead (the app makes writing requests wait for the job before they start).
   */
  busyWith: string | null = null;

  /** What every write does before it commits (the ledger's change log), and after a rollback. */
  writeHook: WriteHook | undefined;
  private readonly groups: GroupCommit;
  /** Whether 'group-commit' writes are grouped (off: they commit as 'immediate'; bench/commit-policy.ts). */
  private readonly grouping: boolean;

  constructor(sqlite: Database.Database, options: { groupCommit?: boolean } = {}) {
    this.sqlite = sqlite;
    this.grouping = options.groupCommit ?? true;
    this.groups = new GroupCommit({
      sqlite,
      assertOpen: () => this.assertOpen(),
      hooked: (fn) => this.hooked(fn),
      rolledBack: () => this.writeHook?.rolledBack(),
    });
    this.qb = new Kysely<Schema>({
      dialect: {
        createAdapter: () => new SqliteAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (db) => new SqliteIntrospector(db),
        createQueryCompiler: () => new SqliteQueryCompiler(),
      },
    });
  }

  /**
   * A request that meets its connection closed by a restore is refused with LEDGER_BUSY (503,
   * "try again"), not better-sqlite3's TypeError (a 500). Refusing here rather than making the
   * restore wait for the user's requests in flight: one check on every path covers them all,
   * including the advisor's stream that may hold the connection for minutes while the model
   * thinks; waiting for it would hold the restore as long. Nothing is cut in half: a transaction
   * is one synchronous call (BEGIN, fn, COMMIT; better-sqlite3 refuses a fn that returns a
   * promise) and the restore's close is JavaScript on this same thread, so the close falls between
   * whole transactions, and a transaction refused here never began. LEDGER_BUSY rather than
   * LEDGER_UNAVAILABLE: to the client it is the same passing condition as a long job (nothing
   * changed, the next try reaches the restored ledger), while LEDGER_UNAVAILABLE is a file this
   * app cannot open at all.
   */
  assertOpen(): void {
    if (!this.sqlite.open) throw new DomainError('LEDGER_BUSY', LEDGER_REPLACED);
  }

  private prepare(sql: string): Database.Statement {
    // Nothing outside a group sees its writes before they are durable.
    if (!this.groups.inWrite) this.groups.settle();
    let statement = this.statements.get(sql);
    if (!statement) {
      // close() empties the cache, so every statement on a closed connection comes this way.
      this.assertOpen();
      statement = this.sqlite.prepare(sql);
      // Integers come back as bigint so that money sums stay exact past 2^53.
      if (statement.reader) statement.safeIntegers(true);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  all<R>(query: Compilable<R>): R[] {
    const { sql, parameters } = query.compile();
    return this.prepare(sql).all(...(parameters as unknown[])) as R[];
  }

  first<R>(query: Compilable<R>): R | undefined {
    const { sql, parameters } = query.compile();
    return this.prepare(sql).get(...(parameters as unknown[])) as R | undefined;
  }

  run(query: Compilable<unknown>): number {
    const { sql, parameters } = query.compile();
    return this.prepare(sql).run(...(parameters as unknown[])).changes;
  }

  /** Raw SQL for the few statements the builder does not express well (upserts with arithmetic). */
  runSql(sql: string, ...parameters: unknown[]): number {
    return this.prepare(sql).run(...parameters).changes;
  }

  allSql<R>(sql: string, ...parameters: unknown[]): R[] {
    return this.prepare(sql).all(...parameters) as R[];
  }

  /** Whether a query returns any row; ask for a constant (`SELECT 1 …`) so that the row is next to nothing. */
  existsSql(sql: string, ...parameters: unknown[]): boolean {
    return this.prepare(sql).get(...parameters) !== undefined;
  }

  /** Rows one at a time, for a walk that may stop early. Finish or break the loop before the next query on this statement. */
  iterateSql<R>(sql: string, ...parameters: unknown[]): IterableIterator<R> {
    return this.prepare(sql).iterate(...parameters) as IterableIterator<R>;
  }

  /**
   * Changes whenever the file's data may have changed: a commit by another connection (SQLite's
   * data_version) or any row written by this one (total_changes, triggers included). Equal
   * versions mean equal data, so an answer computed at one version still holds.
   */
  changeVersion(): string {
    this.assertOpen();
    if (!this.groups.inWrite) this.groups.settle();
    this.versionStatement ??= this.sqlite
      .prepare("SELECT (SELECT data_version FROM pragma_data_version) || '.' || total_changes()")
      .pluck();
    return this.versionStatement.get() as string;
  }

  private versionStatement: Database.Statement | undefined;

  private assertNotBusy(): void {
    if (this.busyWith !== null)
      throw new DomainError(
        'LEDGER_BUSY',
        'Your ledger is busy with a long import or reconciliation run; try again in a moment',
      );
  }

  /**
   * The one write path: every use case that writes declares how its write commits (CommitPolicy)
   * and is answered once the write is durable. 'immediate' is `transaction` answered as a promise;
   * 'group-commit' is group commit (./group-commit.ts); `head` opens a group of its own (a batch).
   */
  write<T>(policy: CommitPolicy, fn: () => T, options: { head?: boolean } = {}): Promise<T> {
    if (policy === 'group-commit' && this.grouping)
      try {
        this.assertOpen();
        this.assertNotBusy();
        return this.groups.write(fn, options.head);
      } catch (error) {
        return Promise.reject(error);
      }
    try {
      return Promise.resolve(this.transaction(fn));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Runs `fn` in one write transaction (BEGIN IMMEDIATE); any throw rolls everything back. Within
   * a grouped write it is a savepoint of the group's transaction; otherwise an open group is
   * committed first, so that this answer never comes before an earlier one's write is durable.
   */
  transaction<T>(fn: () => T): T {
    this.assertOpen();
    this.assertNotBusy();
    if (this.groups.inWrite) return this.sqlite.transaction(fn)();
    this.groups.settle();
    try {
      return this.sqlite.transaction(this.hooked(fn)).immediate();
    } catch (error) {
      this.writeHook?.rolledBack();
      throw error;
    }
  }

  /** `fn`, then the write hook, in the same transaction. */
  private hooked<T>(fn: () => T): () => T {
    const hook = this.writeHook;
    if (hook === undefined) return fn;
    return () => {
      const value = fn();
      hook.beforeCommit();
      return value;
    };
  }

  /**
   * Runs `fn` in one read transaction: all its queries see the same committed state (WAL keeps
   * that snapshot), while other connections go on writing.
   */
  readSnapshot<T>(fn: () => T): T {
    this.assertOpen();
    this.groups.settle();
    return this.sqlite.transaction(fn).deferred();
  }

  close(): void {
    if (this.sqlite.open) this.groups.settle();
    this.statements.clear();
    if (this.sqlite.open) this.sqlite.close();
  }
}

/**
 * How a write commits; the rule: a small write that several clients make at once (a journal
 * posting) is 'group-commit': it shares one transaction and one sync with the writes that arrive
 * in the same turn of the event loop (./group-commit.ts; measured by bench/commit-policy.ts); every
 * other write is 'immediate': its own transaction, synced inside COMMIT.
 */
export type CommitPolicy = 'group-commit' | 'immediate';

/** Work every write transaction does last (SqliteDb.writeHook). */
export interface WriteHook {
  /** Inside the write's transaction, after its own work. */
  beforeCommit(): void;
  /** After a transaction that may have run `beforeCommit` was rolled back. */
  rolledBack(): void;
}

/**
 * SQLite's page cache per connection, in KiB. better-sqlite3 builds SQLite with 16 MB; the screens
 * read maintained totals and short index ranges, and the file's pages stay in the system's cache
 * anyway, so 4 MB serves them as fast (bench) and leaves 12 MB per connection (the server's and
 * the job worker's) to the rest of the machine.
 */
const PAGE_CACHE_KIB = 4096;

/**
 * Opens (creating if needed) a SQLite file readable by its owner only, in WAL mode with foreign
 * keys on. synchronous=FULL: an acknowledged write survives a power cut, not only a crash.
 */
export function openSqliteFile(file: string): Database.Database {
  if (!fs.existsSync(file)) fs.closeSync(fs.openSync(file, 'a', 0o600));
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  // Statement journals in memory: a savepoint (each grouped write) or a statement that fires triggers
  // keeps the pages it changes, to undo them; past 64 KB (16 pages, less than one posting changes)
  // SQLite spills them to a temporary file, two writes a page. Nothing else here uses temporary
  // storage at a size that matters: no query sorts more than a bounded set (test/query-plans/).
  sqlite.pragma('temp_store = MEMORY');
  return sqlite;
}
