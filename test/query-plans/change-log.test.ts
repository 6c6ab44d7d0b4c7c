import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASETS, statementsOf } from '../../server/db/change-log.ts';
import { SqliteDb } from '../../server/db/sqlite.ts';
import { BIG_TABLES, catchPrepared, offenders, readOnly, seedBooks, type Books } from './plans.ts';

let books: Books;
beforeAll(async () => {
  books = await seedBooks();
});
afterAll(() => books.t.stop());

describe('the queries of the change log', () => {
  it('when entries are written, the history read page by page, a change undone and the sync status read, then no query scans the change log or the lines whole, nor does the log writing a message', async () => {
    const { t, token, bank, food } = books;
    const api = t.api;
    const { caught, stop } = catchPrepared(books.file);
    try {
      const lines = [
        { account_id: food, direction: 'DEBIT', amount: '3.00' },
        { account_id: bank, direction: 'CREDIT', amount: '3.00' },
      ];
      expect((await api.post('/api/journal-entries', { entry_date: '2026-03-03', lines }, token)).status).toBe(201);
      const first = await api.get('/api/history?limit=10', token);
      expect(first.status).toBe(200);
      expect(
        (await api.get(`/api/history?limit=10&before=${encodeURIComponent(first.body.next_before)}`, token)).status,
      ).toBe(200);
      expect((await api.post('/api/history/undo', {}, token)).status).toBe(200);
      expect((await api.get('/api/sync/status', token)).status).toBe(200);
    } finally {
      stop();
    }
    const reads = [...caught].filter((sql) => /^\s*SELECT/i.test(sql) && /change_log/.test(sql));
    expect(reads.length).toBeGreaterThan(4);
    readOnly(books.file, (db) => {
      // the log's own statements: each message's value read from its row by the row's key
      const logged = DATASETS.flatMap((dataset) => Object.values(statementsOf(new SqliteDb(db), dataset)));
      const tables = [...BIG_TABLES, 'change_log', ...DATASETS.map((d) => d.table)];
      expect(offenders(db, [...reads, ...logged], tables)).toEqual([]);
    });
  });
});
