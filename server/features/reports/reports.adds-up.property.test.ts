import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerUser } from '../../../test/support/ledger-user.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

/**
 * Every report's totals are the sums of the figures printed above them, and the balance sheet
 * balances (assets = liabilities + equity, retained earnings and unrealised gains included), in
 * each currency and converted: over random books of several currencies, with exchanges, rates,
 * voids and securities bought and sold (held at market on the sheet), read through the HTTP API. The sums are redone here on the decimal strings, by the
 * definitions, with nothing of the server's code.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
});

const DIGITS: Record<string, number> = { USD: 2, EUR: 2, JPY: 0 };

/** A decimal string in a currency's minor units, exactly. */
function minor(text: string, currency: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not a decimal: ${text}`);
  const fraction = match[3] ?? '';
  expect(fraction.length, `${text} has ${currency}'s digits`).toBe(DIGITS[currency]);
  const value = BigInt(match[2]! + fraction);
  return match[1] === '-' ? -value : value;
}

interface Node {
  name: string;
  balance: string;
  total: string;
  children: Node[];
}

/** Each node's total is its own balance plus its children's totals; answers the roots' sum. */
function treeSum(roots: readonly Node[], currency: string): bigint {
  let sum = 0n;
  const stack = roots.map((node) => ({ node, root: true }));
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { node, root } = next;
    const below = node.children.reduce((s, c) => s + minor(c.total, currency), 0n);
    expect(minor(node.total, currency), `${node.name}: own balance plus its children`).toBe(
      minor(node.balance, currency) + below,
    );
    if (root) sum += minor(node.total, currency);
    for (const child of node.children) stack.push({ node: child, root: false });
  }
  return sum;
}

/** A report's groups as answered: one per currency, then the converted one. */
function groupsOf(report: { currencies: any[]; converted?: any }): any[] {
  return report.converted ? [...report.currencies, report.converted] : report.currencies;
}

async function checkReports(user: LedgerUser, asOf: string, start: string, convertTo: string | undefined) {
  const convert = convertTo ? `&convert_to=${convertTo}` : '';
  const get = async (path: string) => {
    const res = await user.get(path);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  for (const g of groupsOf(await get(`/api/reports/balance-sheet?as_of=${asOf}${convert}`))) {
    const m = (text: string) => minor(text, g.currency);
    const [assets, liabilities, equity] = [
      treeSum(g.assets, g.currency),
      treeSum(g.liabilities, g.currency),
      treeSum(g.equity, g.currency),
    ];
    expect(m(g.total_assets)).toBe(assets);
    expect(m(g.total_liabilities)).toBe(liabilities);
    expect(m(g.total_equity)).toBe(equity);
    const section = equity + m(g.retained_earnings) + (g.unrealized_gains === undefined ? 0n : m(g.unrealized_gains));
    expect(m(g.total_equity_and_earnings), `${g.currency}: total equity as printed`).toBe(section);
    expect(m(g.total_liabilities_and_equity)).toBe(liabilities + section);
    expect(m(g.total_liabilities_and_equity), `${g.currency}: assets = liabilities + equity`).toBe(assets);
    expect(m(g.net_worth)).toBe(assets - liabilities);
  }

  for (const g of groupsOf(await get(`/api/reports/income-statement?start_date=${start}&end_date=${asOf}${convert}`))) {
    const m = (text: string) => minor(text, g.currency);
    expect(m(g.total_income)).toBe(treeSum(g.income, g.currency));
    expect(m(g.total_expenses)).toBe(treeSum(g.expenses, g.currency));
    expect(m(g.net_income)).toBe(m(g.total_income) - m(g.total_expenses));
  }

  const trial = await get(`/api/reports/trial-balance?as_of=${asOf}${convert}`);
  for (const g of groupsOf(trial)) {
    const m = (text: string) => minor(text, g.currency);
    expect(m(g.total_debit)).toBe(g.rows.reduce((s: bigint, r: { debit: string }) => s + m(r.debit), 0n));
    expect(m(g.total_credit)).toBe(g.rows.reduce((s: bigint, r: { credit: string }) => s + m(r.credit), 0n));
  }
  // a posted ledger's trial balance is exactly zero in each currency
  for (const g of trial.currencies) expect(g.total_debit).toBe(g.total_credit);

  for (const g of groupsOf(
    await get(`/api/reports/cash-flow?start_date=${start}&end_date=${asOf}&interval=month${convert}`),
  )) {
    const m = (text: string) => minor(text, g.currency);
    const range = new Map<string, { in: bigint; out: bigint }>();
    let [totalIn, totalOut] = [0n, 0n];
    for (const p of g.periods) {
      let [moneyIn, moneyOut] = [0n, 0n];
      for (const a of p.by_account) {
        moneyIn += m(a.money_in);
        moneyOut += m(a.money_out);
        const r = range.get(a.account_id) ?? { in: 0n, out: 0n };
        range.set(a.account_id, { in: r.in + m(a.money_in), out: r.out + m(a.money_out) });
      }
      expect(m(p.money_in)).toBe(moneyIn);
      expect(m(p.money_out)).toBe(moneyOut);
      expect(m(p.net)).toBe(moneyIn - moneyOut);
      totalIn += moneyIn;
      totalOut += moneyOut;
    }
    expect(m(g.total_in)).toBe(totalIn);
    expect(m(g.total_out)).toBe(totalOut);
    expect(m(g.net)).toBe(totalIn - totalOut);
    expect(g.by_account.length).toBe(range.size);
    for (const a of g.by_account) {
      expect({ in: m(a.money_in), out: m(a.money_out) }).toEqual(range.get(a.account_id));
      expect(m(a.net)).toBe(m(a.money_in) - m(a.money_out));
    }
  }

  for (const g of groupsOf(
    await get(`/api/reports/net-worth?start_date=${start}&end_date=${asOf}&interval=month${convert}`),
  )) {
    const m = (text: string) => minor(text, g.currency);
    for (const p of g.series) expect(m(p.net_worth)).toBe(m(p.assets) - m(p.liabilities));
  }
}

const PLAN = [
  ['Checking', 'ASSET', 'USD', null],
  ['Savings', 'ASSET', 'EUR', null],
  ['Wallet', 'ASSET', 'JPY', null],
  ['Cash', 'ASSET', 'USD', 'Checking'],
  ['Card', 'LIABILITY', 'USD', null],
  ['Loan', 'LIABILITY', 'EUR', null],
  ['Opening balances', 'EQUITY', 'USD', null],
  ['Opening EUR', 'EQUITY', 'EUR', null],
  ['Salary', 'INCOME', 'USD', null],
  ['Interest', 'INCOME', 'EUR', null],
  ['Food', 'EXPENSE', 'USD', null],
  ['Dining', 'EXPENSE', 'USD', 'Food'],
  ['Travel', 'EXPENSE', 'EUR', null],
  ['Noodles', 'EXPENSE', 'JPY', null],
] as const;

const DAYS = ['2026-01-05', '2026-01-31', '2026-02-14', '2026-03-01', '2026-03-20'] as const;

const entryArb = fc
  .record({
    day: fc.constantFrom(...DAYS),
    debit: fc.nat(PLAN.length - 1),
    credit: fc.nat(PLAN.length - 1),
    seed: fc.integer({ min: 1, max: 500_000 }),
    costSeed: fc.integer({ min: 1, max: 500_000 }),
    voided: fc.boolean(),
  })
  .filter((e) => e.debit !== e.credit);

const priceArb = fc.record({
  day: fc.constantFrom('2025-12-31', ...DAYS),
  pair: fc.constantFrom(['EUR', 'USD'], ['USD', 'JPY'], ['EUR', 'JPY'], ['USD', 'EUR']),
  rate: fc
    .integer({ min: 1, max: 2_000_000 })
    .map((n) => `${Math.floor(n / 1000)}.${String(n % 1000).padStart(3, '0')}`),
});

/** A trade of VTI (priced in USD) in the Cash account, paid from Checking; a sale of more than is held is refused. */
const tradeArb = fc.record({
  day: fc.constantFrom(...DAYS),
  kind: fc.constantFrom('buy', 'sell'),
  units: fc.integer({ min: 1, max: 3000 }).map((n) => (n / 100).toString()),
  price: fc.integer({ min: 1000, max: 5_000_000 }).map((n) => (n / 1000).toString()),
});

const bookArb = fc.record({
  entries: fc.array(entryArb, { minLength: 1, maxLength: 14 }),
  trades: fc.array(tradeArb, { maxLength: 6 }),
  securityPrices: fc.array(fc.record({ day: fc.constantFrom(...DAYS), price: fc.integer({ min: 1, max: 900_000 }) }), {
    maxLength: 3,
  }),
  prices: fc.array(priceArb, { maxLength: 8 }),
  asOf: fc.constantFrom(...DAYS),
  convertTo: fc.constantFrom(undefined, 'USD', 'EUR', 'JPY'),
});

const decimalOf = (n: number, currency: string) =>
  DIGITS[currency] === 0 ? String(n) : `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`;

describe('every report adds up', () => {
  it('when any book of several currencies, exchanges, rates and voids is reported, then every total is the sum of its rows and the balance sheet balances', async () => {
    await fc.assert(
      fc.asyncProperty(bookArb, async (book) => {
        const user = await LedgerUser.open(server);
        const ids = new Map<string, string>();
        for (const [name, type, currency, parent] of PLAN) {
          const res = await user.post('/api/accounts', {
            name,
            type,
            currency,
            ...(parent ? { parent_id: ids.get(parent) } : {}),
          });
          expect(res.status, res.text).toBe(201);
          ids.set(name, res.body.id);
        }
        for (const p of book.prices) {
          const res = await user.post('/api/prices', {
            date: p.day,
            from: p.pair[0],
            to: p.pair[1],
            rate: p.rate === '0.000' ? '0.001' : p.rate,
          });
          expect([200, 201], res.text).toContain(res.status);
        }
        for (const e of book.entries) {
          const [debit, credit] = [PLAN[e.debit]!, PLAN[e.credit]!];
          const amount = decimalOf(e.seed, debit[2]);
          // an exchange when the two accounts hold different currencies: the debit line costs the credit
          const cost =
            debit[2] === credit[2] ? null : { amount: decimalOf(e.costSeed, credit[2]), currency: credit[2] };
          const res = await user.post('/api/journal-entries', {
            entry_date: e.day,
            memo: 'random',
            auto_post: true,
            lines: [
              { account_id: ids.get(debit[0]), direction: 'DEBIT', amount, ...(cost ? { cost } : {}) },
              { account_id: ids.get(credit[0]), direction: 'CREDIT', amount: cost ? cost.amount : amount },
            ],
          });
          expect(res.status, res.text).toBe(201);
          if (e.voided) {
            const voided = await user.post(`/api/journal-entries/${res.body.id}/void`, { reason: 'random' });
            expect(voided.status, voided.text).toBe(200);
          }
        }
        const vti = await user.post('/api/securities', { symbol: 'VTI', name: 'VTI', currency: 'USD' });
        expect(vti.status, vti.text).toBe(201);
        const settings = { booking_method: 'FIFO', short_term_account_id: ids.get('Salary') };
        expect((await user.put(`/api/investments/accounts/${ids.get('Cash')}`, settings)).status).toBe(200);
        for (const t of book.trades) {
          const res = await user.post('/api/investments/trades', {
            ...t,
            date: t.day,
            day: undefined,
            account_id: ids.get('Cash'),
            security_id: vti.body.id,
            cash_account_id: ids.get('Checking'),
          });
          expect(res.status === 201 || res.body.code === 'INSUFFICIENT_UNITS', res.text).toBe(true);
        }
        for (const p of book.securityPrices) {
          const res = await user.put(`/api/securities/${vti.body.id}/prices`, {
            date: p.day,
            price: (p.price / 100).toString(),
          });
          expect(res.status, res.text).toBe(200);
        }
        await checkReports(user, book.asOf, '2026-01-01', book.convertTo);
      }),
      { numRuns: 25 },
    );
  });
});
