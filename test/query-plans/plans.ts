import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { ledgerFile, registerUser, startTestServer, type TestServer } from '../support/server.ts';

/**
 * The harness of the query-plan tests (issue 7: no query that serves a screen may read all of a
 * user's lines). Every SQL statement the server prepares on a file while a test works is caught,
 * and SQLite's own plan for it must not scan a big table (journal lines, entries, bank
 * transactions): only index ranges and lookups. Each `<subject>.test.ts` beside this file seeds its
 * own books and checks one area's reads and writes.
 */

export const BIG_TABLES: readonly string[] = ['journal_lines', 'journal_entries', 'bank_transactions'];

/** Sorts that are bounded although SQLite cannot know it, each with the reason. */
export const BOUNDED_SORTS: { sql: RegExp; why: string }[] = [
  {
    sql: /FROM change_log WHERE dataset = \? AND row_id = \? AND timestamp < \? ORDER BY timestamp DESC LIMIT 1/,
    why: "one row's changes before a time (the row's index range): as many as that row has had edits",
  },
  {
    sql: /FROM change_log WHERE write_ts = \? ORDER BY timestamp DESC/,
    why: 'the changes of one write (its index range), the rows that one write touched',
  },
  {
    sql: /json_group_array\(json_object\(.*\) ORDER BY c\.\w+\) FROM \w+ AS c WHERE c\.\w+ = r\.\w+/s,
    why: "a change's value: one row's children (an entry's lines, a rule's splits) in their order, the few of that row (its index range)",
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

/** SQLite's plan for a statement, each step's text, its parameters all null. */
export function planOf(db: Database.Database, sql: string): string[] {
  const rows = db
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .all(...new Array((sql.match(/\?/g) ?? []).length).fill(null)) as { detail: string }[];
  return rows.map((r) => r.detail);
}

/**
 * The plan's steps that read a big table whole (`SCAN <table or its alias>`, with or without an
 * index), or sort everything a query reads from one (`USE TEMP B-TREE`), unless known bounded.
 */
export function fullScans(db: Database.Database, sql: string, tables: readonly string[] = BIG_TABLES): string[] {
  const names = new Map<string, string>();
  for (const table of tables) names.set(table, table);
  for (const m of sql.matchAll(new RegExp(`\\b(${tables.join('|')})\\s+(?:AS\\s+)?(\\w+)`, 'gi'))) {
    if (!/^(WHERE|ON|JOIN|LEFT|INNER|GROUP|ORDER|LIMIT|SET|VALUES|USING|WHEN)$/i.test(m[2]!)) names.set(m[2]!, m[1]!);
  }
  const details = planOf(db, sql);
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

/** Each full scan among the statements, with the statement it is in (an empty list passes). */
export function offenders(db: Database.Database, statements: Iterable<string>, tables?: readonly string[]): string[] {
  return [...statements].flatMap((sql) =>
    fullScans(db, sql, tables).map((step) => `${step}  <=  ${sql.replace(/\s+/g, ' ')}`),
  );
}

/** Runs the check over the file opened read-only, and closes it. */
export function readOnly<T>(file: string, check: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true });
  try {
    return check(db);
  } finally {
    db.close();
  }
}

/**
 * Catches every statement prepared on `file` from now until `stop()`. Catchers nest: each stops
 * in the reverse order it started, which gives back the prepare it found; stopping twice stops once.
 */
export function catchPrepared(file: string): { caught: Set<string>; stop: () => void } {
  const caught = new Set<string>();
  const before = Database.prototype.prepare;
  Database.prototype.prepare = function (this: Database.Database, sql: string) {
    if (this.name === file) caught.add(sql);
    return before.call(this, sql);
  } as typeof before;
  let stopped = false;
  const stop = () => {
    if (!stopped) Database.prototype.prepare = before;
    stopped = true;
  };
  return { caught, stop };
}

/** A server over books read by the screens: the seed every subject's file starts from. */
export interface Books {
  t: TestServer;
  token: string;
  userId: string;
  /** the user's ledger file */
  file: string;
  bank: string;
  food: string;
  statementId: string;
}

/**
 * Starts a server and seeds a user's books: thirty posted entries over three months, a euro account
 * with an exchange into it and its rates, a bank statement of twenty lines and one unknown, matched
 * by a run, and a rule. Statements prepared while seeding are not caught by the tests (each
 * statement is prepared once per connection).
 */
export async function seedBooks(): Promise<Books> {
  const t = await startTestServer();
  const user = await registerUser(t.api);
  const token = user.token;
  const bank = (await t.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, token)).body.id;
  const food = (await t.api.post('/api/accounts', { name: 'Food', type: 'EXPENSE' }, token)).body.id;
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
  // another currency, an exchange into it and its rates: the converted reads
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
  const statementId = statement.body.id;
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
  return { t, token, userId: user.id, file: ledgerFile(t.dataDir, user.id), bank, food, statementId };
}
