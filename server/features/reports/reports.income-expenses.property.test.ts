import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aggregateBookArb, writeAggregateBook, type AggregateBook } from '../../../test/support/aggregate-book.ts';
import { Stores } from '../../db/stores.ts';
import { addDays } from '../../domain/dates.ts';
import { incomeExpensesSeries, incomeStatement } from './reports.service.ts';

/**
 * The income-and-expenses series reads each period's sums from the month totals (day totals for
 * the days of a period that are not a whole month). For any book, range and interval its periods
 * cover the range one after another, each holds the sums of the postings dated in it, recounted
 * here from the postings (no code of the server's), and, converted, each period's figures are the
 * converted income statement's totals over the same dates.
 */

let dir: string;
let stores: Stores;
let n = 0;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-income-expenses-'));
  stores = new Stores(dir);
});
afterAll(() => {
  stores.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const DIGITS: Record<string, number> = { USD: 2, EUR: 2, JPY: 0 };
const bookArb = aggregateBookArb({
  types: ['INCOME', 'INCOME', 'EXPENSE', 'EXPENSE', 'EXPENSE', 'ASSET'],
  maxAmount: 50_000n,
  pairs: [
    ['EUR', 'USD'],
    ['USD', 'EUR'],
    ['USD', 'JPY'],
    ['JPY', 'EUR'],
  ],
  maxPrices: 8,
});
const convertToArb = fc.constantFrom('USD', 'EUR', 'JPY');

/** The book in a ledger; each income and expense account with its postings, as plain data. */
function ledgerOf(book: AggregateBook) {
  n += 1;
  const db = stores.ledger(`00000000-0000-4000-9200-${String(n).padStart(12, '0')}`);
  const { accounts, postings } = writeAggregateBook(db, book);
  const written = accounts.map((a) => ({ ...a, postings: postings.filter((p) => p.accountId === a.id) }));
  return { db, written };
}

type Written = ReturnType<typeof ledgerOf>['written'][number];

/** Minor units as the API writes them in a currency ("-12.05", "1200"). */
function decimal(minor: bigint, currency: string): string {
  const digits = DIGITS[currency]!;
  const abs = minor < 0n ? -minor : minor;
  const unit = 10n ** BigInt(digits);
  const whole = `${minor < 0n ? '-' : ''}${abs / unit}`;
  return digits === 0 ? whole : `${whole}.${String(abs % unit).padStart(digits, '0')}`;
}

/** Income and expenses of a currency over [start, end], recounted from the postings. */
function recount(written: readonly Written[], currency: string, start: string, end: string) {
  let [income, expenses] = [0n, 0n];
  for (const account of written) {
    if (account.currency !== currency) continue;
    for (const p of account.postings) {
      if (p.day < start || p.day > end) continue;
      if (account.type === 'INCOME') income += p.credit - p.debit;
      if (account.type === 'EXPENSE') expenses += p.debit - p.credit;
    }
  }
  return {
    income: decimal(income, currency),
    expenses: decimal(expenses, currency),
    net: decimal(income - expenses, currency),
  };
}

describe('the income-and-expenses series', () => {
  it('when computed for any book, range and interval, then its periods tile the range and each holds the sums of its postings', () => {
    fc.assert(
      fc.property(bookArb, (book) => {
        const { db, written } = ledgerOf(book);
        const [start, end] = book.range;
        const series = incomeExpensesSeries(db, { start_date: start, end_date: end, interval: book.interval });
        const flows = written.filter((a) => a.type === 'INCOME' || a.type === 'EXPENSE');
        expect(series.currencies.map((c) => c.currency)).toEqual([...new Set(flows.map((a) => a.currency))].sort());
        for (const group of series.currencies) {
          const periods = group.periods;
          expect(periods[0]!.start_date).toBe(start);
          expect(periods.at(-1)!.end_date).toBe(end);
          periods.forEach((p, i) => {
            if (i > 0) expect(p.start_date).toBe(addDays(periods[i - 1]!.end_date, 1));
            if (book.interval === 'day') expect(p.end_date).toBe(p.start_date);
            if (book.interval === 'month') expect(p.end_date.slice(0, 7)).toBe(p.start_date.slice(0, 7));
            expect(p).toEqual({
              start_date: p.start_date,
              end_date: p.end_date,
              ...recount(written, group.currency, p.start_date, p.end_date),
            });
          });
          const whole = recount(written, group.currency, start, end);
          expect([group.total_income, group.total_expenses, group.net_income]).toEqual([
            whole.income,
            whole.expenses,
            whole.net,
          ]);
        }
      }),
      { numRuns: 80 },
    );
  });

  it("when converted, then each period's figures are the converted income statement's totals over its dates", () => {
    fc.assert(
      fc.property(bookArb, convertToArb, (book, target) => {
        const { db } = ledgerOf(book);
        const [start, end] = book.range;
        // months, so that the statements asked for stay few
        const series = incomeExpensesSeries(db, {
          start_date: start,
          end_date: end,
          interval: 'month',
          convert_to: target,
        });
        for (const p of series.converted!.periods) {
          const statement = incomeStatement(db, p.start_date, p.end_date, target).converted!;
          expect([p.income, p.expenses, p.net], `${p.start_date}..${p.end_date}`).toEqual([
            statement.total_income,
            statement.total_expenses,
            statement.net_income,
          ]);
        }
      }),
      { numRuns: 40 },
    );
  });
});
