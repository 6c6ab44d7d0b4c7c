import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type Compilable } from 'kysely';
import { DomainError } from '../domain/errors.ts';

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

  private readonly disk: DiskSync;
  private readonly loopIdleMs: () => number;
  private readonly heuristics: GroupCommitHeuristics;
  /** What every write does before it commits (the ledger's change log), and after a rollback. */
  writeHook: WriteHook | undefined;

  /**
   * `disk`: how a group's WAL is synced; `loopIdleMs`: how long the event loop has waited for
   * anything so far (see writesAlone). Tests stand in for both.
   */
  constructor(
    sqlite: Database.Database,
    disk: DiskSync = FILE_SYNC,
    loopIdleMs: () => number = eventLoopIdleMs,
    heuristics: GroupCommitHeuristics = ALL_HEURISTICS,
  ) {
    this.sqlite = sqlite;
    this.heuristics = heuristics;
    this.disk = disk;
    this.loopIdleMs = loopIdleMs;
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
  private assertOpen(): void {
    if (!this.sqlite.open) throw new DomainError('LEDGER_BUSY', LEDGER_REPLACED);
  }

  private prepare(sql: string): Database.Statement {
    // Nothing outside a group sees its writes before they are durable.
    if (!this.inGroupedWrite) this.settle();
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
    if (!this.inGroupedWrite) this.settle();
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
   * 'group-commit' is `grouped`.
   */
  write<T>(policy: CommitPolicy, fn: () => T, options: { head?: boolean } = {}): Promise<T> {
    if (policy === 'group-commit' && this.heuristics.grouping) return this.grouped(fn, options);
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
    if (this.inGroupedWrite) return this.sqlite.transaction(fn)();
    this.settle();
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
   * The transaction grouped writes share until it is committed, the writes waiting for that, and
   * how many it waits for (the last group's size) before it commits without the rest of its wait.
   */
  private group:
    | {
        waiting: Waiting[];
        expected: number;
        timer: NodeJS.Timeout | undefined;
        /** the WAL file its commit leaves to syncGroups (none: it commits at FULL) */
        wal: { fd: number } | undefined;
      }
    | undefined;
  /** Set while a grouped write runs: its statements belong to the group. */
  private inGroupedWrite = false;
  /** How many writes the last groups committed (the last GROUP_MEMORY of them), newest last. */
  private readonly groupSizes: number[] = [];
  /** The event loop's idle time (loopIdleMs) when grouped writes were last answered. */
  private idleAtAnswer = 0;

  /**
   * Group commit: runs `fn` as a write that shares one transaction, and so one sync to disk, with
   * the other grouped writes that reach this connection in the same turn of the event loop (the
   * requests that arrived together), and resolves once that transaction is committed and durable
   * (see syncGroups). Each write is a savepoint of its own: one that throws is undone alone and
   * rejects at once, the others go on.
   *
   * A write that comes alone (see writesAlone) is not grouped: it commits and syncs here and now,
   * as a plain transaction does, and is answered at once; a group's commit and its sync off the
   * thread would only add their hops to its answer.
   *
   * When the group commits: once the event loop has run the callbacks of everything that arrived
   * with it (setImmediate), so a write waits for no company that is not there. While clients write
   * at once (one of the last GROUP_MEMORY groups had several writes), their next requests come back
   * a few at a time after each answer: the group then waits for as many as the largest of those
   * groups, at most GROUP_WAIT_MS, rather than sync once for the first to come back and again for
   * the rest.
   * Anything else that uses the connection (a read, a plain transaction, close) commits the group
   * and syncs it at once: nobody sees its writes before they are durable.
   *
   * `head`, for a write that changes many pages (a batch of entries): it opens a group of its own
   * (an open one is committed first) and runs without a savepoint, so that the statement journal
   * keeps no page past each statement; if it throws, the group, which holds nothing else, is
   * rolled back. A savepoint keeps every page its write changes, and SQLite walks all of them at
   * the end of each statement within it: a batch would cost the square of its size.
   */
  private grouped<T>(fn: () => T, options: { head?: boolean } = {}): Promise<T> {
    try {
      this.assertOpen();
      this.assertNotBusy();
      if (options.head) this.commitGroup();
      else if (this.heuristics.alone && this.writesAlone()) {
        const value = this.transaction(fn);
        this.idleAtAnswer = this.loopIdleMs();
        return Promise.resolve(value);
      }
      if (this.group === undefined) {
        // SQLite takes the level of sync only outside a transaction: the group's commit writes the
        // WAL without syncing it, and syncGroups syncs it off this thread.
        const wal = this.heuristics.offThreadSync ? this.walFile() : undefined;
        if (wal) this.sqlite.exec('PRAGMA synchronous = NORMAL');
        try {
          this.sqlite.exec('BEGIN IMMEDIATE');
        } catch (error) {
          if (wal) this.sqlite.exec('PRAGMA synchronous = FULL');
          throw error;
        }
        const expected = this.heuristics.companyWait ? Math.max(0, ...this.groupSizes) : 0;
        const opened = { waiting: [], expected, timer: undefined as NodeJS.Timeout | undefined, wal };
        this.group = opened;
        if (expected > 1) opened.timer = setTimeout(() => this.commitGroup(opened), GROUP_WAIT_MS);
        else setImmediate(() => this.commitGroup(opened));
      }
      const group = this.group;
      this.inGroupedWrite = true;
      let value: T;
      try {
        value = options.head ? this.hooked(fn)() : this.sqlite.transaction(this.hooked(fn))();
      } catch (error) {
        if (options.head && this.sqlite.open && this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
        this.writeHook?.rolledBack();
        throw error;
      } finally {
        this.inGroupedWrite = false;
      }
      const answered = new Promise<T>((resolve, reject) =>
        group.waiting.push({ resolve: () => resolve(value), reject }),
      );
      if (group.timer !== undefined && group.waiting.length >= group.expected) {
        clearTimeout(group.timer);
        group.timer = undefined;
        setImmediate(() => this.commitGroup(group));
      }
      return answered;
    } catch (error) {
      // A full disk or an I/O error can make SQLite roll the whole transaction back: the group is then gone.
      const group = this.group;
      if (group !== undefined && !(this.sqlite.open && this.sqlite.inTransaction)) {
        this.group = undefined;
        this.writeHook?.rolledBack();
        if (group.timer !== undefined) clearTimeout(group.timer);
        if (group.wal && this.sqlite.open) this.sqlite.exec('PRAGMA synchronous = FULL');
        this.answer(group.waiting, error);
      }
      return Promise.reject(error);
    }
  }

  /**
   * Whether a grouped write comes alone: no group is open or waits for its sync, none of the last
   * groups had company, and the event loop has waited for something since writes were last
   * answered, so that no request was queued behind them. A request that arrived while the thread
   * was busy is read without the loop waiting (libuv polls without a timeout first, and only the
   * wait after that counts as idle): it then joins a group, and so do the requests after it while
   * their syncs overlap. A client posting one entry at a time, with no other client writing,
   * comes alone.
   */
  private writesAlone(): boolean {
    return (
      this.group === undefined &&
      this.synced >= this.commits &&
      this.groupSizes.every((size) => size <= 1) &&
      this.loopIdleMs() - this.idleAtAnswer >= ALONE_AFTER_IDLE_MS
    );
  }

  /**
   * Answers grouped writes: all refused with `error` when given, else all resolved; notes the event
   * loop's idle time then (writesAlone).
   */
  private answer(waiting: readonly Waiting[], error?: unknown): void {
    this.idleAtAnswer = this.loopIdleMs();
    for (const w of waiting) {
      if (error) w.reject(error);
      else w.resolve();
    }
  }

  /**
   * Commits the open group (only if it is still `which`, when given), and answers its writes:
   * resolved when committed, rejected when not.
   */
  private commitGroup(which?: NonNullable<typeof this.group>): void {
    const group = this.group;
    if (group === undefined || (which !== undefined && which !== group)) return;
    this.group = undefined;
    if (group.timer !== undefined) clearTimeout(group.timer);
    this.groupSizes.push(group.waiting.length);
    if (this.groupSizes.length > GROUP_MEMORY) this.groupSizes.shift();
    const wal = group.wal;
    try {
      if (!this.sqlite.open) throw new DomainError('LEDGER_BUSY', LEDGER_REPLACED);
      this.sqlite.exec('COMMIT');
    } catch (error) {
      if (this.sqlite.open && this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
      this.writeHook?.rolledBack();
      this.answer(group.waiting, error);
      return;
    } finally {
      if (wal && this.sqlite.open) this.sqlite.exec('PRAGMA synchronous = FULL');
    }
    if (wal === undefined) this.answer(group.waiting);
    else {
      this.commits += 1;
      this.unsynced.push(...group.waiting);
      if (!this.syncing) this.syncGroups(wal);
    }
  }

  /**
   * The groups committed but not yet synced to disk, and whether a sync is running. A group's
   * COMMIT writes its frames to the WAL without syncing (synchronous=NORMAL for that one
   * transaction; every other commit stays FULL), and the WAL is then synced with fdatasync on libuv's thread
   * pool while this thread goes on with the next requests: the same sync of the same file that
   * synchronous=FULL would make inside COMMIT, without stopping the server for it. A group is
   * answered only when a sync that began after its commit has ended. Groups committed while a sync
   * runs wait for the next one, which covers them all.
   */
  private unsynced: Waiting[] = [];
  private syncing = false;
  /** Groups committed, and how many of them a finished sync covers: more committed than synced means some are not durable yet. */
  private commits = 0;
  private synced = 0;
  /** The WAL file, opened for syncing it (undefined: not a WAL file on disk; groups then commit at FULL). */
  private wal: { fd: number } | null | undefined;

  private walFile(): { fd: number } | undefined {
    if (this.wal === undefined) {
      this.wal = null;
      if (!this.sqlite.memory && this.sqlite.pragma('journal_mode', { simple: true }) === 'wal') {
        try {
          this.wal = { fd: fs.openSync(`${this.sqlite.name}-wal`, 'r+') };
        } catch {
          // no WAL file to open: commits sync inside SQLite
        }
      }
    }
    return this.wal ?? undefined;
  }

  private syncGroups(wal: { fd: number }): void {
    const waiting = this.unsynced;
    const covers = this.commits;
    this.unsynced = [];
    this.syncing = true;
    this.disk.sync(wal.fd, (error) => {
      this.syncing = false;
      if (!error) this.synced = Math.max(this.synced, covers);
      this.answer(waiting, error ?? undefined);
      if (this.unsynced.length > 0 && this.wal === wal) this.syncGroups(wal);
      else if (this.wal !== wal) fs.closeSync(wal.fd);
    });
  }

  /**
   * Before anything but a grouped write uses the connection: commits the open group and syncs
   * every committed group here and now, so that nothing is read from, or built on, a write that is
   * not durable yet (a sync still running included: it answers the groups it covers when it ends).
   */
  private settle(): void {
    this.commitGroup();
    if (!this.wal || this.synced >= this.commits) return;
    const waiting = this.unsynced;
    const covers = this.commits;
    this.unsynced = [];
    let error: unknown;
    try {
      this.disk.syncNow(this.wal.fd);
      this.synced = covers;
    } catch (failed) {
      error = failed;
    }
    this.answer(waiting, error);
    if (error) throw error;
  }

  /**
   * Runs `fn` in one read transaction: all its queries see the same committed state (WAL keeps
   * that snapshot), while other connections go on writing.
   */
  readSnapshot<T>(fn: () => T): T {
    this.assertOpen();
    this.settle();
    return this.sqlite.transaction(fn).deferred();
  }

  close(): void {
    if (this.sqlite.open) this.settle();
    this.statements.clear();
    const wal = this.wal;
    this.wal = null;
    // a sync still running closes the file when it ends
    if (wal && !this.syncing) fs.closeSync(wal.fd);
    if (this.sqlite.open) this.sqlite.close();
  }
}

/**
 * How a write commits; the rule: a small write that requests make one at a time, and that several
 * clients make at once (a journal posting), is 'group-commit' (it shares one transaction and one
 * sync off the thread with the writes that arrive with it; bench/writes.ts, 8 and 50 clients);
 * every other write is 'immediate' (its own transaction, synced inside COMMIT): a group would only
 * add hops to a write that comes alone.
 */
export type CommitPolicy = 'group-commit' | 'immediate';

/** Work every write transaction does last (SqliteDb.writeHook). */
export interface WriteHook {
  /** Inside the write's transaction, after its own work. */
  beforeCommit(): void;
  /** After a transaction that may have run `beforeCommit` was rolled back. */
  rolledBack(): void;
}

/** The group commit's parts, each of which the bench (bench/commit-policy.ts) measures on and off. */
export interface GroupCommitHeuristics {
  /** 'group-commit' groups at all (off: every write commits as 'immediate') */
  grouping: boolean;
  /** a group commits at synchronous=NORMAL and its WAL is synced off the thread */
  offThreadSync: boolean;
  /** a write that comes alone (the event loop waited for it) commits at once, without a group */
  alone: boolean;
  /** a group waits (GROUP_WAIT_MS at most) for as many writes as the last groups had */
  companyWait: boolean;
}

export const ALL_HEURISTICS: GroupCommitHeuristics = {
  grouping: true,
  offThreadSync: true,
  alone: true,
  companyWait: true,
};

type Waiting = { resolve: () => void; reject: (error: unknown) => void };

/** How a grouped commit's WAL is synced to disk: off the thread, or at once when something must see it. */
export interface DiskSync {
  sync(fd: number, done: (error: NodeJS.ErrnoException | null) => void): void;
  syncNow(fd: number): void;
}

const FILE_SYNC: DiskSync = { sync: fs.fdatasync, syncNow: fs.fdatasyncSync };

/** How long the event loop has waited for I/O and timers since it started, in ms. */
export const eventLoopIdleMs = () => performance.eventLoopUtilization().idle;

/**
 * How long the event loop must have waited since writes were last answered for the next one to
 * come alone (SqliteDb.writesAlone): less than any client's turn between an answer and its next
 * request over loopback (0.3 ms or more here), more than the loop ever counts when it finds a
 * request ready.
 */
const ALONE_AFTER_IDLE_MS = 0.1;

/**
 * How long a group of writes waits for the company the last group had (SqliteDb.grouped): a
 * fraction of one sync to disk (milliseconds here), and only while clients are writing at once.
 */
const GROUP_WAIT_MS = 2;
/** How many of the last groups' sizes say how much company to wait for: the largest of them. */
const GROUP_MEMORY = 8;

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
