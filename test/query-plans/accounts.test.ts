import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catchPrepared, readOnly, seedBooks, type Books } from './plans.ts';

let books: Books;
beforeAll(async () => {
  books = await seedBooks();
});
afterAll(() => books.t.stop());

describe('the queries of the chart of accounts', () => {
  it('when an account is moved, then the walk down its sub-accounts follows the parent index', async () => {
    const { t, token, food } = books;
    const parent = (await t.api.post('/api/accounts', { name: 'Food parent', type: 'EXPENSE' }, token)).body.id;
    const { caught, stop } = catchPrepared(books.file);
    try {
      expect((await t.api.put(`/api/accounts/${food}`, { parent_id: parent }, token)).status).toBe(200);
    } finally {
      stop();
    }
    const walk = [...caught].find((sql) => /WITH RECURSIVE below/.test(sql));
    expect(walk).toBeDefined();
    readOnly(books.file, (db) => {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${walk!}`).all(null, null) as { detail: string }[]).map(
        (r) => r.detail,
      );
      expect(plan.filter((d) => /^SCAN (accounts|a)\b/.test(d))).toEqual([]);
      expect(plan.filter((d) => /USING (COVERING )?INDEX accounts_parent/.test(d))).toHaveLength(2);
    });
  });
});
