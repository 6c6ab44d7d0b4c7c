import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBooks } from '../../../test/support/books.ts';
import { registerUser, startTestServer, type Api, type TestServer } from '../../../test/support/server.ts';

/**
 * The oracle: the entries written, as data, summed here in minor units by month, never through
 * the code under test. A positive amount is a debit; a voided entry counts on its own date (its
 * reversal is dated today, after every range asked for here); a draft never counts.
 */
const ACCOUNTS = {
  Checking: { type: 'ASSET', currency: 'USD' },
  Card: { type: 'LIABILITY', currency: 'USD' },
  Salary: { type: 'INCOME', currency: 'USD' },
  Refunds: { type: 'INCOME', currency: 'USD' },
  Food: { type: 'EXPENSE', currency: 'USD' },
  Groceries: { type: 'EXPENSE', currency: 'USD', parent: 'Food' },
  Rent: { type: 'EXPENSE', currency: 'USD' },
  'Euro account': { type: 'ASSET', currency: 'EUR' },
  'Euro fees': { type: 'EXPENSE', currency: 'EUR' },
  'Euro interest': { type: 'INCOME', currency: 'EUR' },
} as const;
type Name = keyof typeof ACCOUNTS;

interface Written {
  date: string;
  memo: string;
  status?: 'draft' | 'void';
  postings: [Name, string][];
}

const ENTRIES: Written[] = [
  {
    date: '2026-01-05',
    memo: 'January pay',
    postings: [
      ['Checking', '3000.00'],
      ['Salary', '-3000.00'],
    ],
  },
  {
    date: '2026-01-09',
    memo: 'Market',
    postings: [
      ['Groceries', '150.25'],
      ['Card', '-150.25'],
    ],
  },
  {
    date: '2026-01-15',
    memo: 'January rent',
    postings: [
      ['Rent', '1200.00'],
      ['Checking', '-1200.00'],
    ],
  },
  {
    date: '2026-01-20',
    memo: 'Café',
    postings: [
      ['Food', '12.40'],
      ['Checking', '-12.40'],
    ],
  },
  {
    date: '2026-02-05',
    memo: 'February pay',
    postings: [
      ['Checking', '3000.00'],
      ['Salary', '-3000.00'],
    ],
  },
  {
    date: '2026-02-11',
    memo: 'Returned shoes',
    postings: [
      ['Checking', '45.10'],
      ['Refunds', '-45.10'],
    ],
  },
  {
    date: '2026-02-14',
    memo: 'Rent typed twice',
    status: 'void',
    postings: [
      ['Rent', '99.99'],
      ['Checking', '-99.99'],
    ],
  },
  {
    date: '2026-02-20',
    memo: 'Refund of groceries',
    postings: [
      ['Card', '10.05'],
      ['Groceries', '-10.05'],
    ],
  },
  {
    date: '2026-02-21',
    memo: 'Not yet',
    status: 'draft',
    postings: [
      ['Rent', '500.00'],
      ['Checking', '-500.00'],
    ],
  },
  {
    date: '2026-03-03',
    memo: 'Bank fee',
    postings: [
      ['Euro fees', '4.20'],
      ['Euro account', '-4.20'],
    ],
  },
  {
    date: '2026-03-31',
    memo: 'Interest',
    postings: [
      ['Euro account', '0.60'],
      ['Euro interest', '-0.60'],
    ],
  },
  {
    date: '2026-04-05',
    memo: 'April pay',
    postings: [
      ['Checking', '3100.00'],
      ['Salary', '-3100.00'],
    ],
  },
  {
    date: '2026-04-25',
    memo: 'Late groceries',
    postings: [
      ['Groceries', '88.88'],
      ['Checking', '-88.88'],
    ],
  },
];

/** EUR at 1.50 USD from before the first entry, so that each converted figure is exact. */
const EUR_IN_USD = { date: '2025-12-01', rate: '1.50' };

function journal(): string {
  const accounts = Object.entries(ACCOUNTS).map(
    ([name, a]) =>
      `account ${name} ; type: ${a.type}, currency: ${a.currency}${'parent' in a ? `, parent: ${a.parent}` : ''}`,
  );
  const entries = ENTRIES.map((e) =>
    [
      `${e.date} ${e.status === 'draft' ? '!' : '*'} ${e.memo}${e.status === 'void' ? ' ; void: typed twice' : ''}`,
      ...e.postings.map(([name, amount]) => `    ${name}    ${amount}`),
    ].join('\n'),
  );
  return [`P ${EUR_IN_USD.date} EUR ${EUR_IN_USD.rate} USD`, ...accounts, '', ...entries].join('\n\n');
}

function cents(amount: string): bigint {
  const negative = amount.startsWith('-');
  const [whole, fraction = ''] = amount.replace('-', '').split('.');
  const value = BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0'));
  return negative ? -value : value;
}

function decimal(minor: bigint): string {
  const sign = minor < 0n ? '-' : '';
  const abs = minor < 0n ? -minor : minor;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/** Income and expenses in a currency (or, with `convert`, every currency in USD) over [start, end]. */
function expected(start: string, end: string, currency: string | 'USD-converted') {
  let [income, expenses] = [0n, 0n];
  for (const entry of ENTRIES) {
    if (entry.status === 'draft' || entry.date < start || entry.date > end) continue;
    for (const [name, amount] of entry.postings) {
      const account = ACCOUNTS[name];
      let value = cents(amount);
      if (currency === 'USD-converted') {
        // 1.50 times a whole number of cents: exact when doubled, halved back
        if (account.currency === 'EUR') value = (value * 3n) / 2n;
      } else if (account.currency !== currency) continue;
      if (account.type === 'INCOME') income -= value;
      if (account.type === 'EXPENSE') expenses += value;
    }
  }
  return { income: decimal(income), expenses: decimal(expenses), net: decimal(income - expenses) };
}

interface Period {
  start_date: string;
  end_date: string;
  income: string;
  expenses: string;
  net: string;
}

let t: TestServer;
let api: Api;
let token: string;

beforeAll(async () => {
  t = await startTestServer();
  api = t.api;
  ({ token } = await registerUser(api));
  await writeBooks(api, token, journal());
});
afterAll(() => t.stop());

describe('income and expenses by month', () => {
  it('when the series is read by month in each currency, then each month holds the sums of the entries written in it, and the totals their sums', async () => {
    const res = await api.get('/api/reports/income-expenses?start_date=2026-01-01&end_date=2026-04-30', token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ start_date: '2026-01-01', end_date: '2026-04-30', interval: 'month' });
    const months = [
      ['2026-01-01', '2026-01-31'],
      ['2026-02-01', '2026-02-28'],
      ['2026-03-01', '2026-03-31'],
      ['2026-04-01', '2026-04-30'],
    ] as const;
    for (const currency of ['EUR', 'USD']) {
      const group = res.body.currencies.find((c: { currency: string }) => c.currency === currency);
      expect(group.periods, currency).toEqual(
        months.map(([start, end]) => ({ start_date: start, end_date: end, ...expected(start, end, currency) })),
      );
      const whole = expected('2026-01-01', '2026-04-30', currency);
      expect(group, currency).toMatchObject({
        total_income: whole.income,
        total_expenses: whole.expenses,
        net_income: whole.net,
      });
    }
    expect(res.body.converted).toBeUndefined();
  });

  it('when the range starts and ends inside a month, then the first and last periods hold only their days', async () => {
    const res = await api.get('/api/reports/income-expenses?start_date=2026-01-10&end_date=2026-04-20', token);
    expect(res.status).toBe(200);
    const usd = res.body.currencies.find((c: { currency: string }) => c.currency === 'USD');
    expect(usd.periods.map((p: Period) => [p.start_date, p.end_date])).toEqual([
      ['2026-01-10', '2026-01-31'],
      ['2026-02-01', '2026-02-28'],
      ['2026-03-01', '2026-03-31'],
      ['2026-04-01', '2026-04-20'],
    ]);
    for (const p of usd.periods as Period[])
      expect(p, p.start_date).toEqual({ ...p, ...expected(p.start_date, p.end_date, 'USD') });
    // the groceries of January 9th and of April 25th are outside the range
    expect(usd.periods[0].expenses).toBe('1212.40');
    expect(usd.periods[3].expenses).toBe('0.00');
  });

  it('when the series is converted to the home currency, then each month is its entries at the rate of their day, and no rate is missing', async () => {
    const res = await api.get(
      '/api/reports/income-expenses?start_date=2026-01-01&end_date=2026-04-30&convert_to=USD',
      token,
    );
    expect(res.status).toBe(200);
    expect(res.body.missing_rates).toEqual([]);
    expect(res.body.converted.currency).toBe('USD');
    for (const p of res.body.converted.periods as Period[])
      expect(p, p.start_date).toEqual({ ...p, ...expected(p.start_date, p.end_date, 'USD-converted') });
    // March: 0.60 EUR interest and 4.20 EUR fees at 1.50
    expect(res.body.converted.periods[2]).toMatchObject({ income: '0.90', expenses: '6.30', net: '-5.40' });
    const whole = expected('2026-01-01', '2026-04-30', 'USD-converted');
    expect(res.body.converted).toMatchObject({
      total_income: whole.income,
      total_expenses: whole.expenses,
      net_income: whole.net,
    });
  });

  it("when each month is compared with that month's income statement, then their totals are the same figures", async () => {
    const series = await api.get('/api/reports/income-expenses?start_date=2026-01-01&end_date=2026-04-30', token);
    for (const p of series.body.currencies.find((c: { currency: string }) => c.currency === 'USD').periods) {
      const statement = await api.get(
        `/api/reports/income-statement?start_date=${p.start_date}&end_date=${p.end_date}`,
        token,
      );
      const usd = statement.body.currencies.find((c: { currency: string }) => c.currency === 'USD');
      expect([usd.total_income, usd.total_expenses, usd.net_income], p.start_date).toEqual([
        p.income,
        p.expenses,
        p.net,
      ]);
    }
  });

  it('when no range is given, then the series runs from the start of this year to today', async () => {
    const res = await api.get('/api/reports/income-expenses', token);
    expect(res.status).toBe(200);
    expect(res.body.start_date.endsWith('-01-01')).toBe(true);
    expect(res.body.start_date.slice(0, 4)).toBe(res.body.end_date.slice(0, 4));
    const usd = res.body.currencies.find((c: { currency: string }) => c.currency === 'USD');
    expect(usd.periods[0].start_date).toBe(res.body.start_date);
    expect(usd.periods.at(-1).end_date).toBe(res.body.end_date);
  });

  it.each([
    ['start after end', 'start_date=2026-03-01&end_date=2026-02-01', 'start_date'],
    ['a date that is no day', 'start_date=2026-02-30', 'start_date'],
    ['an interval there is none of', 'interval=year', 'interval'],
    ['a currency that is no code', 'convert_to=dollars', 'convert_to'],
    ['a parameter it does not take', 'account_id=1', undefined],
    ['more days than a series holds', 'start_date=2000-01-01&end_date=2026-01-01&interval=day', 'interval'],
  ])('when asked with %s, then it answers 400 VALIDATION_ERROR naming the field', async (_what, query, field) => {
    const res = await api.get(`/api/reports/income-expenses?${query}`, token);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(typeof res.body.detail).toBe('string');
    if (field) expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('when asked without signing in, then it answers 401', async () => {
    const res = await api.get('/api/reports/income-expenses');
    expect(res.status).toBe(401);
  });
});
