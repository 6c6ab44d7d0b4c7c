import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBooks, type Books } from '../../../test/support/books.ts';
import { registerUser, startTestServer, type Api, type TestServer } from '../../../test/support/server.ts';

let t: TestServer;
let api: Api;
let token: string;
let books: Books;

const register = (account: string, query = '') => api.get(`/api/accounts/${ids[account]}/register${query}`, token);

let ids: Record<string, string>;
let voided: string;
let draft: string;

beforeAll(async () => {
  t = await startTestServer();
  api = t.api;
  ({ token } = await registerUser(api));
  books = await writeBooks(
    api,
    token,
    `
account Checking  ; type: ASSET
account Card      ; type: LIABILITY
account Opening   ; type: EQUITY
account Salary    ; type: INCOME
account Food      ; type: EXPENSE
account Rent      ; type: EXPENSE

2026-01-01 * Opening balance
    Checking    1000.00
    Opening

2026-01-05 * Pay
    Checking    3000.00
    Salary

2026-01-05 * Market
    Food          82.50
    Checking

; two lines on Checking in one entry: two register lines
2026-01-10 * Rent and food
    Rent        1200.00
    Food          20.00
    Checking   -1200.00
    Checking     -20.00

2026-01-12 * Card dinner
    Food          45.00
    Card

2026-01-20 * Card payment
    Card          45.00
    Checking

2026-01-15 * Duplicate  ; void: twice
    Food           9.99
    Checking

2026-01-25 ! Not yet
    Food           5.00
    Checking
`,
  );
  ids = books.accounts;
  voided = books.entries.Duplicate!;
  draft = books.entries['Not yet']!;
});

afterAll(async () => {
  await t.stop();
});

describe('GET /api/accounts/{id}/register (CONTRACT §15)', () => {
  it('when an account has posted, voided and draft entries, then its counted lines come newest first with signed amounts and the balance after each', async () => {
    const res = await register('Checking', '?per_page=100');
    expect(res.status).toBe(200);
    const balance = (await api.get(`/api/accounts/${ids.Checking}/balance`, token)).body.balance;
    expect(res.body.total).toBe(8);
    const rows = res.body.items as Record<string, any>[];
    expect(rows.map((r) => [r.entry_date, r.memo, r.amount, r.running_balance, r.status])).toEqual([
      // the reversal, dated today: after every entry here
      [expect.any(String), 'Void: Duplicate (twice)', '9.99', '2652.50', 'posted'],
      ['2026-01-20', 'Card payment', '-45.00', '2642.51', 'posted'],
      ['2026-01-15', 'Duplicate', '-9.99', '2687.51', 'void'],
      ['2026-01-10', 'Rent and food', '-20.00', '2697.50', 'posted'],
      ['2026-01-10', 'Rent and food', '-1200.00', '2717.50', 'posted'],
      ['2026-01-05', 'Market', '-82.50', '3917.50', 'posted'],
      ['2026-01-05', 'Pay', '3000.00', '4000.00', 'posted'],
      ['2026-01-01', 'Opening balance', '1000.00', '1000.00', 'posted'],
    ]);
    expect(rows[0]!.running_balance).toBe(balance);
    expect(rows.every((r) => r.currency === 'USD' && r.cleared === 'uncleared')).toBe(true);
    expect(rows.find((r) => r.memo === 'Market')!.counter_accounts).toEqual([{ id: ids.Food, name: 'Food' }]);
    expect(rows.find((r) => r.memo === 'Rent and food')!.counter_accounts).toEqual([
      { id: ids.Rent, name: 'Rent' },
      { id: ids.Food, name: 'Food' },
    ]);
    expect(rows.some((r) => r.entry_id === draft)).toBe(false);
    expect(rows.filter((r) => r.entry_id === voided)).toHaveLength(1);
  });

  it('when the register is read a page at a time, then the pages put together are the whole register, balances included', async () => {
    const whole = (await register('Checking', '?per_page=100')).body.items;
    for (const perPage of [1, 2, 3, 4, 5, 8]) {
      const pieces: unknown[] = [];
      for (let page = 1; pieces.length < whole.length; page++) {
        const res = await register('Checking', `?per_page=${perPage}&page=${page}`);
        expect(res.status).toBe(200);
        expect(res.body.total).toBe(whole.length);
        expect(res.body.items.length).toBeGreaterThan(0);
        pieces.push(...res.body.items);
      }
      expect(pieces).toEqual(whole);
    }
  });

  it('when each line is taken away from the balance after it, then the balance before the first line is zero', async () => {
    const rows = (await register('Checking', '?per_page=100')).body.items as {
      amount: string;
      running_balance: string;
    }[];
    const cents = (s: string) => BigInt(s.replace('.', ''));
    for (let i = 0; i < rows.length - 1; i++) {
      expect(cents(rows[i]!.running_balance) - cents(rows[i]!.amount)).toBe(cents(rows[i + 1]!.running_balance));
    }
    expect(cents(rows.at(-1)!.running_balance) - cents(rows.at(-1)!.amount)).toBe(0n);
  });

  it('when the account is credit-normal, then amounts and balances are signed its way', async () => {
    const rows = (await register('Card')).body.items;
    expect(rows.map((r: Record<string, string>) => [r.memo, r.amount, r.running_balance])).toEqual([
      ['Card payment', '-45.00', '0.00'],
      ['Card dinner', '45.00', '45.00'],
    ]);
  });

  it('when a date range is given, then only its lines come, each still with the account’s own running balance', async () => {
    const res = await register('Checking', '?start_date=2026-01-05&end_date=2026-01-10');
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(4);
    expect(res.body.items.map((r: Record<string, string>) => r.running_balance)).toEqual([
      '2697.50',
      '2717.50',
      '3917.50',
      '4000.00',
    ]);
  });

  it('when a draft is posted, then its lines join the register', async () => {
    const before = (await register('Checking')).body.total;
    expect((await api.post(`/api/journal-entries/${draft}/post`, undefined, token)).status).toBe(200);
    const after = await register('Checking', '?start_date=2026-01-25&end_date=2026-01-25');
    expect(after.body.items.map((r: Record<string, string>) => [r.memo, r.amount, r.running_balance])).toEqual([
      ['Not yet', '-5.00', '2637.51'],
    ]);
    expect((await register('Checking')).body.total).toBe(before + 1);
  });

  it('when a page lies past the end, then it is empty with the true total', async () => {
    const res = await register('Food', '?page=50&per_page=10');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ items: [], page: 50, per_page: 10 });
    expect(res.body.total).toBeGreaterThan(0);
  });

  it('when lines are cleared by hand and reconciled to a statement, then the register shows each line’s state', async () => {
    await writeBooks(
      api,
      token,
      `
account Savings  ; type: ASSET

2026-02-01 * Deposit
    Savings      500.00
    Opening

2026-02-03 * Interest
    Savings        1.25
    Salary

2026-02-05 * Transfer
    Checking      50.00
    Savings
`,
      books,
    );
    const lineOf = async (memo: string) =>
      ((await register('Savings')).body.items as Record<string, any>[]).find((r) => r.memo === memo)!.line_id as string;
    const clear = (memo: string) =>
      lineOf(memo).then((id) =>
        api.post(`/api/accounts/${ids.Savings}/cleared`, { line_ids: [id], cleared: true }, token),
      );
    expect((await clear('Deposit')).status).toBe(200);
    const done = await api.post(
      `/api/accounts/${ids.Savings}/reconcile`,
      { statement_date: '2026-02-02', statement_balance: '500.00' },
      token,
    );
    expect(done.status).toBe(201);
    expect((await clear('Interest')).status).toBe(200);
    const rows = (await register('Savings')).body.items as Record<string, any>[];
    expect(rows.map((r) => [r.memo, r.cleared])).toEqual([
      ['Transfer', 'uncleared'],
      ['Interest', 'cleared'],
      ['Deposit', 'reconciled'],
    ]);
  });

  it('when the account is unknown or another user’s, or the query is wrong, then it is refused and nothing is told', async () => {
    expect((await api.get(`/api/accounts/${crypto.randomUUID()}/register`, token)).status).toBe(404);
    expect((await api.get('/api/accounts/not-an-id/register', token)).status).toBe(404);
    const other = await registerUser(api);
    const foreign = await api.get(`/api/accounts/${ids.Checking}/register`, other.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    const backwards = await register('Checking', '?start_date=2026-02-01&end_date=2026-01-01');
    expect(backwards.status).toBe(400);
    expect(backwards.body.code).toBe('VALIDATION_ERROR');
    expect((await register('Checking', '?per_page=101')).status).toBe(400);
    expect((await register('Checking', '?status=posted')).status).toBe(400);
  });
});
