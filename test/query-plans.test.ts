import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerFile, registerUser, startTestServer, type TestServer } from './support/server.ts';
import { Stores } from '../server/db/stores.ts';
import { exportBooks } from '../server/features/export/export.service.ts';

/**
 * Issue 7: no query that serves a screen may read all of a user's lines. Every SQL statement the
 * server prepares while answering the screens' reads is caught, and SQLite's own plan for it must
 * not scan a big table (journal lines, entries, bank transactions): only index ranges and lookups.
 */

const BIG_TABLES = ['journal_lines', 'journal_entries', 'bank_transactions'];

/** Sorts that are bounded although SQLite cannot know it, each with the reason. */
const BOUNDED_SORTS: { sql: RegExp; why: string }[] = [
  {
    sql: /FROM change_log WHERE dataset = \? AND row_id = \? AND timestamp < \? ORDER BY timestamp DESC LIMIT 1/,
    why: "one row's changes before a time (the row's index range): as many as that row has had edits",
  },
  {
    sql: /FROM change_log WHERE write_ts = \? ORDER BY timestamp DESC/,
    why: 'the changes of one write (its index range), the rows that one write touched',
  },
  {
    sql: /WHERE l\.account_id = \? AND l\.entry_date >= \? AND l\.entry_date <= \? .* ORDER BY l\.entry_date DESC, e\.created_at DESC, e\.seq DESC LIMIT/s,
    why: "a register page of one account: the dates are the page's span, found from the day counts, so the sort holds a page and at most a day's entries more",
  },
  {
    sql: /WHERE l\.account_id = \? AND l\.entry_date >= \? AND l\.entry_date <= \? .* ORDER BY l\.entry_date DESC, e\.created_at DESC, e\.seq DESC, l\.line_no DESC LIMIT/s,
    why: "an account register's page of lines: the dates are the page's span, found from the line counts (migration register_and_search), so the sort holds a page and at most a day's lines more",
  },
  {
    sql: /FROM journal_entries e WHERE \(e\.id IN \(SELECT entry_id FROM journal_lines WHERE \(amount_minor = \? AND currency = \?\).* ORDER BY e\.entry_date DESC, e\.seq DESC LIMIT/s,
    why: 'a search for an amount: the entries with a line of that amount (its index) or the number in their memo (the memo index), sorted among themselves only',
  },
  {
    sql: /FROM journal_entries e WHERE \(e\.seq IN \(SELECT rowid & 4294967295 FROM entry_search WHERE entry_search MATCH \?\) OR e\.id IN \(SELECT entry_id FROM journal_lines WHERE account_id IN \(SELECT account_id FROM account_search WHERE account_search MATCH \?\).* ORDER BY e\.entry_date DESC, e\.seq DESC LIMIT/s,
    why: "a search for a word naming an account: the entries with the word in their text (the text index) or a line in such an account (the lines' account index, within the dates asked), sorted among themselves only",
  },
  {
    sql: /FROM journal_entries e WHERE \(e\.id IN \(SELECT entry_id FROM journal_lines WHERE \(amount_minor BETWEEN \? AND \? AND currency = \?\).* ORDER BY e\.entry_date DESC, e\.seq DESC LIMIT/s,
    why: 'an amount range alone: the entries with a line in the range (a range of the amount index), sorted among themselves only',
  },
  {
    sql: /FROM bank_transactions t JOIN accounts a .* AND t\.date >= \? AND t\.date <= \? .* ORDER BY t\.date DESC, t\.seq DESC LIMIT/s,
    why: "a page of unmatched bank lines: the dates are the page's span, found from the unmatched counts (migration 0005)",
  },
  {
    sql: /FROM bank_transactions t JOIN accounts a .* WHERE t\.statement_id = \? .* ORDER BY t\.date DESC, t\.seq DESC LIMIT/s,
    why: "a page of one statement's unmatched lines: the statement's own index range (bounded by the statement's size), read backwards",
  },
  {
    sql: /FROM journal_lines l JOIN journal_entries e .* AND l\.entry_date >= \? AND l\.entry_date <= \? .* GROUP BY e\.id, l\.account_id ORDER BY e\.entry_date DESC, e\.seq DESC, l\.account_id LIMIT/s,
    why: "a page of unmatched entries: the dates are the page's span, found from the unmatched counts (migration 0005)",
  },
  {
    sql: /FROM journal_lines l JOIN journal_entries e .* WHERE l\.account_id = \? AND l\.cleared <> 'reconciled' AND l\.entry_date >= \? AND l\.entry_date <= \? .* ORDER BY l\.entry_date DESC, e\.created_at DESC, e\.seq DESC, l\.line_no LIMIT/s,
    why: "a page of the lines left to reconcile: the dates are the page's span, found from the cleared day totals (the rules_and_cleared migration)",
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
/** statements prepared while budgets and schedules were written and read (their reads are prepared by the writes first) */
const caughtBudgets = new Set<string>();
let catchBudgets = false;
/** statements prepared while trades were booked and the holdings, lots and gains read */
const caughtInvestments = new Set<string>();
let catchInvestments = false;
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
  expect(
    (
      await t.api.post(
        '/api/rules',
        { name: 'Shops', description: { op: 'contains', value: 'shop' }, account_id: food },
        token,
      )
    ).status,
  ).toBe(201);
  const file = ledgerFile(t.dataDir, userId);
  Database.prototype.prepare = function (this: Database.Database, sql: string) {
    if (this.name === file) {
      caught.add(sql);
      if (catchBudgets) caughtBudgets.add(sql);
      if (catchInvestments) caughtInvestments.add(sql);
    }
    return prepare.call(this, sql);
  } as typeof prepare;
  catchBudgets = true;
  for (const month of ['2026-01', '2026-02', '2026-03']) {
    const budget = { lines: [{ account_id: food, amount: '100.00', carry_over: true }] };
    expect((await t.api.put(`/api/budgets/${month}`, budget, token)).status).toBe(200);
  }
  const lines = [
    { account_id: food, direction: 'DEBIT', amount: '9.99' },
    { account_id: bank, direction: 'CREDIT', amount: '9.99' },
  ];
  const schedule = { name: 'Streaming', frequency: 'monthly', start_date: '2026-01-31', auto_post: true, lines };
  expect((await t.api.post('/api/schedules', schedule, token)).status).toBe(201);
  expect((await t.api.post('/api/schedules/run', undefined, token)).status).toBe(200);
  catchBudgets = false;
});

afterAll(async () => {
  Database.prototype.prepare = prepare;
  await t.stop();
});

/**
 * The plan's steps that read a big table whole (`SCAN <table or its alias>`, with or without an
 * index), or sort everything a query reads from one (`USE TEMP B-TREE`), unless known bounded.
 */
function fullScans(db: Database.Database, sql: string, tables: readonly string[] = BIG_TABLES): string[] {
  const names = new Map<string, string>();
  for (const table of tables) names.set(table, table);
  for (const m of sql.matchAll(new RegExp(`\\b(${tables.join('|')})\\s+(?:AS\\s+)?(\\w+)`, 'gi'))) {
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
      '/api/reports/income-expenses?start_date=2025-12-15&end_date=2026-03-20',
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
      `/api/reconciliation/unmatched?statement_id=${statementId}&per_page=1&page=2`,
      '/api/reconciliation/matches?status=auto_accepted',
      `/api/reconciliation/matches?status=accepted&statement_id=${statementId}`,
      `/api/statements/${statementId}`,
      '/api/rules',
      `/api/accounts/${bank}/reconcile?statement_date=2026-03-31&statement_balance=0`,
      `/api/accounts/${bank}/reconciliations`,
      `/api/accounts/${bank}/unreconciled-lines?statement_date=2026-03-31`,
      `/api/accounts/${bank}/unreconciled-lines?statement_date=2026-02-15&per_page=3&page=2`,
      `/api/accounts/${bank}/register`,
      `/api/accounts/${bank}/register?page=3&per_page=4`,
      `/api/accounts/${bank}/register?start_date=2026-02-01&end_date=2026-02-28&per_page=3&page=2`,
      `/api/accounts/${bank}/register?start_date=2026-01-15&end_date=2026-03-10&per_page=3&page=4`,
      `/api/journal-entries?account_id=${food}&status=posted&start_date=2026-01-15&end_date=2026-03-10&per_page=3&page=3`,
      '/api/journal-entries?status=posted&start_date=2026-01-15&per_page=4&page=3',
      '/api/journal-entries?q=shop&per_page=4&page=2&end_date=2026-02-20',
      '/api/journal-entries?q=shop',
      `/api/journal-entries?q=shop%2012&status=posted&account_id=${bank}&start_date=2026-01-01&end_date=2026-02-28&page=2&per_page=3`,
      '/api/journal-entries?q=5.25',
      '/api/journal-entries?amount_min=5&amount_max=6.25',
      `/api/journal-entries?amount_min=5&status=posted&account_id=${food}&start_date=2026-01-01&per_page=5&page=2`,
      '/api/journal-entries?q=shop&amount_max=12.25',
      // a bank line's description (the run matched SHOP n to Shop n), an account's name and path
      '/api/journal-entries?q=SHOP%203&status=posted',
      '/api/journal-entries?q=food',
      '/api/journal-entries?q=Expenses%3AFood&start_date=2026-02-01&end_date=2026-02-28&per_page=3&page=2',
      `/api/journal-entries?q=shop%20food%20bank&account_id=${bank}&per_page=3&page=2`,
      '/api/journal-entries?q=food%205.25&end_date=2026-03-31',
      `/api/journal-entries?q=5.25%2012.25&source_type=manual&account_id=${food}&start_date=2026-01-01&end_date=2026-03-31&per_page=5&page=2`,
      '/api/accounts/balances?as_of=2026-02-15&convert_to=USD',
      '/api/reports/trial-balance?as_of=2026-02-28&convert_to=EUR',
      '/api/reports/balance-sheet?as_of=2026-02-28&convert_to=USD',
      '/api/reports/income-statement?start_date=2026-01-01&end_date=2026-03-31&convert_to=EUR',
      '/api/reports/net-worth?start_date=2026-01-01&end_date=2026-03-31&interval=month&convert_to=USD',
      '/api/reports/cash-flow?start_date=2026-01-01&end_date=2026-03-31&interval=month&convert_to=USD',
      '/api/reports/income-expenses?start_date=2026-01-01&end_date=2026-03-31&convert_to=USD',
      '/api/prices',
      '/api/prices?from=EUR&to=USD&page=2&per_page=1',
      '/api/prices/latest',
      '/api/prices/convert?amount=10.00&from=EUR&to=USD&date=2026-02-15',
      '/api/settings',
    ];
    caught.clear();
    for (const screen of screens) expect((await t.api.get(screen, token)).status, screen).toBe(200);
    expect(caught.size).toBeGreaterThan(10);
    // the unmatched list looks for each line's transfer (the other side's index of amounts and dates)
    expect([...caught].some((sql) => /t\.amount_minor = \? AND t\.date >= \?/.test(sql))).toBe(true);
    const db = new Database(ledgerFile(t.dataDir, userId), { readonly: true });
    try {
      const offenders = [...caught].flatMap((sql) =>
        fullScans(db, sql).map((step) => `${step}  <=  ${sql.replace(/\s+/g, ' ')}`),
      );
      expect(offenders).toEqual([]);
      // a page is found from the month counts, then one month's day counts (migration month_counts):
      // an account's are a range of its own rows, never every account's
      const plans = (sql: string) =>
        (
          db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...new Array((sql.match(/\?/g) ?? []).length).fill(null)) as {
            detail: string;
          }[]
        ).map((r) => r.detail);
      // (the plans asked for here are prepared on the same file: left out)
      const read = [...caught].filter((sql) => !sql.startsWith('EXPLAIN'));
      for (const table of ['account_month_lines', 'account_month_counts', 'journal_month_counts']) {
        expect(
          read.filter((sql) => sql.includes(`FROM ${table}`)),
          table,
        ).not.toEqual([]);
      }
      const accountCounts = read.filter((sql) =>
        /FROM account_(day|month)_(lines|counts) WHERE account_id = \?/.test(sql),
      );
      expect(accountCounts.length).toBeGreaterThanOrEqual(4);
      for (const sql of accountCounts) {
        expect(
          plans(sql).filter((d) => /^SCAN /.test(d)),
          sql,
        ).toEqual([]);
        expect(
          plans(sql).some((d) => /^SEARCH account_\w+ USING PRIMARY KEY \(account_id=\?/.test(d)),
          sql,
        ).toBe(true);
      }
      // a word search without other filters: the memo index alone gives the page's keys and the
      // count, and only the page's entries are read, by their sequence number
      const wordsOnly = read.filter((sql) => /^SELECT .* FROM entry_search WHERE entry_search MATCH \?/s.test(sql));
      expect(wordsOnly.length).toBeGreaterThanOrEqual(1);
      const bySeq = read.filter((sql) => /FROM journal_entries WHERE seq IN \(/.test(sql));
      expect(bySeq.length).toBeGreaterThanOrEqual(1);
      for (const sql of bySeq)
        expect(plans(sql).join('\n'), sql).toMatch(/^SEARCH journal_entries USING INDEX \w+ \(seq=\?\)$/m);
      // a search checks each entry it finds against its own lines, never along an index of all lines
      // an amount range alone: its lines are a range of the amount index
      const ranges = read.filter((sql) => /SELECT entry_id FROM journal_lines WHERE \(amount_minor BETWEEN/.test(sql));
      expect(ranges.length).toBeGreaterThanOrEqual(1);
      for (const sql of ranges)
        expect(plans(sql).join('\n'), sql).toMatch(
          /SEARCH journal_lines USING (COVERING )?INDEX journal_lines_by_amount \(amount_minor>\? AND amount_minor<\?\)/,
        );
      // a word naming an account drives by the lines of its accounts: a range of the account index
      const byAccount = read.filter((sql) =>
        /e\.id IN \(SELECT entry_id FROM journal_lines WHERE account_id IN \(SELECT account_id FROM account_search/.test(
          sql,
        ),
      );
      expect(byAccount.length).toBeGreaterThanOrEqual(2);
      for (const sql of byAccount)
        expect(plans(sql).join('\n'), sql).toMatch(
          /SEARCH journal_lines USING COVERING INDEX journal_lines_by_account \(account_id=\?( AND entry_date>\?)?( AND entry_date<\?)?\)$/m,
        );
      const perEntry = [...caught].filter((sql) => /^SELECT.*FROM journal_lines (am|al|ar|an) WHERE/s.test(sql));
      expect(perEntry.length).toBeGreaterThan(0);
      const lookups = perEntry.flatMap((sql) =>
        (
          db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...new Array((sql.match(/\?/g) ?? []).length).fill(null)) as {
            detail: string;
          }[]
        )
          .map((r) => r.detail)
          .filter((d) => /^SEARCH (am|al|ar|an)\b/.test(d)),
      );
      expect(lookups.length).toBeGreaterThan(0);
      expect(
        lookups.filter((d) => !/\((entry_id=\?|account_id=\? AND entry_date=\? AND entry_id=\?)\)$/.test(d)),
      ).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('when budgets, the budget report and schedules are read, then no query scans the lines, the month totals, budgets or occurrences whole', async () => {
    const screens = [
      '/api/budgets/2026-03',
      '/api/budgets/2026-04',
      '/api/reports/budget-vs-actual?year=2026',
      '/api/reports/budget-vs-actual?month=2026-02',
      '/api/schedules',
      '/api/schedules/upcoming',
    ];
    catchBudgets = true;
    for (const screen of screens) expect((await t.api.get(screen, token)).status, screen).toBe(200);
    catchBudgets = false;
    const reads = [...caughtBudgets].filter((sql) => /^\s*SELECT/i.test(sql));
    expect(reads.filter((sql) => /budget_lines|schedule/.test(sql)).length).toBeGreaterThan(5);
    const tables = [...BIG_TABLES, 'account_month_totals', 'budget_lines', 'schedule_occurrences'];
    const db = new Database(ledgerFile(t.dataDir, userId), { readonly: true });
    try {
      const offenders = reads.flatMap((sql) =>
        fullScans(db, sql, tables).map((step) => `${step}  <=  ${sql.replace(/\s+/g, ' ')}`),
      );
      expect(offenders).toEqual([]);
    } finally {
      db.close();
    }
  });
});

describe('the queries of the change log', () => {
  it('when entries are written, the history read page by page, a change undone and the sync status read, then no query scans the change log or the lines whole', async () => {
    const api = t.api;
    const file = ledgerFile(t.dataDir, userId);
    const seen = new Set<string>();
    const before = Database.prototype.prepare;
    Database.prototype.prepare = function (this: Database.Database, sql: string) {
      if (this.name === file) seen.add(sql);
      return before.call(this, sql);
    } as typeof prepare;
    try {
      const lines = [
        { account_id: food, direction: 'DEBIT', amount: '3.00' },
        { account_id: bank, direction: 'CREDIT', amount: '3.00' },
      ];
      expect((await api.post('/api/journal-entries', { entry_date: '2026-03-03', lines }, token)).status).toBe(201);
      const first = await api.get('/api/history?limit=10', token);
      expect(first.status).toBe(200);
      expect(
        (await api.get(`/api/history?limit=10&before=${encodeURIComponent(first.body.next_before)}`, token)).status,
      ).toBe(200);
      expect((await api.post('/api/history/undo', {}, token)).status).toBe(200);
      expect((await api.get('/api/sync/status', token)).status).toBe(200);
    } finally {
      Database.prototype.prepare = before;
    }
    const reads = [...seen].filter((sql) => /^\s*SELECT/i.test(sql) && /change_log/.test(sql));
    expect(reads.length).toBeGreaterThan(4);
    const db = new Database(ledgerFile(t.dataDir, userId), { readonly: true });
    try {
      const offenders = reads.flatMap((sql) =>
        fullScans(db, sql, [...BIG_TABLES, 'change_log']).map((step) => `${step}  <=  ${sql.replace(/\s+/g, ' ')}`),
      );
      expect(offenders).toEqual([]);
    } finally {
      db.close();
    }
  });
});

describe('the queries of investments', () => {
  it('when trades are booked and the holdings (now and as of a date), lots and gains read, then no query scans the lines, trades, lots, reductions or prices whole', async () => {
    const api = t.api;
    const broker = (await api.post('/api/accounts', { name: 'Broker', type: 'ASSET' }, token)).body.id;
    const gains = (await api.post('/api/accounts', { name: 'Gains', type: 'INCOME' }, token)).body.id;
    catchInvestments = true;
    const security = (await api.post('/api/securities', { symbol: 'VTI', name: 'VTI', currency: 'USD' }, token)).body
      .id;
    await api.put(
      `/api/investments/accounts/${broker}`,
      { booking_method: 'FIFO', short_term_account_id: gains },
      token,
    );
    const base = { account_id: broker, security_id: security, cash_account_id: bank };
    for (const [date, units, price] of [
      ['2026-01-05', '10', '200'],
      ['2026-02-05', '5', '210'],
    ])
      expect(
        (await api.post('/api/investments/trades', { kind: 'buy', date, units, price, ...base }, token)).status,
      ).toBe(201);
    const sale = { kind: 'sell', date: '2026-03-05', units: '12', price: '220', ...base };
    expect((await api.post('/api/investments/trades/preview', sale, token)).status).toBe(200);
    expect((await api.post('/api/investments/trades', sale, token)).status).toBe(201);
    const screens = [
      '/api/securities',
      '/api/investments/holdings',
      '/api/investments/holdings?as_of=2026-02-10',
      `/api/investments/holdings/${broker}/${security}/lots`,
      '/api/investments/gains?from=2026-01-01&to=2026-12-31',
      `/api/investments/accounts/${broker}`,
    ];
    for (const screen of screens) expect((await api.get(screen, token)).status, screen).toBe(200);
    catchInvestments = false;
    const reads = [...caughtInvestments].filter((sql) => /^\s*SELECT/i.test(sql));
    expect(
      reads.filter((sql) => /trades|lots|lot_reductions|security_prices|holdings/.test(sql)).length,
    ).toBeGreaterThan(5);
    const tables = [...BIG_TABLES, 'trades', 'lots', 'lot_reductions', 'security_prices'];
    const db = new Database(ledgerFile(t.dataDir, userId), { readonly: true });
    try {
      const offenders = reads.flatMap((sql) =>
        fullScans(db, sql, tables).map((step) => `${step}  <=  ${sql.replace(/\s+/g, ' ')}`),
      );
      expect(offenders).toEqual([]);
      // the holdings as of a date: each of its sums a range of an index that holds what it sums
      const asOf = reads.filter((sql) => /SUM\(t\.units_delta_atoms\)/.test(sql));
      expect(asOf).toHaveLength(1);
      const steps = (db.prepare(`EXPLAIN QUERY PLAN ${asOf[0]!}`).all(null, null, null) as { detail: string }[])
        .map((r) => r.detail)
        .filter((d) => /\bt\b/.test(d));
      expect(steps).toHaveLength(3);
      for (const step of steps) expect(step).toMatch(/^SEARCH t USING COVERING INDEX trades_holding_sums/);
    } finally {
      db.close();
    }
  });
});

describe('the queries of an export with trades', () => {
  it("when the books with trades are exported (run here, in-process: the route runs it on a worker), then the trades are walked in date order from an index, not sorted whole, and each trade's lot and reductions are index seeks", () => {
    const file = ledgerFile(t.dataDir, userId);
    const seen = new Set<string>();
    const stores = new Stores(t.dataDir);
    const before = Database.prototype.prepare;
    Database.prototype.prepare = function (this: Database.Database, sql: string) {
      if (this.name === file) seen.add(sql);
      return prepare.call(this, sql);
    } as typeof prepare;
    try {
      expect(exportBooks(stores.ledger(userId), { format: 'beancount' }).text).toMatch(/ VTI \{/);
    } finally {
      Database.prototype.prepare = before;
      stores.close();
    }
    // the walk beside the entries and what it reads per trade (the passes that gather each holding's
    // flags read every reduction once, as the export reads every entry once)
    const walk = [...seen].filter((sql) => /ORDER BY t\.trade_date|WHERE (r\.)?trade_id = \?/.test(sql));
    expect(walk).toHaveLength(3);
    const db = new Database(file, { readonly: true });
    try {
      const offenders = walk.flatMap((sql) =>
        fullScans(db, sql, ['trades', 'lots', 'lot_reductions']).map(
          (step) => `${step}  <=  ${sql.replace(/\s+/g, ' ')}`,
        ),
      );
      expect(offenders).toEqual([]);
    } finally {
      db.close();
    }
  });
});

describe('the queries of the net-worth series', () => {
  it("when the series is read by month (a partial last month), week and day, in each currency and converted, then its reads of each period's totals and of the rates at the period ends are ranges and seeks of an index", async () => {
    const screens = [
      '/api/reports/net-worth?start_date=2025-12-15&end_date=2026-03-20&interval=month',
      '/api/reports/net-worth?start_date=2026-01-01&end_date=2026-03-31&interval=week&convert_to=USD',
      '/api/reports/net-worth?start_date=2026-01-20&end_date=2026-02-20&interval=day&convert_to=EUR',
    ];
    // statements are prepared once per connection: the ones the first test's screens prepared count too
    for (const screen of screens) expect((await t.api.get(screen, token)).status, screen).toBe(200);
    // the reads made for the whole series at once: each period's totals, the rates at the period ends
    const series = [...caught].filter((sql) => /^SELECT (day AS at|month AS at|d\.value AS day),/.test(sql));
    expect(series.filter((sql) => /account_month_totals/.test(sql))).toHaveLength(1);
    expect(series.filter((sql) => /account_day_totals/.test(sql))).toHaveLength(1);
    expect(series.filter((sql) => /FROM prices/.test(sql))).toHaveLength(1);
    const tables = [...BIG_TABLES, 'account_month_totals', 'account_day_totals', 'prices'];
    const db = new Database(ledgerFile(t.dataDir, userId), { readonly: true });
    try {
      const offenders = series.flatMap((sql) =>
        fullScans(db, sql, tables).map((step) => `${step}  <=  ${sql.replace(/\s+/g, ' ')}`),
      );
      expect(offenders).toEqual([]);
      for (const sql of series) {
        const plan = (
          db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...new Array((sql.match(/\?/g) ?? []).length).fill(null)) as {
            detail: string;
          }[]
        ).map((r) => r.detail);
        expect(
          plan.filter((d) => /^SEARCH (account_month_totals|account_day_totals|prices) USING/.test(d)),
          sql,
        ).toHaveLength(1);
        expect(
          plan.filter((d) => /TEMP B-TREE/.test(d)),
          sql,
        ).toEqual([]);
      }
    } finally {
      db.close();
    }
  });
});

// after the net-worth case, which counts statements prepared by the screens above: this one clears what was caught
describe('the queries of reconciling to the bank', () => {
  it('when lines are ticked, an account reconciled, bank lines booked and a statement booked by rules, a transfer proposed and booked, a line split and an entry corrected, then no query scans the lines, entries or bank transactions whole', async () => {
    const status = await t.api.get(
      `/api/accounts/${bank}/reconcile?statement_date=2026-03-31&statement_balance=0`,
      token,
    );
    const lines = await t.api.get(
      `/api/accounts/${bank}/unreconciled-lines?statement_date=2026-03-31&per_page=1`,
      token,
    );
    const open = await t.api.get(`/api/reconciliation/unmatched?type=bank_transaction&per_page=1`, token);
    caught.clear();
    expect(
      (
        await t.api.post(
          `/api/accounts/${bank}/cleared`,
          { line_ids: [lines.body.items[0].line_id], cleared: true },
          token,
        )
      ).status,
    ).toBe(200);
    const after = await t.api.get(
      `/api/accounts/${bank}/reconcile?statement_date=2026-03-31&statement_balance=0`,
      token,
    );
    expect(after.body.cleared_balance).not.toBe(status.body.cleared_balance);
    const done = await t.api.post(
      `/api/accounts/${bank}/reconcile`,
      { statement_date: '2026-03-31', statement_balance: after.body.cleared_balance },
      token,
    );
    expect(done.status).toBe(201);
    expect(done.body.line_count).toBeGreaterThan(0);
    const booked = await t.api.post(
      '/api/reconciliation/unmatched/create-entries',
      { items: [{ bank_transaction_id: open.body.items[0].transaction.id, account_id: food }] },
      token,
    );
    expect(booked.status).toBe(201);
    expect(
      (await t.api.post('/api/reconciliation/unmatched/create-entries', { statement_id: statementId }, token)).status,
    ).toBe(201);
    // a transfer proposed and booked, a line split, an entry corrected
    const savings = (await t.api.post('/api/accounts', { name: 'Savings', type: 'ASSET' }, token)).body.id;
    const out = { date: '2026-03-20', description: 'To savings', amount: '77.77', type: 'debit' };
    const split = { date: '2026-03-20', description: 'SPLIT ME', amount: '10.00', type: 'debit' };
    const into = { date: '2026-03-21', description: 'From checking', amount: '77.77', type: 'credit' };
    expect((await t.api.post('/api/statements', { account_id: bank, transactions: [out, split] }, token)).status).toBe(
      201,
    );
    expect((await t.api.post('/api/statements', { account_id: savings, transactions: [into] }, token)).status).toBe(
      201,
    );
    const proposed = await t.api.get('/api/reconciliation/unmatched?type=bank_transaction&per_page=100', token);
    const byText = (d: string) =>
      proposed.body.items.find((i: { transaction: { description: string } }) => i.transaction.description === d);
    expect(byText('To savings').transfer.transaction.description).toBe('From checking');
    const transfer = {
      from_transaction_id: byText('To savings').transaction.id,
      to_transaction_id: byText('From checking').transaction.id,
    };
    expect((await t.api.post('/api/reconciliation/transfers', transfer, token)).status).toBe(201);
    const splits = [
      { account_id: food, amount: '4.00' },
      { account_id: savings, amount: '6.00' },
    ];
    expect(
      (
        await t.api.post(
          `/api/reconciliation/unmatched/${byText('SPLIT ME').transaction.id}/create-entry`,
          { splits },
          token,
        )
      ).status,
    ).toBe(201);
    const typo = await t.api.post(
      '/api/journal-entries',
      {
        entry_date: '2026-03-25',
        auto_post: true,
        lines: splits.map((l, i) => ({
          account_id: l.account_id,
          direction: i === 0 ? 'DEBIT' : 'CREDIT',
          amount: '1.00',
        })),
      },
      token,
    );
    const corrected = await t.api.post(
      `/api/journal-entries/${typo.body.id}/correct`,
      {
        entry_date: '2026-03-25',
        lines: typo.body.lines.map((l: { account_id: string; direction: string }) => ({
          account_id: l.account_id,
          direction: l.direction,
          amount: '1.10',
        })),
      },
      token,
    );
    expect(corrected.status).toBe(201);
    // the first reconciliation's opening balance and an adjustment for a difference
    const equity = (await t.api.post('/api/accounts', { name: 'Opening balances', type: 'EQUITY' }, token)).body.id;
    const opening = { entry_date: '2025-12-31', amount: '10.00', offset_account_id: equity };
    expect((await t.api.post(`/api/accounts/${bank}/opening-balance`, opening, token)).status).toBe(201);
    const adjustment = { entry_date: '2026-03-31', amount: '0.01', offset_account_id: food };
    expect((await t.api.post(`/api/accounts/${bank}/reconcile-adjustment`, adjustment, token)).status).toBe(201);
    const db = new Database(ledgerFile(t.dataDir, userId), { readonly: true });
    try {
      const writes = [...caught].filter(
        (sql) => /journal_lines|bank_transactions/.test(sql) && !/^\s*INSERT/i.test(sql),
      );
      expect(writes.some((sql) => /SET cleared = 'reconciled'/.test(sql))).toBe(true);
      expect(writes.some((sql) => /a\.type = 'EQUITY'/.test(sql))).toBe(true);
      expect(writes.some((sql) => /ORDER BY l\.entry_date LIMIT 1/.test(sql))).toBe(true);
      const offenders = writes.flatMap((sql) =>
        fullScans(db, sql).map((step) => `${step}  <=  ${sql.replace(/\s+/g, ' ')}`),
      );
      expect(offenders).toEqual([]);
    } finally {
      db.close();
    }
  });
});

describe('the queries of signing in and of every request', () => {
  it('when users register, log in, refresh, change passwords and log out, and requests check their sessions, then every identity query is an index lookup', async () => {
    const s = await startTestServer();
    const identity = `${s.dataDir}/identity.sqlite`;
    const seen = new Set<string>();
    const screens = Database.prototype.prepare;
    Database.prototype.prepare = function (this: Database.Database, sql: string) {
      if (this.name === identity) seen.add(sql);
      return screens.call(this, sql);
    } as typeof prepare;
    try {
      const user = await registerUser(s.api);
      const login = await s.api.post('/api/auth/login', { email: user.email, password: 'correct horse battery' });
      const fresh = (await s.api.get('/api/auth/me', login.body.access_token)).body.access_token;
      expect((await s.api.get('/api/accounts', fresh)).status).toBe(200);
      const changed = await s.api.post(
        '/api/auth/password',
        { current_password: 'correct horse battery', new_password: 'another good passphrase' },
        fresh,
      );
      expect(changed.status).toBe(200);
      expect((await s.api.request('POST', '/api/auth/logout', { token: changed.body.access_token })).status).toBe(204);
    } finally {
      Database.prototype.prepare = screens;
    }
    const db = new Database(identity, { readonly: true });
    try {
      expect([...seen].some((sql) => /\(SELECT 1 FROM sessions WHERE id = \?/.test(sql))).toBe(true);
      const scans = [...seen].flatMap((sql) => {
        if (!/\b(users|sessions)\b/.test(sql) || /^\s*(INSERT|CREATE)/i.test(sql)) return [];
        const rows = db
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all(...new Array((sql.match(/\?/g) ?? []).length).fill(null)) as { detail: string }[];
        return rows.filter((r) => /^SCAN (users|sessions|s|u)\b/.test(r.detail)).map((r) => `${r.detail} <= ${sql}`);
      });
      expect(scans).toEqual([]);
    } finally {
      db.close();
      await s.stop();
    }
  });

  it('when an account is moved, then the walk down its sub-accounts follows the parent index', async () => {
    const parent = (await t.api.post('/api/accounts', { name: 'Food parent', type: 'EXPENSE' }, token)).body.id;
    caught.clear();
    expect((await t.api.put(`/api/accounts/${food}`, { parent_id: parent }, token)).status).toBe(200);
    const walk = [...caught].find((sql) => /WITH RECURSIVE below/.test(sql));
    expect(walk).toBeDefined();
    const db = new Database(ledgerFile(t.dataDir, userId), { readonly: true });
    try {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${walk!}`).all(null, null) as { detail: string }[]).map(
        (r) => r.detail,
      );
      expect(plan.filter((d) => /^SCAN (accounts|a)\b/.test(d))).toEqual([]);
      expect(plan.filter((d) => /USING (COVERING )?INDEX accounts_parent/.test(d))).toHaveLength(2);
    } finally {
      db.close();
    }
  });
});

describe('the queries of attachments', () => {
  it('when files are attached, listed, counted, downloaded and deleted, then every read of attachments, entries or bank lines is an index lookup', async () => {
    const png = new Uint8Array(fs.readFileSync(new URL('./fixtures/attachments/receipt.png', import.meta.url)));
    const entry = (await t.api.get('/api/journal-entries?per_page=1', token)).body.items[0].id as string;
    const line = (await t.api.get(`/api/statements/${statementId}/transactions?per_page=1`, token)).body.items[0]
      .id as string;
    const attach = async (target: string, bytes: Uint8Array<ArrayBuffer>) => {
      const form = new FormData();
      form.set('file', new Blob([bytes]), 'receipt.png');
      const encoded = new Response(form);
      const res = await t.api.request('POST', `${target}/attachments`, {
        rawBody: new Uint8Array(await encoded.arrayBuffer()),
        token,
        headers: { 'content-type': encoded.headers.get('content-type')! },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    caught.clear();
    const first = await attach(`/api/entries/${entry}`, png);
    await attach(`/api/bank-transactions/${line}`, new Uint8Array([...png, 1]));
    for (const read of [
      `/api/entries/${entry}/attachments`,
      `/api/bank-transactions/${line}/attachments`,
      `/api/attachments/counts?entry_ids=${entry}&bank_transaction_ids=${line}`,
      '/api/attachments/usage',
    ])
      expect((await t.api.get(read, token)).status, read).toBe(200);
    expect(
      (await fetch(`${t.api.baseUrl}/api/attachments/${first}`, { headers: { authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(200);
    expect((await t.api.delete(`/api/attachments/${first}`, token)).status).toBe(204);
    const db = new Database(ledgerFile(t.dataDir, userId), { readonly: true });
    try {
      const tables = [...BIG_TABLES, 'attachments', 'attachment_files', 'a', 'f', 't'];
      // the trigger that lets a file go once nothing names it
      const statements = [...caught, 'SELECT 1 FROM attachments WHERE sha256 = ?'];
      expect(statements.filter((sql) => sql.includes('attachments')).length).toBeGreaterThan(5);
      const offenders = statements.flatMap((sql) =>
        fullScans(db, sql, tables).map((step) => `${step}  <=  ${sql.replace(/\s+/g, ' ')}`),
      );
      expect(offenders).toEqual([]);
    } finally {
      db.close();
    }
  });
});
