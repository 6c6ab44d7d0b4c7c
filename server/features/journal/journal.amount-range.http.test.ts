import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type Api, type TestServer } from '../../../test/support/server.ts';

let t: TestServer;
let api: Api;
let token: string;
const ids: Record<string, string> = {};

async function mk(name: string, type: string, extra: Record<string, unknown> = {}) {
  const res = await api.post('/api/accounts', { name, type, ...extra }, token);
  expect(res.status).toBe(201);
  ids[name] = res.body.id;
}

async function spend(date: string, memo: string, amount: string, from = 'Checking', to = 'Food', autoPost = true) {
  const res = await api.post(
    '/api/journal-entries',
    {
      entry_date: date,
      memo,
      auto_post: autoPost,
      lines: [
        { account_id: ids[to], direction: 'DEBIT', amount },
        { account_id: ids[from], direction: 'CREDIT', amount },
      ],
    },
    token,
  );
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** The memos a listing finds, newest first. */
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
  await mk('Rent', 'EXPENSE');
  await mk('Yen wallet', 'ASSET', { currency: 'JPY' });
  await mk('Yen food', 'EXPENSE', { currency: 'JPY' });
  await spend('2026-03-01', 'Coffee', '4.20');
  await spend('2026-03-02', 'Groceries', '49.99');
  await spend('2026-03-03', 'Market', '50.00');
  await spend('2026-03-04', 'Dinner', '120.00');
  await spend('2026-03-05', 'Rent March', '1500.00', 'Checking', 'Rent');
  await spend('2026-03-06', 'Ramen', '80', 'Yen wallet', 'Yen food');
  await spend('2026-03-07', 'Market draft', '60.00', 'Checking', 'Food', false);
});

afterAll(async () => {
  await t.stop();
});

describe('GET /api/journal-entries?amount_min=&amount_max=', () => {
  it('when a range is given, then entries with a line inside it come, bounds included, in any currency', async () => {
    expect(await found('amount_min=50&amount_max=120.00')).toEqual(['Market draft', 'Ramen', 'Dinner', 'Market']);
    expect(await found('amount_min=49.99&amount_max=50')).toEqual(['Market', 'Groceries']);
  });

  it('when only one bound is given, then the range is open on the other side', async () => {
    expect(await found('amount_min=1000')).toEqual(['Rent March']);
    expect(await found('amount_max=5')).toEqual(['Coffee']);
  });

  it('when a bound has more decimals than a currency, then that currency keeps only its amounts inside the range', async () => {
    // 49.995 to 50.001: 50.00 USD only; no whole yen lies between them
    expect(await found('amount_min=49.995&amount_max=50.001')).toEqual(['Market']);
    expect(await found('amount_min=79.5&amount_max=80.5')).toEqual(['Ramen']);
  });

  it('when a range is combined with words, status and an account, then every condition holds', async () => {
    expect(await found('amount_min=40&amount_max=100&q=market')).toEqual(['Market draft', 'Market']);
    expect(await found('amount_min=40&amount_max=100&status=posted&q=market')).toEqual(['Market']);
    expect(await found(`amount_min=100&account_id=${ids.Rent}`)).toEqual(['Rent March']);
    expect(await found('amount_min=4&amount_max=5&q=4.20')).toEqual(['Coffee']);
    expect(await found('amount_min=100&start_date=2026-03-05&end_date=2026-03-05')).toEqual(['Rent March']);
  });

  it('when nothing lies in the range, then the page is empty', async () => {
    expect(await found('amount_min=200&amount_max=1000')).toEqual([]);
  });

  it('when a bound is not a plain decimal, is too long or the range is upside down, then it is refused and nothing changes', async () => {
    const before = await api.get('/api/journal-entries?per_page=100', token);
    for (const query of [
      'amount_min=-5',
      'amount_min=abc',
      'amount_max=1e3',
      'amount_max=1,000',
      'amount_min=',
      `amount_max=${'9'.repeat(33)}`,
      'amount_min=10&amount_max=9.99',
      'amount_min=5&amount_min=6',
      // one bound no amount beside one that is: the order of the two is not compared
      'amount_min=abc&amount_max=1.5',
      'amount_min=2&amount_max=file%3A%2F%2F%2Fetc%2Fpasswd',
    ]) {
      const res = await api.get(`/api/journal-entries?${query}`, token);
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe('VALIDATION_ERROR');
      expect(typeof res.body.detail).toBe('string');
    }
    const after = await api.get('/api/journal-entries?per_page=100', token);
    expect(after.body).toEqual(before.body);
  });
});
