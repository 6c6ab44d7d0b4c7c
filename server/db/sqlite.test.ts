import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain/errors.ts';
import { LEDGER_REPLACED, SqliteDb } from './sqlite.ts';

interface Schema {
  things: { id: number; label: string };
}

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
