import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerFile, registerUser, startTestServer, type TestServer } from './support/server.ts';

/**
 * Issue 7: no query that serves a screen may read all of a user's lines. Every SQL statement the
 * server prepares while answering the screens' reads is caught, and SQLite's own plan for it must
 * not scan a big table (journal lines, entries, bank transactions): only index ranges and lookups.
 */

const BIG_TABLES = ['journal_lines', 'journal_entries', 'bank_transactions'];

/** Sorts that are bounded although SQLite cannot know it, each with the reason. */
const BOUNDED_SORTS: { sql: RegExp; why: string }[] = [
  {
    sql: /WHERE l\.account_id = \? AND l\.entry_date >= \? AND l\.entry_date <= \? .* ORDER BY l\.entry_date DESC, e\.created_at DESC, e\.seq DESC LIMIT/s,
    why: "a register page of one account: the dates are the page's span, found from the day counts, so the sort holds a page and at most a day's entries more",
  },
  {
    sql: /FROM bank_transactions t JOIN accounts a .* AND t\.date >= \? AND t\.date <= \? .* ORDER BY t\.date DESC, t\.seq DESC LIMIT/s,
    why: "a page of unmatched bank lines: the dates are the page's span, found from the unmatched counts (migration 0005)",
  },
  {
    sql: /FROM journal_lines l JOIN journal_entries e .* AND l\.entry_date >= \? AND l\.entry_date <= \? .* GROUP BY e\.id, l\.account_id ORDER BY e\.entry_date DESC, e\.seq DESC, l\.account_id LIMIT/s,
    why: "a page of unmatched entries: the dates are the page's span, found from the unmatched counts (migration 0005)",
  },
];

let t: TestServer;
let token: string;
let userId: string;
let bank: string;
let food: string;
let statementId: string;
/** SQL prepared on the user's ledger file while the screens were read */
const caught = new Set<string>();
const prepare = Database.prototype.prepare;

beforeAll(async () => {
  t = await startTestServer();
  const user = await registerUser(t.api);
  token = user.token;
  userId = user.id;
  bank = (await t.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, token)).body.id;
  food = (await t.api.post('/api/accounts', { name: 'Food', type: 'EXPENSE' }, token)).body.id;
  for (let i = 1; i <= 30; i++) {
    const amount = `${i}.25`;
    const day = String((i % 28) + 1).padStart(2, '0');
    const res = await t.api.post(
      '/api/journal-entries',
      {
        entry_date: `2026-0${(i % 3) + 1}-${day}`,
        memo: `Shop ${i}`,
        auto_post: true,
        lines: [
          { account_id: food, direction: 'DEBIT', amount },
          { account_id: bank, direction: 'CREDIT', amount },
        ],
      },
      token,
    );
    expect(res.status).toBe(201);
  }
  // another currency, an exchange into it and its rates: the converted reads below
  const euro = (await t.api.post('/api/accounts', { name: 'Euro', type: 'ASSET', currency: 'EUR' }, token)).body.id;
  const exchange = await t.api.post(
    '/api/journal-entries',
    {
      entry_date: '2026-02-10',
      auto_post: true,
      lines: [
        { account_id: euro, direction: 'DEBIT', amount: '100.00', cost: { amount: '108.50', currency: 'USD' } },
        { account_id: bank, direction: 'CREDIT', amount: '108.50' },
      ],
    },
    token,
  );
  expect(exchange.status).toBe(201);
  for (const [date, rate] of [
    ['2026-01-01', '1.08'],
    ['2026-02-01', '1.09'],
  ])
    expect((await t.api.post('/api/prices', { date, from: 'EUR', to: 'USD', rate }, token)).status).toBe(201);
  const transactions = Array.from({ length: 20 }, (_, i) => ({
    date: `2026-0${((i + 1) % 3) + 1}-${String(((i + 1) % 28) + 1).padStart(2, '0')}`,
    description: `SHOP ${i + 1}`,
    amount: `${i + 1}.25`,
    type: 'debit',
  }));
  transactions.push({ date: '2026-02-02', description: 'UNKNOWN', amount: '999.99', type: 'debit' });
  const statement = await t.api.post('/api/statements', { account_id: bank, name: 'February', transactions }, token);
  expect(statement.status).toBe(201);
  statementId = statement.body.id;
  expect((await t.api.post('/api/reconciliation/run', { statement_id: statementId }, token)).status).toBe(200);
  const file = ledgerFile(t.dataDir, userId);
  Database.prototype.prepare = function (this: Database.Database, sql: string) {
    if (this.name === file) caught.add(sql);
    return prepare.call(this, sql);
  } as typeof prepare;
});

afterAll(async () => {
  Database.prototype.prepare = prepare;
  await t.stop();
});

/**
 * The plan's steps that read a big table whole (`SCAN <table or its alias>`, with or without an
 * index), or sort everything a query reads from one (`USE TEMP B-TREE`), unless known bounded.
 */
function fullScans(db: Database.Database, sql: string): string[] {
  const names = new Map<string, string>();
  for (const table of BIG_TABLES) names.set(table, table);
  for (const m of sql.matchAll(new RegExp(`\\b(${BIG_TABLES.join('|')})\\s+(?:AS\\s+)?(\\w+)`, 'gi'))) {
    if (!/^(WHERE|ON|JOIN|LEFT|INNER|GROUP|ORDER|LIMIT|SET|VALUES|USING|WHEN)$/i.test(m[2]!)) names.set(m[2]!, m[1]!);
  }
  const explain = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const rows = explain.all(...new Array((sql.match(/\?/g) ?? []).length).fill(null)) as { detail: string }[];
  const details = rows.map((r) => r.detail);
  const readsBig = details.some((d) =>
    [...names.keys()].some((name) => new RegExp(`^(SCAN|SEARCH) ${name}\\b`).test(d)),
  );
  return details.filter((detail) => {
    const scan = /^SCAN (\w+)/.exec(detail);
    if (scan !== null && names.has(scan[1]!)) return true;
    return (
      readsBig && /^USE TEMP B-TREE/.test(detail) && !BOUNDED_SORTS.some((b) => b.sql.test(sql.replace(/\s+/g, ' ')))
    );
  });
}

describe('the queries behind the screens', () => {
  it('when every screen is read, then no query scans the lines, entries or bank transactions whole', async () => {
    const screens = [
      '/api/accounts',
      '/api/accounts/balances',
      '/api/accounts/balances?as_of=2026-02-15',
      `/api/accounts/${bank}/balance?as_of=2026-02-15`,
      '/api/reports/balance-sheet?as_of=2026-02-28',
      '/api/reports/income-statement?start_date=2026-01-01&end_date=2026-03-31',
      '/api/reports/net-worth?start_date=2026-01-01&end_date=2026-03-31&interval=month',
      '/api/reports/cash-flow?start_date=2026-01-01&end_date=2026-03-31&interval=month',
      '/api/journal-entries',
      '/api/journal-entries?page=2&per_page=10',
      `/api/journal-entries?account_id=${bank}&per_page=10&page=2`,
      '/api/journal-entries?start_date=2026-02-01&end_date=2026-02-28&per_page=5&page=2',
      '/api/statements',
      `/api/statements/${statementId}/transactions?per_page=5&page=2`,
      '/api/reconciliation/pending',
      '/api/reconciliation/stats',
      '/api/reconciliation/unmatched',
      '/api/reconciliation/unmatched?page=2&per_page=1',
      '/api/accounts/balances?as_of=2026-02-15&convert_to=USD',
      '/api/reports/trial-balance?as_of=2026-02-28&convert_to=EUR',
      '/api/reports/balance-sheet?as_of=2026-02-28&convert_to=USD',
      '/api/reports/income-statement?start_date=2026-01-01&end_date=2026-03-31&convert_to=EUR',
      '/api/reports/net-worth?start_date=2026-01-01&end_date=2026-03-31&interval=month&convert_to=USD',
      '/api/reports/cash-flow?start_date=2026-01-01&end_date=2026-03-31&interval=month&convert_to=USD',
      '/api/prices',
      '/api/prices?from=EUR&to=USD&page=2&per_page=1',
      '/api/prices/latest',
      '/api/settings',
    ];
    caught.clear();
    for (const screen of screens) expect((await t.api.get(screen, token)).status, screen).toBe(200);
    expect(caught.size).toBeGreaterThan(10);
    const db = new Database(ledgerFile(t.dataDir, userId), { readonly: true });
    try {
      const offenders = [...caught].flatMap((sql) =>
        fullScans(db, sql).map((step) => `${step}  <=  ${sql.replace(/\s+/g, ' ')}`),
      );
      expect(offenders).toEqual([]);
    } finally {
      db.close();
    }
  });
});
