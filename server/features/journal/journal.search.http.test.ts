import { beforeAll, describe, expect, it } from 'vitest';
import { api, token, useAppServer } from '../../../test/support/app-server.ts';
import { writeBooks, type Books } from '../../../test/support/books.ts';

useAppServer();

let books: Books;
beforeAll(async () => {
  books = await writeBooks(
    api,
    token,
    `
account Checking    ; type: ASSET
account Food        ; type: EXPENSE
account Yen wallet  ; type: ASSET, currency: JPY
account Yen food    ; type: EXPENSE, currency: JPY

2026-03-01 * Fresh market run
    Food        82.50
    Checking

2026-03-02 * Supermarket
    Food        12.00
    Checking

2026-03-03 * Café Lumière
    Food         4.20
    Checking

2026-03-04 * 家乐福超市购物
    Food        82.00
    Checking

2026-03-05 * Invoice 2024 paid
    Food       300.00
    Checking

2026-03-06 * Ramen
    Yen food        82
    Yen wallet
`,
  );
  // an entry without a memo, which journal text cannot write
  const noMemo = await api.post(
    '/api/journal-entries',
    {
      entry_date: '2026-03-07',
      memo: null,
      auto_post: true,
      lines: [
        { account_id: books.accounts.Food, direction: 'DEBIT', amount: '82.50' },
        { account_id: books.accounts.Checking, direction: 'CREDIT', amount: '82.50' },
      ],
    },
    token,
  );
  expect(noMemo.status).toBe(201);
  await writeBooks(
    api,
    token,
    `
2026-03-08 ! Market draft
    Food         7.00
    Checking

2026-02-01 * Market in February
    Food         1.00
    Checking
`,
    books,
  );
});

/** The memos a search finds, in the order given. */
async function found(query: string): Promise<string[]> {
  const res = await api.get(`/api/journal-entries?per_page=100&${query}`, token);
  expect(res.status).toBe(200);
  expect(res.body.total).toBe(res.body.items.length);
  return res.body.items.map((e: { memo: string | null }) => e.memo);
}

describe('GET /api/journal-entries?q= (CONTRACT §15)', () => {
  it('when memo words are searched, then entries holding all of them come, in any order and any case, newest first', async () => {
    expect(await found('q=MARKET%20fresh')).toEqual(['Fresh market run']);
    expect(await found('q=market')).toEqual(['Market draft', 'Fresh market run', 'Market in February']);
    // the last word may be the start of one, as while typing
    expect(await found('q=fres%20mark')).toEqual(['Fresh market run']);
    expect(await found('q=lumiere%20CAFE')).toEqual(['Café Lumière']);
    expect(await found('q=nothing-like-this')).toEqual([]);
  });

  it('when Chinese words are searched, then they are found inside a memo written without spaces', async () => {
    expect(await found(`q=${encodeURIComponent('超市')}`)).toEqual(['家乐福超市购物']);
    expect(await found(`q=${encodeURIComponent('购物 家乐福')}`)).toEqual(['家乐福超市购物']);
    expect(await found(`q=${encodeURIComponent('市超')}`)).toEqual([]);
  });

  it('when an amount is searched, then entries with a line of exactly that amount come, in any currency that can hold it', async () => {
    expect(await found('q=82.50')).toEqual([null, 'Fresh market run']);
    expect(await found('q=82.5')).toEqual([null, 'Fresh market run']);
    expect(await found('q=82')).toEqual(['Ramen', '家乐福超市购物']);
    expect(await found('q=8.25')).toEqual([]);
    expect(await found('q=-1%2C234.00')).toEqual([]);
    // a number is also found in the memo
    expect(await found('q=2024')).toEqual(['Invoice 2024 paid']);
  });

  it('when words and an amount are searched together, then an entry must have both', async () => {
    expect(await found('q=market%2082.50')).toEqual(['Fresh market run']);
    expect(await found('q=super%2082.50')).toEqual([]);
  });

  it('when a search is combined with the other filters, then every filter holds', async () => {
    expect(await found('q=market&status=posted')).toEqual(['Fresh market run', 'Market in February']);
    expect(await found('q=market&start_date=2026-03-01&end_date=2026-03-31')).toEqual([
      'Market draft',
      'Fresh market run',
    ]);
    expect(await found('q=market&end_date=2026-02-28')).toEqual(['Market in February']);
    expect(await found(`q=82&account_id=${books.accounts['Yen food']}`)).toEqual(['Ramen']);
    expect(await found('q=82.50&start_date=2026-03-02')).toEqual([null]);
    expect(await found('q=market&source_type=import')).toEqual([]);
  });

  it('when results span pages, then pages are consecutive with the true total', async () => {
    const first = await api.get('/api/journal-entries?q=market&per_page=2', token);
    const second = await api.get('/api/journal-entries?q=market&per_page=2&page=2', token);
    const past = await api.get('/api/journal-entries?q=market&per_page=2&page=9', token);
    expect(first.body.total).toBe(3);
    expect([...first.body.items, ...second.body.items].map((e: { memo: string }) => e.memo)).toEqual(
      await found('q=market'),
    );
    expect(past.body).toMatchObject({ items: [], total: 3 });
  });

  it('when a memo is changed or an entry voided, then the search follows', async () => {
    const put = await api.put(`/api/journal-entries/${books.entries['Market draft']}`, { memo: 'Bakery' }, token);
    expect(put.status).toBe(200);
    expect(await found('q=bakery')).toEqual(['Bakery']);
    expect(await found('q=market')).toEqual(['Fresh market run', 'Market in February']);
    const voided = await api.post(`/api/journal-entries/${books.entries.Supermarket}/void`, { reason: 'typo' }, token);
    expect(voided.status).toBe(200);
    expect(await found('q=supermarket')).toEqual(['Void: Supermarket (typo)', 'Supermarket']);
  });

  it('when the search holds quotes, operators or nothing to search for, then it is read as plain text', async () => {
    for (const q of ['"', 'market OR x', 'NEAR(market', '*', 'memo:market', '^market', 'a AND', '(', '-']) {
      const res = await api.get(`/api/journal-entries?q=${encodeURIComponent(q)}`, token);
      expect(res.status).toBe(200);
    }
    expect(await found('q=market%20OR%20fresh')).toEqual([]);
    const all = (await api.get('/api/journal-entries', token)).body.total;
    expect((await api.get('/api/journal-entries?q=%20!!%20', token)).body.total).toBe(all);
  });

  it('when the search is too long, then it is refused', async () => {
    const res = await api.get(`/api/journal-entries?q=${'a'.repeat(201)}`, token);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.errors[0].field).toBe('q');
  });
});
