import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIG_TABLES, catchPrepared, offenders, readOnly, seedBooks, type Books } from './plans.ts';

let books: Books;
beforeAll(async () => {
  books = await seedBooks();
});
afterAll(() => books.t.stop());

describe('the queries of the change log', () => {
  it('when entries are written, the history read page by page, a change undone and the sync status read, then no query scans the change log or the lines whole', async () => {
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
    readOnly(books.file, (db) => expect(offenders(db, reads, [...BIG_TABLES, 'change_log'])).toEqual([]));
  });
});
