import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIG_TABLES, catchPrepared, offenders, planOf, readOnly, seedBooks, type Books } from './plans.ts';

let books: Books;
beforeAll(async () => {
  books = await seedBooks();
});
afterAll(() => books.t.stop());

describe('the queries of the net-worth series', () => {
  it("when the series is read by month (a partial last month), week and day, in each currency and converted, then its reads of each period's totals and of the rates at the period ends are ranges and seeks of an index", async () => {
    const { t, token } = books;
    const screens = [
      '/api/reports/net-worth?start_date=2025-12-15&end_date=2026-03-20&interval=month',
      '/api/reports/net-worth?start_date=2026-01-01&end_date=2026-03-31&interval=week&convert_to=USD',
      '/api/reports/net-worth?start_date=2026-01-20&end_date=2026-02-20&interval=day&convert_to=EUR',
    ];
    const { caught, stop } = catchPrepared(books.file);
    try {
      for (const screen of screens) expect((await t.api.get(screen, token)).status, screen).toBe(200);
    } finally {
      stop();
    }
    // the reads made for the whole series at once: each period's totals, the rates at the period ends
    const series = [...caught].filter((sql) => /^SELECT (day AS at|month AS at|d\.value AS day),/.test(sql));
    expect(series.filter((sql) => /account_month_totals/.test(sql))).toHaveLength(1);
    expect(series.filter((sql) => /account_day_totals/.test(sql))).toHaveLength(1);
    expect(series.filter((sql) => /FROM prices/.test(sql))).toHaveLength(1);
    const tables = [...BIG_TABLES, 'account_month_totals', 'account_day_totals', 'prices'];
    readOnly(books.file, (db) => {
      expect(offenders(db, series, tables)).toEqual([]);
      for (const sql of series) {
        const plan = planOf(db, sql);
        expect(
          plan.filter((d) => /^SEARCH (account_month_totals|account_day_totals|prices) USING/.test(d)),
          sql,
        ).toHaveLength(1);
        expect(
          plan.filter((d) => /TEMP B-TREE/.test(d)),
          sql,
        ).toEqual([]);
      }
    });
  });
});
