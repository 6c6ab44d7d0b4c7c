import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localToday } from '../../domain/dates.ts';
import {
  databaseDigest,
  ledgerFile,
  registerUser,
  startTestServer,
  type Api,
  type TestServer,
} from '../../../test/support/server.ts';

let t: TestServer;
let api: Api;

beforeAll(async () => {
  t = await startTestServer();
  api = t.api;
});

afterAll(async () => {
  await t.stop();
});

/** A user with a small chart of accounts, and a helper to post entries on it. */
async function book() {
  const user = await registerUser(api);
  const ids: Record<string, string> = {};
  const mk = async (name: string, type: string, extra: Record<string, unknown> = {}) => {
    const res = await api.post('/api/accounts', { name, type, ...extra }, user.token);
    expect(res.status).toBe(201);
    ids[name] = res.body.id;
  };
  await mk('Checking', 'ASSET');
  await mk('Salary', 'INCOME');
  await mk('Food', 'EXPENSE');
  await mk('Groceries', 'EXPENSE', { parent_id: ids.Food });
  await mk('Dining out', 'EXPENSE', { parent_id: ids.Food });
  await mk('Rent', 'EXPENSE');
  await mk('Yen food', 'EXPENSE', { currency: 'JPY' });
  await mk('Yen wallet', 'ASSET', { currency: 'JPY' });
  const post = async (date: string, account: string, amount: string, options: { autoPost?: boolean } = {}) => {
    const from = account === 'Yen food' ? 'Yen wallet' : 'Checking';
    const income = account === 'Salary';
    const res = await api.post(
      '/api/journal-entries',
      {
        entry_date: date,
        memo: account,
        auto_post: options.autoPost ?? true,
        lines: [
          { account_id: ids[income ? from : account], direction: 'DEBIT', amount },
          { account_id: ids[income ? account : from], direction: 'CREDIT', amount },
        ],
      },
      user.token,
    );
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const get = (path: string) => api.get(path, user.token);
  const put = (path: string, body: unknown) => api.put(path, body, user.token);
  return { user, ids, post, get, put, file: ledgerFile(t.dataDir, user.id) };
}

const lineOf = (body: { lines: { name: string }[] }, name: string) => body.lines.find((l) => l.name === name);

describe('GET and PUT /api/budgets/{month}', () => {
  it('when a month was never budgeted, then GET answers 200 with no lines', async () => {
    const b = await book();
    const res = await b.get('/api/budgets/2026-03');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ month: '2026-03', lines: [], totals: [] });
  });

  it('when a month is budgeted, then actuals count the posted activity of the month with sub-accounts, and PUT answers what GET answers', async () => {
    const b = await book();
    await b.post('2026-03-02', 'Groceries', '120.40');
    await b.post('2026-03-09', 'Dining out', '45.10');
    await b.post('2026-03-15', 'Food', '10.00');
    await b.post('2026-02-27', 'Groceries', '99.00'); // another month
    await b.post('2026-03-20', 'Groceries', '500.00', { autoPost: false }); // a draft never counts
    await b.post('2026-03-01', 'Rent', '1200.00');
    await b.post('2026-03-05', 'Salary', '3000.00');
    await b.post('2026-03-06', 'Yen food', '1500');

    const put = await b.put('/api/budgets/2026-03', {
      lines: [
        { account_id: b.ids.Food, amount: '400' },
        { account_id: b.ids['Dining out'], amount: '60.00' },
        { account_id: b.ids.Rent, amount: '1200.00' },
        { account_id: b.ids.Salary, amount: '3200.00' },
        { account_id: b.ids['Yen food'], amount: '20000' },
      ],
    });
    expect(put.status).toBe(200);
    const get = await b.get('/api/budgets/2026-03');
    expect(get.status).toBe(200);
    expect(put.body).toEqual(get.body);
    expect(get.body.lines.map((l: { name: string }) => l.name)).toEqual([
      'Food',
      'Dining out',
      'Rent',
      'Yen food',
      'Salary',
    ]);
    expect(lineOf(get.body, 'Food')).toMatchObject({
      currency: 'USD',
      budgeted: '400.00',
      actual: '175.50',
      remaining: '224.50',
      carried_in: '0.00',
      available: '224.50',
    });
    expect(lineOf(get.body, 'Dining out')).toMatchObject({
      actual: '45.10',
      remaining: '14.90',
      parent_id: b.ids.Food,
    });
    expect(lineOf(get.body, 'Rent')).toMatchObject({ actual: '1200.00', remaining: '0.00' });
    expect(lineOf(get.body, 'Salary')).toMatchObject({ type: 'INCOME', actual: '3000.00', remaining: '200.00' });
    expect(lineOf(get.body, 'Yen food')).toMatchObject({ currency: 'JPY', budgeted: '20000', actual: '1500' });
    // Dining out is inside Food's budget: the totals count it once, in Food
    expect(get.body.totals).toEqual([
      { currency: 'JPY', type: 'EXPENSE', budgeted: '20000', actual: '1500', remaining: '18500', available: '18500' },
      {
        currency: 'USD',
        type: 'EXPENSE',
        budgeted: '1600.00',
        actual: '1375.50',
        remaining: '224.50',
        available: '224.50',
      },
      {
        currency: 'USD',
        type: 'INCOME',
        budgeted: '3200.00',
        actual: '3000.00',
        remaining: '200.00',
        available: '200.00',
      },
    ]);

    // PUT replaces the month whole
    const replaced = await b.put('/api/budgets/2026-03', { lines: [{ account_id: b.ids.Rent, amount: '0' }] });
    expect(replaced.status).toBe(200);
    expect(replaced.body.lines).toHaveLength(1);
    expect(replaced.body.lines[0]).toMatchObject({ name: 'Rent', budgeted: '0.00', remaining: '-1200.00' });
  });

  it('when an entry of the month is voided, then it and its reversal of the same month cancel', async () => {
    const b = await book();
    const today = localToday();
    const month = today.slice(0, 7);
    await b.post(today, 'Rent', '1000.00');
    const voided = await b.post(today, 'Rent', '900.00');
    expect((await api.post(`/api/journal-entries/${voided}/void`, {}, b.user.token)).status).toBe(200);
    const res = await b.put(`/api/budgets/${month}`, { lines: [{ account_id: b.ids.Rent, amount: '1000.00' }] });
    expect(lineOf(res.body, 'Rent')).toMatchObject({ actual: '1000.00', remaining: '0.00' });
  });

  it('when a line names an account that is not EXPENSE or INCOME, or none, then 400 INVALID_ACCOUNT and nothing changes', async () => {
    const b = await book();
    expect((await b.put('/api/budgets/2026-04', { lines: [{ account_id: b.ids.Rent, amount: '10.00' }] })).status).toBe(
      200,
    );
    const before = databaseDigest(b.file);
    for (const account_id of [b.ids.Checking, crypto.randomUUID()]) {
      const res = await b.put('/api/budgets/2026-04', {
        lines: [
          { account_id: b.ids.Food, amount: '10.00' },
          { account_id, amount: '10.00' },
        ],
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_ACCOUNT');
      expect(res.body.errors).toEqual([{ field: 'lines.1.account_id', message: expect.any(String) }]);
    }
    expect(databaseDigest(b.file)).toBe(before);
  });

  it('when the body or month is bad, then 400 VALIDATION_ERROR names the field and nothing changes', async () => {
    const b = await book();
    const before = databaseDigest(b.file);
    const cases: [string, unknown, string][] = [
      ['2026-04', { lines: [{ account_id: b.ids.Food, amount: '10.001' }] }, 'lines.0.amount'],
      ['2026-04', { lines: [{ account_id: b.ids['Yen food'], amount: '10.5' }] }, 'lines.0.amount'],
      ['2026-04', { lines: [{ account_id: b.ids.Food, amount: 10 }] }, 'lines.0.amount'],
      ['2026-04', { lines: [{ account_id: b.ids.Food, amount: '-1' }] }, 'lines.0.amount'],
      [
        '2026-04',
        {
          lines: [
            { account_id: b.ids.Food, amount: '1' },
            { account_id: b.ids.Food, amount: '2' },
          ],
        },
        'lines.1.account_id',
      ],
      ['2026-04', { lines: [], extra: 1 }, 'extra'],
      ['2026-13', { lines: [] }, 'month'],
      ['0000-01', { lines: [] }, 'month'],
      ['2026-4', { lines: [] }, 'month'],
    ];
    for (const [month, body, field] of cases) {
      const res = await b.put(`/api/budgets/${month}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await b.get('/api/budgets/2026-13')).status).toBe(400);
    expect(databaseDigest(b.file)).toBe(before);
  });

  it('when a budget amount is negative, then the answer says so for that line, not that it is malformed', async () => {
    const b = await book();
    const before = databaseDigest(b.file);
    const res = await b.put('/api/budgets/2026-04', {
      lines: [
        { account_id: b.ids.Food, amount: '100.00' },
        { account_id: b.ids.Groceries, amount: '-15.00' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'lines.1.amount', message: 'must not be negative' }]);
    expect(res.body.detail).toBe('Invalid body: lines.1.amount must not be negative');
    expect(databaseDigest(b.file)).toBe(before);
  });

  it('when lines carry over, then what each month left or overspent flows into the next while the run lasts', async () => {
    const b = await book();
    await b.post('2026-01-10', 'Groceries', '250.00');
    await b.post('2026-02-10', 'Groceries', '380.00');
    await b.post('2026-03-10', 'Groceries', '100.00');
    for (const month of ['2026-01', '2026-02', '2026-03'])
      expect(
        (
          await b.put(`/api/budgets/${month}`, {
            lines: [{ account_id: b.ids.Groceries, amount: '300.00', carry_over: true }],
          })
        ).status,
      ).toBe(200);
    expect(lineOf((await b.get('/api/budgets/2026-02')).body, 'Groceries')).toMatchObject({
      carried_in: '50.00',
      remaining: '-80.00',
      available: '-30.00',
    });
    const march = (await b.get('/api/budgets/2026-03')).body;
    expect(lineOf(march, 'Groceries')).toMatchObject({ carried_in: '-30.00', available: '170.00', carry_over: true });
    expect(march.totals[0]).toMatchObject({ available: '170.00', remaining: '200.00' });
    // February without carry-over breaks the run: March gets nothing
    await b.put('/api/budgets/2026-02', { lines: [{ account_id: b.ids.Groceries, amount: '300.00' }] });
    expect(lineOf((await b.get('/api/budgets/2026-03')).body, 'Groceries')).toMatchObject({ carried_in: '0.00' });
  });

  it('when a carry-over run is longer than a year, then every month of it counts', async () => {
    const b = await book();
    await b.post('2024-02-10', 'Groceries', '5.00');
    const months = Array.from(
      { length: 15 },
      (_, i) => `${2024 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`,
    );
    for (const month of months)
      await b.put(`/api/budgets/${month}`, {
        lines: [{ account_id: b.ids.Groceries, amount: '10.00', carry_over: true }],
      });
    await b.put('/api/budgets/2025-04', { lines: [{ account_id: b.ids.Groceries, amount: '10.00' }] });
    expect(lineOf((await b.get('/api/budgets/2025-04')).body, 'Groceries')).toMatchObject({
      carried_in: '145.00',
      available: '155.00',
    });
  });

  it('when an account with budget lines is deleted, then its lines go with it', async () => {
    const b = await book();
    const extra = (await api.post('/api/accounts', { name: 'Hobbies', type: 'EXPENSE' }, b.user.token)).body.id;
    await b.put('/api/budgets/2026-05', { lines: [{ account_id: extra, amount: '50.00' }] });
    expect((await api.delete(`/api/accounts/${extra}`, b.user.token)).status).toBe(204);
    expect((await b.get('/api/budgets/2026-05')).body.lines).toEqual([]);
  });
});

describe('POST /api/budgets/{month}/fill', () => {
  it("when filled from the previous month, then its lines and carry-over are copied and the month's other lines stay", async () => {
    const b = await book();
    await b.put('/api/budgets/2026-05', {
      lines: [
        { account_id: b.ids.Rent, amount: '1200.00' },
        { account_id: b.ids.Groceries, amount: '300.00', carry_over: true },
      ],
    });
    await b.put('/api/budgets/2026-06', {
      lines: [
        { account_id: b.ids.Rent, amount: '1.00' },
        { account_id: b.ids['Dining out'], amount: '80.00' },
      ],
    });
    const res = await api.post('/api/budgets/2026-06/fill', { from: 'previous_month' }, b.user.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual((await b.get('/api/budgets/2026-06')).body);
    expect(
      res.body.lines.map((l: { name: string; budgeted: string; carry_over: boolean }) => [
        l.name,
        l.budgeted,
        l.carry_over,
      ]),
    ).toEqual([
      ['Dining out', '80.00', false],
      ['Groceries', '300.00', true],
      ['Rent', '1200.00', false],
    ]);
  });

  it("when filled from the average of three months' actuals, then each account's own activity is averaged, half to even", async () => {
    const b = await book();
    await b.post('2026-01-05', 'Groceries', '100.00');
    await b.post('2026-02-05', 'Groceries', '100.00');
    await b.post('2026-03-05', 'Groceries', '100.01'); // 300.01 / 3 = 100.0033…
    await b.post('2026-02-07', 'Dining out', '0.05'); // 0.05 / 3 = 0.0166… → 0.02
    await b.post('2026-03-01', 'Salary', '3000.00');
    await b.post('2025-12-20', 'Rent', '5000.00'); // four months before: not counted
    const res = await api.post('/api/budgets/2026-04/fill', { from: 'average_actuals' }, b.user.token);
    expect(res.status).toBe(200);
    expect(res.body.lines.map((l: { name: string; budgeted: string }) => [l.name, l.budgeted])).toEqual([
      ['Dining out', '0.02'],
      ['Groceries', '100.00'],
      ['Salary', '1000.00'],
    ]);
  });

  it('when the source is empty, then 400 VALIDATION_ERROR and the month is unchanged', async () => {
    const b = await book();
    await b.put('/api/budgets/2026-08', { lines: [{ account_id: b.ids.Rent, amount: '5.00' }] });
    const before = databaseDigest(b.file);
    for (const from of ['previous_month', 'average_actuals']) {
      const res = await api.post('/api/budgets/2026-08/fill', { from }, b.user.token);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'from' }] });
    }
    expect((await api.post('/api/budgets/2026-08/fill', { from: 'everything' }, b.user.token)).status).toBe(400);
    expect(databaseDigest(b.file)).toBe(before);
  });
});

describe('GET /api/reports/budget-vs-actual', () => {
  it('when asked for a year, then every budgeted account has its twelve months and the totals count a sub-account once', async () => {
    const b = await book();
    await b.post('2026-01-10', 'Groceries', '80.00');
    await b.post('2026-02-10', 'Dining out', '30.00');
    await b.post('2026-02-11', 'Groceries', '20.00');
    await b.put('/api/budgets/2026-01', { lines: [{ account_id: b.ids.Food, amount: '100.00' }] });
    await b.put('/api/budgets/2026-02', {
      lines: [
        { account_id: b.ids.Food, amount: '100.00' },
        { account_id: b.ids.Groceries, amount: '40.00' },
      ],
    });
    const res = await b.get('/api/reports/budget-vs-actual?year=2026');
    expect(res.status).toBe(200);
    expect(res.body.start_month).toBe('2026-01');
    expect(res.body.end_month).toBe('2026-12');
    const food = res.body.rows.find((r: { name: string }) => r.name === 'Food');
    expect(food).toMatchObject({ budgeted: '200.00', actual: '130.00', remaining: '70.00' });
    expect(food.months).toHaveLength(12);
    expect(food.months[1]).toEqual({ month: '2026-02', budgeted: '100.00', actual: '50.00', remaining: '50.00' });
    expect(food.months[2]).toEqual({ month: '2026-03', budgeted: '0.00', actual: '0.00', remaining: '0.00' });
    const groceries = res.body.rows.find((r: { name: string }) => r.name === 'Groceries');
    expect(groceries).toMatchObject({ budgeted: '40.00', actual: '100.00', remaining: '-60.00' });
    expect(res.body.totals).toEqual([
      { currency: 'USD', type: 'EXPENSE', budgeted: '200.00', actual: '130.00', remaining: '70.00' },
    ]);
    const month = await b.get('/api/reports/budget-vs-actual?month=2026-02');
    expect(month.body.rows.map((r: { name: string; actual: string }) => [r.name, r.actual])).toEqual([
      ['Food', '50.00'],
      ['Groceries', '20.00'],
    ]);
    for (const bad of ['?year=2026&month=2026-01', '?year=26', '?month=2026-00', '?year=0000'])
      expect((await b.get(`/api/reports/budget-vs-actual${bad}`)).status, bad).toBe(400);
  });
});
