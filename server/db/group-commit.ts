/**
 * Group commit, the 'group-commit' policy of the one write path (SqliteDb.write).
 *
 * The rule: the writes that reach a connection in the same turn of the event loop (the requests
 * that arrived together) share one transaction, each a savepoint of its own, and so one commit and
 * one sync to disk (synchronous=FULL, inside COMMIT, as every other commit); the group commits once
 * the loop has run the callbacks of everything that arrived with it (setImmediate), and its writes
 * are answered then. Anything else that uses the connection (a read, an 'immediate' write, close)
 * commits the open group first, so nobody sees a write before it is durable. Nothing more: the
 * sync off the thread, committing a write that comes alone at once, and waiting for the last
 * groups' company did not pay for themselves at 1 or 8 clients (bench/commit-policy.ts,
 * bench/README.md "The commit policy").
 */
import type Database from 'better-sqlite3';

/** What group commit uses of its connection's SqliteDb. */
export interface GroupedConnection {
  readonly sqlite: Database.Database;
  /** throws LEDGER_BUSY when the connection was closed under its requests (SqliteDb.assertOpen) */
  assertOpen(): void;
  /** `fn`, then the write hook, in the same transaction (SqliteDb.hooked) */
  hooked<T>(fn: () => T): () => T;
  /** tells the write hook that a transaction that may have run it was rolled back */
  rolledBack(): void;
}

type Waiting = { resolve: () => void; reject: (error: unknown) => void };

export class GroupCommit {
  /** Set while a grouped write runs: its statements belong to the group. */
  inWrite = false;
  private readonly db: GroupedConnection;
  /** The transaction grouped writes share until it is committed, and the writes waiting for that. */
  private group: { waiting: Waiting[] } | undefined;

  constructor(db: GroupedConnection) {
    this.db = db;
  }

  private get sqlite(): Database.Database {
    return this.db.sqlite;
  }

  /**
   * Runs `fn` as a grouped write; resolves once its group is committed. A write that throws is
   * undone alone (its savepoint) and rejects at once; the others go on.
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
      return new Promise<T>((resolve, reject) => group.waiting.push({ resolve: () => resolve(value), reject }));
    } catch (error) {
      // A full disk or an I/O error can make SQLite roll the whole transaction back: the group is then gone.
      const group = this.group;
      if (group !== undefined && !(this.sqlite.open && this.sqlite.inTransaction)) {
        this.group = undefined;
        this.db.rolledBack();
        answer(group.waiting, error);
      }
      return Promise.reject(error);
    }
  }

  /** Opens a group: its transaction, committed once the event loop has run what arrived with it. */
  private open(): { waiting: Waiting[] } {
    this.sqlite.exec('BEGIN IMMEDIATE');
    const opened = { waiting: [] };
    this.group = opened;
    setImmediate(() => this.commit(opened));
    return opened;
  }

  /**
   * Commits the open group (only if it is still `which`, when given) and answers its writes:
   * resolved when committed, all rejected when it cannot commit.
   */
  private commit(which?: { waiting: Waiting[] }): void {
    const group = this.group;
    if (group === undefined || (which !== undefined && which !== group)) return;
    this.group = undefined;
    try {
      this.db.assertOpen();
      this.sqlite.exec('COMMIT');
    } catch (error) {
      if (this.sqlite.open && this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
      this.db.rolledBack();
      answer(group.waiting, error);
      return;
    }
    answer(group.waiting);
  }

  /** Before anything but a grouped write uses the connection: commits the open group, so that nothing is read from or built on a write that is not durable. */
  settle(): void {
    this.commit();
  }
}

/** Answers grouped writes: all refused with `error` when given, else all resolved. */
function answer(waiting: readonly Waiting[], error?: unknown): void {
  for (const w of waiting) {
    if (error) w.reject(error);
    else w.resolve();
  }
}
