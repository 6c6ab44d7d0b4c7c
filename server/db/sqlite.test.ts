import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { groupedDb, type Schema } from '../../test/support/grouped-db.ts';
import { DomainError } from '../domain/errors.ts';
import { LEDGER_REPLACED, openSqliteFile, SqliteDb } from './sqlite.ts';

/** A connection with one row that has been used (its statements cached) and then closed, as a restore closes it. */
function closedDb(): SqliteDb<Schema> {
  const db = new SqliteDb<Schema>(new Database(':memory:'));
  db.runSql('CREATE TABLE things (id INTEGER PRIMARY KEY, label TEXT NOT NULL)');
  db.run(db.qb.insertInto('things').values({ id: 1, label: 'one' }));
  db.all(db.qb.selectFrom('things').selectAll());
  db.changeVersion();
  db.close();
  return db;
}

describe('a closed SqliteDb', () => {
  it('when any query path is used after the connection was closed (a restore replaced the ledger), then it is refused with LEDGER_BUSY, not a TypeError', () => {
    const db = closedDb();
    const select = db.qb.selectFrom('things').selectAll();
    const paths: [string, () => unknown][] = [
      ['all', () => db.all(select)],
      ['first', () => db.first(select)],
      ['run', () => db.run(db.qb.deleteFrom('things'))],
      ['runSql', () => db.runSql('DELETE FROM things')],
      ['allSql', () => db.allSql('SELECT * FROM things')],
      ['existsSql', () => db.existsSql('SELECT 1 FROM things')],
      ['iterateSql', () => db.iterateSql('SELECT * FROM things').next()],
      ['changeVersion', () => db.changeVersion()],
      ['transaction', () => db.transaction(() => 1)],
      ['readSnapshot', () => db.readSnapshot(() => 1)],
    ];
    for (const [name, query] of paths) {
      let thrown: unknown;
      try {
        query();
      } catch (error) {
        thrown = error;
      }
      expect(thrown, name).toBeInstanceOf(DomainError);
      expect(thrown, name).toMatchObject({ code: 'LEDGER_BUSY', message: LEDGER_REPLACED });
    }
  });
});

describe('openSqliteFile', () => {
  it('when a ledger file is opened, then it is private, in WAL with full sync and foreign keys, and its page cache is 4 MB, not better-sqlite3’s 16', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-open-'));
    const file = path.join(dir, 'ledger.sqlite');
    const sqlite = openSqliteFile(file);
    try {
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      // 2 = FULL
      expect(sqlite.pragma('synchronous', { simple: true })).toBe(2);
      expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
      // negative: KiB
      expect(sqlite.pragma('cache_size', { simple: true })).toBe(-4096);
      expect(new Database(':memory:').pragma('cache_size', { simple: true })).toBe(-16000);
    } finally {
      sqlite.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the one write path's 'immediate' policy", () => {
  it("when a write declares 'immediate' while a group is open, then the group commits first, the write commits in its own transaction before its answer, and one that throws is refused with nothing stored", async () => {
    const g = groupedDb();
    try {
      const grouped = g.db.write('group-commit', g.insert(1));
      const immediate = g.db.write('immediate', g.insert(2));
      // both are committed before the immediate write is answered: nothing is left to a later turn
      expect(g.visible()).toBe(2);
      // the open group's COMMIT; the immediate write commits by a statement of its own
      expect(g.commits.n).toBe(1);
      await Promise.all([grouped, immediate]);
      const refused = g.db.write('immediate', () => {
        g.insert(3)();
        throw new DomainError('UNBALANCED', 'refused');
      });
      await expect(refused).rejects.toMatchObject({ code: 'UNBALANCED' });
      expect(g.visible()).toBe(2);
      expect(g.commits.n).toBe(1);
    } finally {
      g.close();
    }
  });
});
