import fc from 'fast-check';
import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { Seed } from './support/seed.ts';
import { ReportsPage, type ShownRow, type ShownTable } from './pages/reports-page.ts';
import type { Api } from '../test/support/server.ts';

/**
 * The numbers a person reads on the Reports screen add up: every printed total is the sum of the
 * rows printed above it, and the balance sheet's assets equal its liabilities and equity, in the
 * home currency and in each currency, in English and Chinese, over random books (three currencies,
 * exchanges, rates, voids) drawn with a fixed seed. The sums are redone on the text of the screen.
 */

const DIGITS: Record<string, number> = { USD: 2, EUR: 2, JPY: 0 };

const now = new Date();
const pad = (n: number) => String(n).padStart(2, '0');
const thisMonth = `${now.getFullYear()}-${pad(now.getMonth() + 1)}`;
const lastMonthDate = new Date(now.getFullYear(), now.getMonth() - 1, 1);
const priceDay = `${lastMonthDate.getFullYear()}-${pad(lastMonthDate.getMonth() + 1)}-01`;
const day = (n: number) => `${thisMonth}-${pad(Math.min(n, now.getDate()))}`;

const PLAN = [
  ['Checking', 'ASSET', 'USD'],
  ['Savings', 'ASSET', 'EUR'],
  ['Wallet', 'ASSET', 'JPY'],
  ['Card', 'LIABILITY', 'USD'],
  ['Loan', 'LIABILITY', 'EUR'],
  ['Opening balances', 'EQUITY', 'USD'],
  ['Salary', 'INCOME', 'USD'],
  ['Interest', 'INCOME', 'EUR'],
  ['Food', 'EXPENSE', 'USD'],
  ['Travel', 'EXPENSE', 'EUR'],
  ['Noodles', 'EXPENSE', 'JPY'],
] as const;

const decimalOf = (n: number, currency: string) =>
  DIGITS[currency] === 0 ? String(n) : `${Math.floor(n / 100)}.${pad(n % 100)}`;

const bookArb = fc.record({
  entries: fc.array(
    fc
      .record({
        day: fc.integer({ min: 1, max: 28 }),
        debit: fc.nat(PLAN.length - 1),
        credit: fc.nat(PLAN.length - 1),
        amount: fc.integer({ min: 1, max: 900_000 }),
        cost: fc.integer({ min: 1, max: 900_000 }),
        voided: fc.boolean(),
      })
      .filter((e) => e.debit !== e.credit),
    { minLength: 6, maxLength: 12 },
  ),
  rates: fc.record({
    eurUsd: fc
      .integer({ min: 500, max: 2000 })
      .map((n) => `${Math.floor(n / 1000)}.${String(n % 1000).padStart(3, '0')}`),
    usdJpy: fc
      .integer({ min: 90_000, max: 160_000 })
      .map((n) => `${Math.floor(n / 1000)}.${String(n % 1000).padStart(3, '0')}`),
  }),
});

type Book = typeof bookArb extends fc.Arbitrary<infer T> ? T : never;

async function seedBook(api: Api, book: Book): Promise<Seed> {
  const seed = await Seed.user(api);
  const ids: string[] = [];
  for (const [name, type, currency] of PLAN) ids.push(await seed.account(name, type, currency));
  for (const [from, to, rate] of [
    ['EUR', 'USD', book.rates.eurUsd],
    ['USD', 'JPY', book.rates.usdJpy],
  ] as const) {
    const res = await api.post('/api/prices', { date: priceDay, from, to, rate }, seed.token);
    expect(res.status, res.text).toBe(201);
  }
  expect((await api.put('/api/settings', { home_currency: 'USD' }, seed.token)).status).toBe(200);
  for (const e of book.entries) {
    const [debit, credit] = [PLAN[e.debit]!, PLAN[e.credit]!];
    const amount = decimalOf(e.amount, debit[2]);
    const cost = debit[2] === credit[2] ? null : { amount: decimalOf(e.cost, credit[2]), currency: credit[2] };
    const res = await api.post(
      '/api/journal-entries',
      {
        entry_date: day(e.day),
        memo: 'random',
        auto_post: true,
        lines: [
          { account_id: ids[e.debit], direction: 'DEBIT', amount, ...(cost ? { cost } : {}) },
          { account_id: ids[e.credit], direction: 'CREDIT', amount: cost ? cost.amount : amount },
        ],
      },
      seed.token,
    );
    expect(res.status, res.text).toBe(201);
    if (e.voided) expect((await api.post(`/api/journal-entries/${res.body.id}/void`, {}, seed.token)).status).toBe(200);
  }
  return seed;
}

/** A figure as shown ("-1,234.56") in minor units of the table's currency, exactly. */
function minorOf(text: string, currency: string): bigint {
  const plain = text.replace(/[,\s]/g, '').replace('−', '-');
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(plain);
  if (!match) throw new Error(`not a figure: ${JSON.stringify(text)}`);
  expect((match[3] ?? '').length, `${text} in ${currency}`).toBe(DIGITS[currency]);
  const value = BigInt(match[2]! + (match[3] ?? ''));
  return match[1] === '-' ? -value : value;
}

const currencyOf = (table: ShownTable) => /(USD|EUR|JPY)/.exec(table.name)![1]!;

/** Checks one table: each section's total row is the sum of its top-level and derived rows, column by column. */
function checkSections(table: ShownTable): bigint[][] {
  const currency = currencyOf(table);
  const totals: bigint[][] = [];
  for (const section of table.sections) {
    const total = section.rows.find((r) => r.kind === 'total');
    const summed = section.rows.filter((r) => r.kind !== 'total' && r.depth === 0);
    if (!total || section.heading === null) continue;
    const sums = total.cells.map((_, c) => summed.reduce((s, r) => s + minorOf(r.cells[c]!, currency), 0n));
    expect(
      total.cells.map((c) => minorOf(c, currency)),
      `${table.name}, ${section.heading}: ${total.label} is the sum of the rows above it`,
    ).toEqual(sums);
    totals.push(sums);
  }
  return totals;
}

/** The last, unheaded section's rows by label. */
function closingRows(table: ShownTable): ShownRow[] {
  return table.sections.find((s) => s.heading === null)?.rows ?? [];
}

async function checkEveryReport(
  page: Page,
  tabs: Record<string, string>,
  labels: { totalLe: string; netWorth: string; netIncome: string },
) {
  for (const [kind, tab] of Object.entries(tabs)) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.locator('table.report-table').first()).toBeVisible();
    const tables = await new ReportsPage(page).tables();
    expect(tables.length, kind).toBeGreaterThan(0);
    for (const table of tables) {
      const currency = currencyOf(table);
      const m = (text: string) => minorOf(text, currency);
      if (kind === 'balance-sheet') {
        const sections = checkSections(table);
        expect(sections, `${table.name}: assets, liabilities and equity each have their total`).toHaveLength(3);
        const [assets, liabilities, equity] = sections.map((t) => t[0]!) as [bigint, bigint, bigint];
        const [totalLe, netWorth] = closingRows(table);
        expect(totalLe!.label).toBe(labels.totalLe);
        expect(m(totalLe!.cells[0]!), `${table.name}: liabilities and equity`).toBe(liabilities + equity);
        expect(m(totalLe!.cells[0]!), `${table.name}: assets = liabilities + equity`).toBe(assets);
        expect(netWorth!.label).toBe(labels.netWorth);
        expect(m(netWorth!.cells[0]!)).toBe(assets - liabilities);
      } else if (kind === 'income-statement') {
        const [income, expenses] = checkSections(table).map((t) => t[0] ?? 0n);
        const [net] = closingRows(table);
        expect(net!.label).toBe(labels.netIncome);
        if (income !== undefined && expenses !== undefined) expect(m(net!.cells[0]!)).toBe(income - expenses);
      } else if (kind === 'cash-flow') {
        checkSections(table);
        for (const row of table.sections[0]!.rows) expect(m(row.cells[2]!)).toBe(m(row.cells[0]!) - m(row.cells[1]!));
      } else {
        checkSections(table);
      }
    }
  }
}

/** What the screen says in each language: the Reports link, the report tabs, the rows checked by label. */
const LANGUAGES = [
  {
    code: 'en',
    nav: ['Main', 'Reports'],
    perCurrency: 'Per currency',
    tabs: {
      'balance-sheet': 'Balance sheet',
      'income-statement': 'Income statement',
      'cash-flow': 'Cash flow',
      'trial-balance': 'Trial balance',
    },
    labels: { totalLe: 'Total liabilities and equity', netWorth: 'Net worth', netIncome: 'Net income' },
  },
  {
    code: 'zh',
    nav: ['主导航', '报表'],
    perCurrency: '按币种',
    tabs: {
      'balance-sheet': '资产负债表',
      'income-statement': '利润表',
      'cash-flow': '现金流量',
      'trial-balance': '试算平衡表',
    },
    labels: { totalLe: '负债和权益合计', netWorth: '净资产', netIncome: '净收益' },
  },
] as const;

test('when random books of three currencies are reported, then every printed total is the sum of the rows above it and assets equal liabilities and equity, in English and Chinese', async ({
  app,
  page,
  ledger,
}) => {
  const books = fc.sample(bookArb, { numRuns: LANGUAGES.length, seed: 20261128 });
  for (const [i, language] of LANGUAGES.entries()) {
    const seed = await seedBook(ledger.api, books[i]!);
    await app.openSignedIn(seed);
    await app.chooseLanguage(language.code);
    await page.getByRole('navigation', { name: language.nav[0] }).getByRole('link', { name: language.nav[1] }).click();
    await checkEveryReport(page, language.tabs, language.labels);
    await page.getByRole('button', { name: language.perCurrency }).click();
    await checkEveryReport(page, language.tabs, language.labels);
    // back to English for the next book's sign-in
    if (language.code !== 'en') await app.chooseLanguage('en');
    await app.signOut();
  }
});
