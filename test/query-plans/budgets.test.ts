import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIG_TABLES, catchPrepared, offenders, readOnly, seedBooks, type Books } from './plans.ts';

let books: Books;
/** statements prepared while budgets and schedules were written and read (their reads are prepared by the writes first) */
let caught: Set<string>;
let stop = () => {};

beforeAll(async () => {
  books = await seedBooks();
  const { t, token, bank, food } = books;
  ({ caught, stop } = catchPrepared(books.file));
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
});
afterAll(async () => {
  stop();
  await books.t.stop();
});

describe('the queries of budgets and schedules', () => {
  it('when budgets, the budget report and schedules are read, then no query scans the lines, the month totals, budgets or occurrences whole', async () => {
    const { t, token } = books;
    const screens = [
      '/api/budgets/2026-03',
      '/api/budgets/2026-04',
      '/api/reports/budget-vs-actual?year=2026',
      '/api/reports/budget-vs-actual?month=2026-02',
      '/api/schedules',
      '/api/schedules/upcoming',
    ];
    try {
      for (const screen of screens) expect((await t.api.get(screen, token)).status, screen).toBe(200);
    } finally {
      stop();
    }
    const reads = [...caught].filter((sql) => /^\s*SELECT/i.test(sql));
    expect(reads.filter((sql) => /budget_lines|schedule/.test(sql)).length).toBeGreaterThan(5);
    const tables = [...BIG_TABLES, 'account_month_totals', 'budget_lines', 'schedule_occurrences'];
    readOnly(books.file, (db) => expect(offenders(db, reads, tables)).toEqual([]));
  });
});
