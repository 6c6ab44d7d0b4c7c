import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aggregateBookArb, writeAggregateBook, type AggregateBook } from '../../../test/support/aggregate-book.ts';
import { referenceNetWorth, type ReferenceBook } from '../../../test/support/net-worth-reference.ts';
import { Stores } from '../../db/stores.ts';
import type { AccountType } from '../../domain/double-entry.ts';
import { netWorthSeries } from './reports.service.ts';

/**
 * The net-worth series reads each period's sums at once and keeps running totals per currency.
 * It must equal the series written from its definition (test/support/net-worth-reference.ts: a
 * recount from the postings at every point, the rate rule written out, no code of the server's)
 * for any book: several currencies, sub-accounts (also under a parent in another currency),
 * balances that cancel out, rates missing on some days, ranges that start and end inside a month,
 * by day, week and month, in each currency and converted.
 */

let dir: string;
let stores: Stores;
let n = 0;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-net-worth-'));
  stores = new Stores(dir);
});
afterAll(() => {
  stores.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const TYPES: AccountType[] = ['ASSET', 'ASSET', 'ASSET', 'LIABILITY', 'LIABILITY', 'EQUITY', 'INCOME'];

// small amounts on few accounts, so that balances often come back to zero
const bookArb = aggregateBookArb({
  types: TYPES,
  maxAmount: 3n,
  pairs: [
    ['EUR', 'USD'],
    ['USD', 'EUR'],
    ['USD', 'JPY'],
    ['JPY', 'EUR'],
    ['GBP', 'USD'],
  ],
  maxPrices: 12,
});
const convertToArb = fc.constantFrom(undefined, 'USD', 'EUR', 'JPY', 'GBP');

/** The book in a ledger, and the same book as plain data for the reference. */
function ledgerOf(book: AggregateBook) {
  n += 1;
  const db = stores.ledger(`00000000-0000-4000-9100-${String(n).padStart(12, '0')}`);
  const reference: ReferenceBook = writeAggregateBook(db, book);
  return { db, reference };
}

describe('the net-worth series', () => {
  it('when computed for any book, range and interval, then it is the series the definition gives', () => {
    fc.assert(
      fc.property(bookArb, convertToArb, (book, convertTo) => {
        const { db, reference } = ledgerOf(book);
        const [start, end] = book.range;
        expect(
          netWorthSeries(db, { start_date: start, end_date: end, interval: book.interval, convert_to: convertTo }),
        ).toEqual(referenceNetWorth(reference, start, end, book.interval, convertTo));
      }),
      { numRuns: 120 },
    );
  });

  it("when a currency's balances cancel out at a point without its rate, then the rate is reported missing", () => {
    const { db, reference } = ledgerOf({
      accounts: [
        { type: 'ASSET', currency: 'EUR', parent: null },
        { type: 'ASSET', currency: 'EUR', parent: 0 },
      ],
      postings: [
        { day: '2026-01-10', account: 0, debit: 100n, credit: 0n },
        { day: '2026-01-10', account: 1, debit: 0n, credit: 100n },
      ],
      prices: [{ day: '2026-03-01', pair: ['EUR', 'USD'], rate: [1, 80] }],
    });
    const series = netWorthSeries(db, {
      start_date: '2026-01-01',
      end_date: '2026-03-31',
      interval: 'month',
      convert_to: 'USD',
    });
    expect(series.missing_rates).toEqual([{ from: 'EUR', to: 'USD', date: '2026-01-31' }]);
    expect(series).toEqual(referenceNetWorth(reference, '2026-01-01', '2026-03-31', 'month', 'USD'));
  });
});
