import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type Api, type TestServer } from '../../../test/support/server.ts';

let t: TestServer;
let api: Api;
let token: string;
const ids: Record<string, string> = {};
const entries: Record<string, string> = {};

async function mk(name: string, type: string, extra: Record<string, unknown> = {}) {
  const res = await api.post('/api/accounts', { name, type, ...extra }, token);
  expect(res.status).toBe(201);
  ids[name] = res.body.id;
}

async function entry(
  key: string,
  date: string,
  memo: string | null,
  lines: [string, 'DEBIT' | 'CREDIT', string][],
  autoPost = true,
) {
  const res = await api.post(
    '/api/journal-entries',
    {
      entry_date: date,
      memo,
      auto_post: autoPost,
      lines: lines.map(([n, direction, amount]) => ({ account_id: ids[n], direction, amount })),
    },
    token,
  );
  expect(res.status).toBe(201);
  entries[key] = res.body.id;
}

const spend = (amount: string, from = 'Checking', to = 'Food'): [string, 'DEBIT' | 'CREDIT', string][] => [
  [to, 'DEBIT', amount],
  [from, 'CREDIT', amount],
];

/** The memos a search finds, in the order given. */
async function found(query: string): Promise<string[]> {
  const res = await api.get(`/api/journal-entries?per_page=100&${query}`, token);
  expect(res.status).toBe(200);
  expect(res.body.total).toBe(res.body.items.length);
  return res.body.items.map((e: { memo: string | null }) => e.memo);
}

beforeAll(async () => {
  t = await startTestServer();
  api = t.api;
  ({ token } = await registerUser(api));
  await mk('Checking', 'ASSET');
  await mk('Food', 'EXPENSE');
  await mk('Yen wallet', 'ASSET', { currency: 'JPY' });
  await mk('Yen food', 'EXPENSE', { currency: 'JPY' });
  await entry('fresh', '2026-03-01', 'Fresh market run', spend('82.50'));
  await entry('super', '2026-03-02', 'Supermarket', spend('12.00'));
  await entry('cafe', '2026-03-03', 'Café Lumière', spend('4.20'));
  await entry('zh', '2026-03-04', '家乐福超市购物', spend('82.00'));
  await entry('invoice', '2026-03-05', 'Invoice 2024 paid', spend('300.00'));
  await entry('yen', '2026-03-06', 'Ramen', spend('82', 'Yen wallet', 'Yen food'));
  await entry('nomemo', '2026-03-07', null, spend('82.50'));
  await entry('draft', '2026-03-08', 'Market draft', spend('7.00'), false);
  await entry('early', '2026-02-01', 'Market in February', spend('1.00'));
});

afterAll(async () => {
  await t.stop();
});

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
    expect(await found(`q=82&account_id=${ids['Yen food']}`)).toEqual(['Ramen']);
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
    const put = await api.put(`/api/journal-entries/${entries.draft}`, { memo: 'Bakery' }, token);
    expect(put.status).toBe(200);
    expect(await found('q=bakery')).toEqual(['Bakery']);
    expect(await found('q=market')).toEqual(['Fresh market run', 'Market in February']);
    const voided = await api.post(`/api/journal-entries/${entries.super}/void`, { reason: 'typo' }, token);
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
