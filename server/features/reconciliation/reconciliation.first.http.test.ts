import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerUser } from '../../../test/support/ledger-user.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

/** Finishing the first reconciliation: the opening balance and an adjustment for the difference, over HTTP. */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.stop();
});

const MARCH = [
  { date: '2026-03-02', description: 'TESCO STORES 3021', amount: '41.20', type: 'debit' as const },
  { date: '2026-03-05', description: 'ACME PAYROLL', amount: '2000.00', type: 'credit' as const },
];

/** A checking account whose March lines are booked and cleared, with no opening balance yet. */
async function firstMonth() {
  const u = await LedgerUser.open(t);
  const bank = await u.account('Checking', 'ASSET');
  const food = await u.account('Groceries', 'EXPENSE');
  const salary = await u.account('Salary', 'INCOME');
  const opening = await u.account('Opening balances', 'EQUITY');
  const s = await u.statement(bank, MARCH);
  const booked = await u.post('/api/reconciliation/unmatched/create-entries', {
    items: s.txns.map((x, i) => ({ bank_transaction_id: x.id, account_id: i === 1 ? salary : food })),
  });
  expect(booked.status).toBe(201);
  // the bank held 160.49 before March: 160.49 − 41.20 + 2000.00
  const difference = async () =>
    (await u.get(`/api/accounts/${bank}/reconcile?statement_date=2026-03-31&statement_balance=2119.29`)).body
      .difference;
  expect(await difference()).toBe('160.49');
  return { u, bank, food, salary, opening, difference };
}

describe('the opening balance (POST /api/accounts/:id/opening-balance)', () => {
  it('when it is set before the first line, then the difference is zero and the reconciliation finishes', async () => {
    const { u, bank, opening, difference } = await firstMonth();
    const res = await u.post(`/api/accounts/${bank}/opening-balance`, {
      entry_date: '2026-03-01',
      amount: '160.49',
      offset_account_id: opening,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ entry_date: '2026-03-01', memo: 'Opening balance', status: 'posted' });
    expect(res.body.lines).toEqual([
      expect.objectContaining({ account_id: bank, direction: 'DEBIT', amount: '160.49', cleared: 'cleared' }),
      expect.objectContaining({ account_id: opening, direction: 'CREDIT', amount: '160.49', cleared: 'uncleared' }),
    ]);
    expect(await difference()).toBe('0.00');
    const done = await u.post(`/api/accounts/${bank}/reconcile`, {
      statement_date: '2026-03-31',
      statement_balance: '2119.29',
    });
    expect(done.status, done.text).toBe(201);
    expect(done.body.line_count).toBe(3);
  });

  it('when a negative amount is set on a liability, then the line lowers its balance (a debit)', async () => {
    const u = await LedgerUser.open(t);
    const card = await u.account('Card', 'LIABILITY');
    const opening = await u.account('Opening balances', 'EQUITY');
    const res = await u.post(`/api/accounts/${card}/opening-balance`, {
      entry_date: '2026-01-01',
      amount: '-5.00',
      offset_account_id: opening,
      memo: 'Card credit',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.memo).toBe('Card credit');
    expect(res.body.lines[0]).toMatchObject({ account_id: card, direction: 'DEBIT', amount: '5.00' });
  });

  it('when one already exists, then 409 OPENING_BALANCE_EXISTS and nothing is booked', async () => {
    const { u, bank, opening } = await firstMonth();
    const body = { entry_date: '2026-02-01', amount: '160.49', offset_account_id: opening };
    expect((await u.post(`/api/accounts/${bank}/opening-balance`, body)).status).toBe(201);
    const before = u.digest();
    const again = await u.post(`/api/accounts/${bank}/opening-balance`, { ...body, entry_date: '2026-01-01' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'OPENING_BALANCE_EXISTS', detail: expect.stringContaining('Checking') });
    expect(u.digest()).toBe(before);
  });

  it('when it is dated on or after the first line, then 409 OPENING_BALANCE_AMBIGUOUS names the first date and nothing is booked', async () => {
    const { u, bank, opening } = await firstMonth();
    const before = u.digest();
    const res = await u.post(`/api/accounts/${bank}/opening-balance`, {
      entry_date: '2026-03-02',
      amount: '160.49',
      offset_account_id: opening,
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: 'OPENING_BALANCE_AMBIGUOUS',
      detail: expect.stringContaining('2026-03-02'),
    });
    expect(u.digest()).toBe(before);
  });

  it('when the other side is not equity, is the account itself, is missing or the amount is zero, then 400 names the field and nothing is booked', async () => {
    const { u, bank, food, opening } = await firstMonth();
    const before = u.digest();
    const cases: [Record<string, string>, string][] = [
      [{ offset_account_id: food }, 'offset_account_id'],
      [{ offset_account_id: bank }, 'offset_account_id'],
      [{ offset_account_id: '00000000-0000-4000-8000-000000000000' }, 'offset_account_id'],
      [{ amount: '0.00' }, 'amount'],
      [{ amount: '1.234' }, 'amount'],
    ];
    for (const [change, field] of cases) {
      const res = await u.post(`/api/accounts/${bank}/opening-balance`, {
        entry_date: '2026-02-01',
        amount: '160.49',
        offset_account_id: opening,
        ...change,
      });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect(u.digest()).toBe(before);
  });

  it('when the account is unknown, then 404', async () => {
    const { u, opening } = await firstMonth();
    const res = await u.post('/api/accounts/00000000-0000-4000-8000-000000000000/opening-balance', {
      entry_date: '2026-02-01',
      amount: '1.00',
      offset_account_id: opening,
    });
    expect(res.status).toBe(404);
  });
});

describe('an adjustment for the difference (POST /api/accounts/:id/reconcile-adjustment)', () => {
  it('when it is booked to the account picked, then the difference is zero and its line on the account is cleared', async () => {
    const { u, bank, food, difference } = await firstMonth();
    const res = await u.post(`/api/accounts/${bank}/reconcile-adjustment`, {
      entry_date: '2026-03-31',
      amount: '160.49',
      offset_account_id: food,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ memo: 'Reconciliation adjustment', status: 'posted' });
    expect(res.body.lines[0]).toMatchObject({ account_id: bank, direction: 'DEBIT', cleared: 'cleared' });
    expect(res.body.lines[1]).toMatchObject({ account_id: food, direction: 'CREDIT', amount: '160.49' });
    expect(await difference()).toBe('0.00');
  });

  it('when the other side is the account itself or the amount is not an amount, then 400 and nothing is booked', async () => {
    const { u, bank, food } = await firstMonth();
    const before = u.digest();
    const self = await u.post(`/api/accounts/${bank}/reconcile-adjustment`, {
      entry_date: '2026-03-31',
      amount: '1.00',
      offset_account_id: bank,
    });
    expect(self.status).toBe(400);
    const bad = await u.post(`/api/accounts/${bank}/reconcile-adjustment`, {
      entry_date: '2026-03-31',
      amount: 'ten',
      offset_account_id: food,
    });
    expect(bad.status).toBe(400);
    expect(u.digest()).toBe(before);
  });
});
