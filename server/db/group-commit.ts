/**
 * Group commit, the 'group-commit' policy of the one write path (SqliteDb.write).
 *
 * The rule: the writes that reach a connection in the same turn of the event loop (the requests
 * that arrived together) share one transaction, each a savepoint of its own, and so one sync to
 * disk; the group commits once the loop has run the callbacks of everything that arrived with it
 * (setImmediate), and its writes are answered once that commit is durable. Nothing else that uses
 * the connection (a read, an 'immediate' write, close) sees a group's writes before they are
 * durable: it commits and syncs them first. Only what bench/commit-policy.ts shows paying for
 * itself at 1 and 8 clients is here (bench/README.md, "The commit policy").
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type Database from 'better-sqlite3';

/** The parts of group commit that bench/commit-policy.ts measures on and off. */
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

/** How a grouped commit's WAL is synced to disk: off the thread, or at once when something must see it. */
export interface DiskSync {
  sync(fd: number, done: (error: NodeJS.ErrnoException | null) => void): void;
  syncNow(fd: number): void;
}

export const FILE_SYNC: DiskSync = { sync: fs.fdatasync, syncNow: fs.fdatasyncSync };

/** How long the event loop has waited for I/O and timers since it started, in ms. */
export const eventLoopIdleMs = () => performance.eventLoopUtilization().idle;

/**
 * How long the event loop must have waited since writes were last answered for the next one to
 * come alone (writesAlone): less than any client's turn between an answer and its next request
 * over loopback (0.3 ms or more here), more than the loop ever counts when it finds a request ready.
 */
const ALONE_AFTER_IDLE_MS = 0.1;

/**
 * How long a group of writes waits for the company the last group had: a fraction of one sync to
 * disk (milliseconds here), and only while clients are writing at once.
 */
const GROUP_WAIT_MS = 2;
/** How many of the last groups' sizes say how much company to wait for: the largest of them. */
const GROUP_MEMORY = 8;

type Waiting = { resolve: () => void; reject: (error: unknown) => void };

/** What group commit uses of its connection's SqliteDb. */
export interface GroupedConnection {
  readonly sqlite: Database.Database;
  /** throws LEDGER_BUSY when the connection was closed under its requests (SqliteDb.assertOpen) */
  assertOpen(): void;
  /** tells the write hook that a transaction that may have run it was rolled back */
  rolledBack(): void;
  /** `fn`, then the write hook, in the same transaction */
  hooked<T>(fn: () => T): () => T;
  /** a plain write transaction, committed and synced by SQLite (SqliteDb.transaction) */
  transaction<T>(fn: () => T): T;
}

export interface GroupCommitOptions {
  disk?: DiskSync;
  loopIdleMs?: () => number;
  heuristics?: GroupCommitHeuristics;
}

export class GroupCommit {
  readonly heuristics: GroupCommitHeuristics;
  /** Set while a grouped write runs: its statements belong to the group. */
  inWrite = false;
  private readonly db: GroupedConnection;
  private readonly disk: DiskSync;
  private readonly loopIdleMs: () => number;
  /**
   * The transaction grouped writes share until it is committed, the writes waiting for that, and
   * how many it waits for (the last groups' size) before it commits without the rest of its wait.
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
  /** How many writes the last groups committed (the last GROUP_MEMORY of them), newest last. */
  private readonly groupSizes: number[] = [];
  /** The event loop's idle time (loopIdleMs) when grouped writes were last answered. */
  private idleAtAnswer = 0;
  /**
   * The groups committed but not yet synced to disk, and whether a sync is running. A group's
   * COMMIT writes its frames to the WAL without syncing (synchronous=NORMAL for that one
   * transaction; every other commit stays FULL), and the WAL is then synced with fdatasync on
   * libuv's thread pool while this thread goes on with the next requests: the same sync of the
   * same file that synchronous=FULL would make inside COMMIT, without stopping the server for it.
   * A group is answered only when a sync that began after its commit has ended. Groups committed
   * while a sync runs wait for the next one, which covers them all.
   */
  private unsynced: Waiting[] = [];
  private syncing = false;
  /** Groups committed, and how many of them a finished sync covers: more committed than synced means some are not durable yet. */
  private commits = 0;
  private synced = 0;
  /** The WAL file, opened for syncing it (null: not a WAL file on disk; groups then commit at FULL). */
  private wal: { fd: number } | null | undefined;

  constructor(db: GroupedConnection, options: GroupCommitOptions = {}) {
    this.db = db;
    this.disk = options.disk ?? FILE_SYNC;
    this.loopIdleMs = options.loopIdleMs ?? eventLoopIdleMs;
    this.heuristics = options.heuristics ?? ALL_HEURISTICS;
  }

  private get sqlite(): Database.Database {
    return this.db.sqlite;
  }

  /**
   * Runs `fn` as a grouped write; resolves once its group is committed and durable. A write that
   * throws is undone alone (its savepoint) and rejects at once; the others go on.
   *
   * `head`, for a write that changes many pages (a batch of entries): it opens a group of its own
   * (an open one is committed first) and runs without a savepoint, so that the statement journal
   * keeps no page past each statement; if it throws, the group, which holds nothing else, is
   * rolled back. A savepoint keeps every page its write changes, and SQLite walks all of them at
   * the end of each statement within it: a batch would cost the square of its size.
   */
  write<T>(fn: () => T, head = false): Promise<T> {
    try {
      if (head) this.commit();
      else if (this.heuristics.alone && this.writesAlone()) {
        const value = this.db.transaction(fn);
        this.idleAtAnswer = this.loopIdleMs();
        return Promise.resolve(value);
      }
      const group = this.group ?? this.open();
      this.inWrite = true;
      let value: T;
      try {
        value = head ? this.db.hooked(fn)() : this.sqlite.transaction(this.db.hooked(fn))();
      } catch (error) {
        if (head && this.sqlite.open && this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
        this.db.rolledBack();
        throw error;
      } finally {
        this.inWrite = false;
      }
      const answered = new Promise<T>((resolve, reject) =>
        group.waiting.push({ resolve: () => resolve(value), reject }),
      );
      if (group.timer !== undefined && group.waiting.length >= group.expected) {
        clearTimeout(group.timer);
        group.timer = undefined;
        setImmediate(() => this.commit(group));
      }
      return answered;
    } catch (error) {
      // A full disk or an I/O error can make SQLite roll the whole transaction back: the group is then gone.
      const group = this.group;
      if (group !== undefined && !(this.sqlite.open && this.sqlite.inTransaction)) {
        this.group = undefined;
        this.db.rolledBack();
        if (group.timer !== undefined) clearTimeout(group.timer);
        if (group.wal && this.sqlite.open) this.sqlite.exec('PRAGMA synchronous = FULL');
        this.answer(group.waiting, error);
      }
      return Promise.reject(error);
    }
  }

  /** Opens a group: its transaction, and when it commits. */
  private open(): NonNullable<typeof this.group> {
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
    if (expected > 1) opened.timer = setTimeout(() => this.commit(opened), GROUP_WAIT_MS);
    else setImmediate(() => this.commit(opened));
    return opened;
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

  /** Answers grouped writes: all refused with `error` when given, else all resolved. */
  private answer(waiting: readonly Waiting[], error?: unknown): void {
    this.idleAtAnswer = this.loopIdleMs();
    for (const w of waiting) {
      if (error) w.reject(error);
      else w.resolve();
    }
  }

  /**
   * Commits the open group (only if it is still `which`, when given), and answers its writes once
   * durable; rejects them all when it cannot commit.
   */
  private commit(which?: NonNullable<typeof this.group>): void {
    const group = this.group;
    if (group === undefined || (which !== undefined && which !== group)) return;
    this.group = undefined;
    if (group.timer !== undefined) clearTimeout(group.timer);
    this.groupSizes.push(group.waiting.length);
    if (this.groupSizes.length > GROUP_MEMORY) this.groupSizes.shift();
    const wal = group.wal;
    try {
      this.db.assertOpen();
      this.sqlite.exec('COMMIT');
    } catch (error) {
      if (this.sqlite.open && this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
      this.db.rolledBack();
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
  settle(): void {
    this.commit();
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

  /** After settle, before the connection closes: the WAL file is let go (a sync still running closes it when it ends). */
  close(): void {
    const wal = this.wal;
    this.wal = null;
    if (wal && !this.syncing) fs.closeSync(wal.fd);
  }
}
