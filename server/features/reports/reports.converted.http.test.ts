import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOllama } from '../../../test/support/fake-ollama.ts';
import { writeBooks } from '../../../test/support/books.ts';
import { registerUser, startTestServer, type Api, type TestServer } from '../../../test/support/server.ts';

/**
 * Reports in one currency (CONTRACT §16). The books: 1000.00 USD opening; 100.00 EUR bought for
 * 108.50 USD on 2026-01-10 (an exchange); 50.00 EUR salary on 2026-01-20 and on 2026-02-05; 1000
 * JPY with no rate at all. EUR is worth 1.1 USD from 2026-01-01 and 1.2 from 2026-02-01.
 */

let t: TestServer;
let api: Api;
let token: string;
let ids: Record<string, string>;

beforeAll(async () => {
  // the advisor's model server is a port nothing listens on: the built-in advisor answers
  const closed = new FakeOllama();
  await closed.start();
  const url = closed.url;
  await closed.stop();
  t = await startTestServer({ env: { OLLAMA_HOST: url } });
  api = t.api;
  ({ token } = await registerUser(api));
  ids = (
    await writeBooks(
      api,
      token,
      `
account Checking      ; type: ASSET, currency: USD
account Euro account  ; type: ASSET, currency: EUR
account Yen wallet    ; type: ASSET, currency: JPY
account Opening       ; type: EQUITY, currency: USD
account Yen opening   ; type: EQUITY, currency: JPY
account Salary EUR    ; type: INCOME, currency: EUR

2026-01-01 * Opening
    Checking      1000.00
    Opening

2026-01-01 * Yen opening
    Yen wallet       1000
    Yen opening

2026-01-10 * Euros bought
    Euro account   100.00 EUR @@ 108.50 USD
    Checking

2026-01-20 * January pay
    Euro account    50.00
    Salary EUR

2026-02-05 * February pay
    Euro account    50.00
    Salary EUR

P 2026-01-01 EUR 1.1 USD
P 2026-02-01 EUR 1.2 USD
`,
    )
  ).accounts;
});

afterAll(async () => {
  await t.stop();
});

const jpyMissing = (date: string) => [{ from: 'JPY', to: 'USD', date }];

describe('convert_to on balances', () => {
  it('when balances are converted, then each has converted_balance at as_of, null where the rate is missing, which missing_rates names', async () => {
    const res = await api.get('/api/accounts/balances?as_of=2026-02-28&convert_to=USD', token);
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(
      res.body.balances.map((b: { name: string; converted_balance: string | null }) => [b.name, b.converted_balance]),
    );
    expect(byName).toMatchObject({
      Checking: '891.50',
      'Euro account': '240.00',
      'Yen wallet': null,
      'Salary EUR': '120.00',
      'Currency trading EUR': '120.00',
      'Currency trading USD': '-108.50',
    });
    expect(res.body.missing_rates).toEqual(jpyMissing('2026-02-28'));
    const plain = await api.get('/api/accounts/balances?as_of=2026-02-28', token);
    expect(plain.body.missing_rates).toBeUndefined();
    expect(plain.body.balances[0].converted_balance).toBeUndefined();
  });

  it('when only the opposite pair has prices, then the rate is its inverse, rounded once half to even', async () => {
    const res = await api.get('/api/accounts/balances?as_of=2026-02-28&convert_to=EUR', token);
    const checking = res.body.balances.find((b: { name: string }) => b.name === 'Checking');
    expect(checking.converted_balance).toBe('742.92'); // 891.50 / 1.2 = 742.9166…
    expect(res.body.missing_rates).toEqual([{ from: 'JPY', to: 'EUR', date: '2026-02-28' }]);
  });

  it('when a figure falls exactly half way, then it rounds to the even cent', async () => {
    expect(
      (await api.post('/api/prices', { date: '2026-03-01', from: 'EUR', to: 'USD', rate: '1.000025' }, token)).status,
    ).toBe(201);
    const res = await api.get('/api/accounts/balances?as_of=2026-03-01&convert_to=USD', token);
    const euro = res.body.balances.find((b: { name: string }) => b.name === 'Euro account');
    expect(euro.converted_balance).toBe('200.00'); // 200.005 -> 200.00
    const salary = res.body.balances.find((b: { name: string }) => b.name === 'Salary EUR');
    expect(salary.converted_balance).toBe('100.00'); // 100.0025 -> 100.00
  });
});

describe('convert_to on the reports of §12', () => {
  it('when the balance sheet is converted, then the exchange shows as unrealized gains and the sheet balances', async () => {
    const res = await api.get('/api/reports/balance-sheet?as_of=2026-02-28&convert_to=USD', token);
    expect(res.status).toBe(200);
    const c = res.body.converted;
    expect(c).toMatchObject({
      currency: 'USD',
      total_assets: '1131.50',
      total_liabilities: '0.00',
      total_equity: '1000.00',
      retained_earnings: '120.00',
      unrealized_gains: '11.50',
      net_worth: '1131.50',
    });
    // the trading accounts are the gains, not equity
    expect(c.equity.map((n: { name: string }) => n.name)).toEqual(['Opening']);
    expect(res.body.missing_rates).toEqual(jpyMissing('2026-02-28'));
    // per-currency groups are as they were
    expect(res.body.currencies.map((g: { currency: string }) => g.currency)).toEqual(['EUR', 'JPY', 'USD']);
  });

  it('when the trial balance is converted, then debits equal credits and every account with a rate has its row', async () => {
    const res = await api.get('/api/reports/trial-balance?as_of=2026-02-28&convert_to=USD', token);
    const c = res.body.converted;
    expect(c.total_debit).toBe('1240.00');
    expect(c.total_credit).toBe('1240.00');
    expect(c.rows.map((r: { name: string }) => r.name).sort()).toEqual(
      ['Checking', 'Currency trading EUR', 'Currency trading USD', 'Euro account', 'Opening', 'Salary EUR'].sort(),
    );
    for (const g of res.body.currencies) expect(g.total_debit).toBe(g.total_credit);
  });

  it('when the income statement is converted, then each entry counts at its own date', async () => {
    const res = await api.get(
      '/api/reports/income-statement?start_date=2026-01-01&end_date=2026-02-28&convert_to=USD',
      token,
    );
    // 50.00 at 1.1 (January) + 50.00 at 1.2 (February)
    expect(res.body.converted).toMatchObject({
      currency: 'USD',
      total_income: '115.00',
      total_expenses: '0.00',
      net_income: '115.00',
    });
    expect(res.body.converted.income[0]).toMatchObject({ name: 'Salary EUR', balance: '115.00', total: '115.00' });
    expect(res.body.missing_rates).toEqual([]);
  });

  it('when the net-worth series is converted, then each period end uses its own rate', async () => {
    const res = await api.get(
      '/api/reports/net-worth?start_date=2026-01-01&end_date=2026-02-28&interval=month&convert_to=USD',
      token,
    );
    expect(res.body.converted.series).toEqual([
      { date: '2026-01-31', assets: '1056.50', liabilities: '0.00', net_worth: '1056.50' },
      { date: '2026-02-28', assets: '1131.50', liabilities: '0.00', net_worth: '1131.50' },
    ]);
    expect(res.body.missing_rates).toEqual(jpyMissing('2026-01-31'));
  });

  it('when the cash flow is converted, then each day of money in and out counts at its rate', async () => {
    const res = await api.get(
      '/api/reports/cash-flow?start_date=2026-01-01&end_date=2026-02-28&interval=month&convert_to=USD',
      token,
    );
    const [jan, feb] = res.body.converted.periods;
    expect(jan).toMatchObject({ money_in: '1165.00', money_out: '108.50', net: '1056.50' });
    expect(feb).toMatchObject({ money_in: '60.00', money_out: '0.00', net: '60.00' });
    expect(res.body.converted).toMatchObject({ total_in: '1225.00', total_out: '108.50', net: '1116.50' });
  });

  it('when convert_to is not a currency code, then it is 400 VALIDATION_ERROR', async () => {
    for (const path of ['/api/reports/balance-sheet', '/api/reports/income-statement', '/api/accounts/balances']) {
      const res = await api.get(`${path}?convert_to=usd`, token);
      expect(res.status, path).toBe(400);
      expect(res.body.errors[0].field).toBe('convert_to');
    }
  });
});

describe('the advisor in the home currency', () => {
  it('when the books hold several currencies, then the built-in advisor adds net worth in the home currency and names the missing rate', async () => {
    expect((await api.put('/api/settings', { home_currency: 'USD' }, token)).status).toBe(200);
    const res = await api.post('/api/chat', { message: 'What is my net worth?' }, token);
    expect(res.status).toBe(200);
    // today: EUR at 1.000025 (2026-03-01): 891.50 + 200.005 = 1091.505, rounded once to the even cent
    expect(res.text).toContain('In your home currency: 1,091.50 USD (leaving out JPY: no exchange rate).');
    expect(res.text).toContain('Net worth (EUR): 200.00');
  });
});

describe('a series converted point by point', () => {
  it('when a currency gains a rate mid-series, then it is left out only of the points before, and a zero balance needs no rate', async () => {
    expect(
      (await api.post('/api/prices', { date: '2026-02-01', from: 'JPY', to: 'USD', rate: '0.0067' }, token)).status,
    ).toBe(201);
    const res = await api.get(
      '/api/reports/net-worth?start_date=2025-12-01&end_date=2026-02-28&interval=month&convert_to=USD',
      token,
    );
    expect(res.body.converted.series).toEqual([
      // nothing held yet: no rate needed, nothing missing
      { date: '2025-12-31', assets: '0.00', liabilities: '0.00', net_worth: '0.00' },
      // JPY has no rate yet: left out of this point
      { date: '2026-01-31', assets: '1056.50', liabilities: '0.00', net_worth: '1056.50' },
      // 1000 JPY at 0.0067 = 6.70 USD
      { date: '2026-02-28', assets: '1138.20', liabilities: '0.00', net_worth: '1138.20' },
    ]);
    expect(res.body.missing_rates).toEqual(jpyMissing('2026-01-31'));
  });
});

describe('rates looked up one by one, then read for the whole range', () => {
  it('when a series has more points than are looked up one by one, then every point has the rate of its own day', async () => {
    const res = await api.get(
      '/api/reports/net-worth?start_date=2026-01-01&end_date=2026-12-31&interval=month&convert_to=USD',
      token,
    );
    const worth = res.body.converted.series.map((p: { net_worth: string }) => p.net_worth);
    // January without JPY; February at 1.2; from March EUR at 1.000025: 891.50 + 200.005 + 6.70, half to even
    expect(worth).toEqual(['1056.50', '1138.20', ...Array(10).fill('1098.20')]);
  });
});
