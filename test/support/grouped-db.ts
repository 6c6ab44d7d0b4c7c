import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { DiskSync } from '../../server/db/group-commit.ts';
import { openSqliteFile, SqliteDb } from '../../server/db/sqlite.ts';

// A file-backed SqliteDb whose commits and syncs a test can count, hold and fail: the tests of the
// one write path (server/db/sqlite.test.ts, server/db/group-commit*.test.ts).

export interface Schema {
  things: { id: number; label: string };
}

/**
 * The WAL syncs of a connection, counted: each a real fdatasync of the file. Held, a sync off the
 * thread ends only when `release` is called (as a slow disk's would); otherwise it ends at once.
 */
export function countedDisk({ held = false } = {}) {
  const pending: (() => void)[] = [];
  const counts = { background: 0, now: 0 };
  let failNext: Error | undefined;
  const disk: DiskSync = {
    sync: (fd, done) => {
      counts.background += 1;
      const end = () => {
        const error = failNext ?? null;
        failNext = undefined;
        if (!error) fs.fdatasyncSync(fd);
        done(error);
      };
      if (held) pending.push(end);
      else end();
    },
    syncNow: (fd) => {
      counts.now += 1;
      fs.fdatasyncSync(fd);
    },
  };
  return {
    disk,
    counts,
    /** Ends the oldest sync still running. */
    release: () => pending.shift()!(),
    running: () => pending.length,
    failNextSync: (error: Error) => (failNext = error),
  };
}

/**
 * The event loop's idle time as SqliteDb reads it, moved by hand: `wait(ms)` is the loop waiting
 * for a request. A loop that never waits (the default) is a server with requests always queued,
 * so that every write joins a group.
 */
export function loopClock() {
  let idle = 0;
  return { idleMs: () => idle, wait: (ms = 1) => (idle += ms) };
}

/** A file-backed connection (as a ledger's) with a table, a second connection to look from, and its COMMITs counted. */
export function groupedDb(disk = countedDisk().disk, loopIdleMs = loopClock().idleMs) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-group-'));
  const file = path.join(dir, 'ledger.sqlite');
  const sqlite = openSqliteFile(file);
  const db = new SqliteDb<Schema>(sqlite, { disk, loopIdleMs });
  db.runSql('CREATE TABLE things (id INTEGER PRIMARY KEY, label TEXT NOT NULL)');
  const observer = new Database(file, { readonly: true });
  const count = observer.prepare('SELECT COUNT(*) FROM things').pluck();
  const commits = { n: 0 };
  const exec = sqlite.exec.bind(sqlite);
  sqlite.exec = (sql: string) => {
    if (sql === 'COMMIT') commits.n += 1;
    return exec(sql);
  };
  const insert = (id: number) => () => db.runSql('INSERT INTO things (id, label) VALUES (?, ?)', id, `thing ${id}`);
  return {
    db,
    insert,
    commits,
    /** Rows another connection sees: committed ones only. */
    visible: () => count.get() as number,
    close: () => {
      observer.close();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const settled = <T>(promise: Promise<T>) => {
  const state: { done: boolean; error?: unknown } = { done: false };
  promise.then(
    () => (state.done = true),
    (error: unknown) => Object.assign(state, { done: true, error }),
  );
  return state;
};

/** Lets the event loop run one turn: the immediates scheduled so far run, timers that are due may. */
export const turn = () => new Promise((resolve) => setImmediate(resolve));
