import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBooks } from '../../../test/support/books.ts';
import { registerUser, startTestServer, type Api, type TestServer } from '../../../test/support/server.ts';

let t: TestServer;
let api: Api;
let token: string;
let ids: Record<string, string>;

beforeAll(async () => {
  t = await startTestServer();
  api = t.api;
  ({ token } = await registerUser(api));
  ids = (
    await writeBooks(
      api,
      token,
      `
account Assets            ; type: ASSET
account Checking          ; type: ASSET, parent: Assets
account Savings           ; type: ASSET, parent: Assets
account Card              ; type: LIABILITY
account Opening balances  ; type: EQUITY
account Salary            ; type: INCOME
account Food              ; type: EXPENSE
account Groceries         ; type: EXPENSE, parent: Food
account Rent              ; type: EXPENSE
account Yen wallet        ; type: ASSET, currency: JPY
account Yen food          ; type: EXPENSE, currency: JPY

2025-12-31 * Opening
    Checking          1000.00
    Opening balances

2026-01-05 * January pay
    Checking          3000.00
    Salary

2026-01-10 * Market
    Groceries          150.25
    Card

2026-01-15 * January rent
    Rent              1200.00
    Checking

2026-01-20 * To savings
    Savings            500.00
    Checking

2026-02-01 * Card payment
    Card               150.25
    Checking

2026-02-05 * February pay
    Checking          3000.00
    Salary

2026-02-12 * Lunch
    Food                20.00
    Checking

2026-02-14 * Rent typed twice  ; void: typo
    Rent                99.99
    Checking

2026-02-20 * Sushi
    Yen food             1200
    Yen wallet
`,
    )
  ).accounts;
});
afterAll(() => t.stop());

describe('trial balance', () => {
  it('when reading the trial balance, then each currency lists net debits and credits whose totals are equal', async () => {
    const res = await api.get('/api/reports/trial-balance?as_of=2026-01-31', token);
    expect(res.status).toBe(200);
    const usd = res.body.currencies.find((c: { currency: string }) => c.currency === 'USD');
    const rows = Object.fromEntries(
      usd.rows.map((r: { name: string; debit: string; credit: string }) => [r.name, `${r.debit}/${r.credit}`]),
    );
    expect(rows).toEqual({
      Card: '0.00/150.25',
      Checking: '2300.00/0.00',
      Groceries: '150.25/0.00',
      'Opening balances': '0.00/1000.00',
      Rent: '1200.00/0.00',
      Salary: '0.00/3000.00',
      Savings: '500.00/0.00',
    });
    expect(usd.total_debit).toBe('4150.25');
    expect(usd.total_credit).toBe('4150.25');
    const jpy = res.body.currencies.find((c: { currency: string }) => c.currency === 'JPY');
    expect(jpy).toEqual({ currency: 'JPY', rows: [], total_debit: '0', total_credit: '0' });
  });
});

describe('balance sheet', () => {
  it('when reading the balance sheet, then trees roll up and assets equal liabilities plus equity plus retained earnings', async () => {
    const res = await api.get('/api/reports/balance-sheet?as_of=2026-02-28', token);
    expect(res.status).toBe(200);
    const usd = res.body.currencies.find((c: { currency: string }) => c.currency === 'USD');
    expect(usd.assets).toEqual([
      {
        account_id: ids.Assets,
        name: 'Assets',
        type: 'ASSET',
        balance: '0.00',
        total: '5529.76',
        children: [
          {
            account_id: ids.Checking,
            name: 'Checking',
            type: 'ASSET',
            balance: '5029.76',
            total: '5029.76',
            children: [],
          },
          { account_id: ids.Savings, name: 'Savings', type: 'ASSET', balance: '500.00', total: '500.00', children: [] },
        ],
      },
    ]);
    expect(usd).toMatchObject({
      total_assets: '5529.76',
      total_liabilities: '0.00',
      total_equity: '1000.00',
      retained_earnings: '4529.76',
      net_worth: '5529.76',
    });
    const jpy = res.body.currencies.find((c: { currency: string }) => c.currency === 'JPY');
    expect(jpy).toMatchObject({ total_assets: '-1200', retained_earnings: '-1200', net_worth: '-1200' });
  });
});

describe('income statement', () => {
  it('when reading a period, then income and expense trees and net income cover only that period', async () => {
    const res = await api.get('/api/reports/income-statement?start_date=2026-02-01&end_date=2026-02-28', token);
    expect(res.status).toBe(200);
    const usd = res.body.currencies.find((c: { currency: string }) => c.currency === 'USD');
    expect(usd.total_income).toBe('3000.00');
    // the voided rent stays in February; its reversal is dated the day it was voided
    expect(usd.total_expenses).toBe('119.99');
    expect(usd.net_income).toBe('2880.01');
    const food = usd.expenses.find((n: { name: string }) => n.name === 'Food');
    expect(food).toMatchObject({
      balance: '20.00',
      total: '20.00',
      children: [{ name: 'Groceries', balance: '0.00', total: '0.00' }],
    });
    const jan = (await api.get('/api/reports/income-statement?start_date=2026-01-01&end_date=2026-01-31', token)).body;
    const janUsd = jan.currencies.find((c: { currency: string }) => c.currency === 'USD');
    expect(janUsd.expenses.find((n: { name: string }) => n.name === 'Food').total).toBe('150.25');
    expect(janUsd.net_income).toBe('1649.75');
    const throughReversal = (
      await api.get('/api/reports/income-statement?start_date=2026-01-01&end_date=2099-12-31', token)
    ).body;
    const allUsd = throughReversal.currencies.find((c: { currency: string }) => c.currency === 'USD');
    expect(allUsd.total_expenses).toBe('1370.25');
  });

  it('when start_date is after end_date, then it is 400 VALIDATION_ERROR', async () => {
    const res = await api.get('/api/reports/income-statement?start_date=2026-03-01&end_date=2026-02-01', token);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('net worth', () => {
  it('when asking for a monthly series, then each month end shows assets, liabilities and net worth', async () => {
    const res = await api.get('/api/reports/net-worth?start_date=2025-12-01&end_date=2026-02-15&interval=month', token);
    expect(res.status).toBe(200);
    const usd = res.body.currencies.find((c: { currency: string }) => c.currency === 'USD');
    expect(usd.series).toEqual([
      { date: '2025-12-31', assets: '1000.00', liabilities: '0.00', net_worth: '1000.00' },
      { date: '2026-01-31', assets: '2800.00', liabilities: '150.25', net_worth: '2649.75' },
      { date: '2026-02-15', assets: '5529.76', liabilities: '0.00', net_worth: '5529.76' },
    ]);
  });

  it('when asking for daily points, then there is one per day and the series agrees with balances', async () => {
    const res = await api.get('/api/reports/net-worth?start_date=2026-02-13&end_date=2026-02-16&interval=day', token);
    const usd = res.body.currencies.find((c: { currency: string }) => c.currency === 'USD');
    expect(usd.series.map((p: { date: string }) => p.date)).toEqual([
      '2026-02-13',
      '2026-02-14',
      '2026-02-15',
      '2026-02-16',
    ]);
    expect(usd.series[0].assets).toBe('5629.75');
    expect(usd.series[1].assets).toBe('5529.76');
  });

  it('when a daily series would be too long, then it is refused rather than computed', async () => {
    const res = await api.get('/api/reports/net-worth?start_date=1900-01-01&end_date=2026-01-01&interval=day', token);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect((await api.get('/api/reports/net-worth?interval=year', token)).body.code).toBe('VALIDATION_ERROR');
  });
});

describe('cash flow', () => {
  it('when reading cash flow by month, then money in and out of assets is split by counter account and transfers cancel', async () => {
    const res = await api.get('/api/reports/cash-flow?start_date=2026-01-01&end_date=2026-02-28&interval=month', token);
    expect(res.status).toBe(200);
    const usd = res.body.currencies.find((c: { currency: string }) => c.currency === 'USD');
    const [jan, feb] = usd.periods;
    expect(jan).toMatchObject({
      start_date: '2026-01-01',
      end_date: '2026-01-31',
      money_in: '3000.00',
      money_out: '1200.00',
      net: '1800.00',
    });
    expect(
      jan.by_account
        .map((a: { name: string; money_in: string; money_out: string }) => `${a.name} ${a.money_in}/${a.money_out}`)
        .sort(),
    ).toEqual(['Rent 0.00/1200.00', 'Salary 3000.00/0.00']);
    expect(feb).toMatchObject({ money_in: '3000.00', money_out: '270.24', net: '2729.76' });
    expect(
      feb.by_account
        .map((a: { name: string; money_in: string; money_out: string }) => `${a.name} ${a.money_in}/${a.money_out}`)
        .sort(),
    ).toEqual(['Card 0.00/150.25', 'Food 0.00/20.00', 'Rent 0.00/99.99', 'Salary 3000.00/0.00']);
    expect(usd).toMatchObject({ total_in: '6000.00', total_out: '1470.24', net: '4529.76' });
  });
});
