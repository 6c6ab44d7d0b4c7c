import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteFile, SqliteDb } from '../../server/db/sqlite.ts';

// A file-backed SqliteDb whose group commits a test counts and sees from another connection: the
// tests of the one write path (server/db/sqlite.test.ts, server/db/group-commit.test.ts).

export interface Schema {
  things: { id: number; label: string };
}

/** A file-backed connection (as a ledger's) with a table, a second connection to look from, and its COMMITs counted. */
export function groupedDb(options: { groupCommit?: boolean } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-group-'));
  const file = path.join(dir, 'ledger.sqlite');
  const sqlite = openSqliteFile(file);
  const db = new SqliteDb<Schema>(sqlite, options);
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
