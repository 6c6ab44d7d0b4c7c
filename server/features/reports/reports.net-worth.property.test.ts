import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceNetWorth, type ReferenceBook } from '../../../test/support/net-worth-reference.ts';
import { Stores } from '../../db/stores.ts';
import { addDays, type Interval } from '../../domain/dates.ts';
import type { AccountType } from '../../domain/double-entry.ts';
import { applyPosting } from '../totals/totals.service.ts';
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

const CURRENCIES = ['USD', 'EUR', 'JPY'] as const;
const TYPES: AccountType[] = ['ASSET', 'ASSET', 'ASSET', 'LIABILITY', 'LIABILITY', 'EQUITY', 'INCOME'];
const dayArb = fc.integer({ min: 0, max: 420 }).map((d) => addDays('2025-11-20', d));

const bookArb = fc.record({
  accounts: fc.array(
    fc.record({
      type: fc.constantFrom(...TYPES),
      currency: fc.constantFrom(...CURRENCIES),
      // an index into the accounts made before this one
      parent: fc.option(fc.nat(), { nil: null }),
    }),
    { minLength: 1, maxLength: 7 },
  ),
  // small amounts on few accounts, so that balances often come back to zero
  postings: fc.array(
    fc.record({
      day: dayArb,
      account: fc.nat(),
      debit: fc.bigInt({ min: 0n, max: 3n }),
      credit: fc.bigInt({ min: 0n, max: 3n }),
    }),
    { maxLength: 50 },
  ),
  prices: fc.array(
    fc.record({
      day: dayArb,
      pair: fc.constantFrom(['EUR', 'USD'], ['USD', 'EUR'], ['USD', 'JPY'], ['JPY', 'EUR'], ['GBP', 'USD']),
      rate: fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 999 })),
    }),
    { maxLength: 12 },
  ),
  range: fc.tuple(dayArb, dayArb).map(([a, b]) => (a <= b ? [a, b] : [b, a])),
  interval: fc.constantFrom<Interval>('day', 'week', 'month'),
  convertTo: fc.constantFrom(undefined, 'USD', 'EUR', 'JPY', 'GBP'),
});

interface Book {
  accounts: { type: AccountType; currency: string; parent: number | null }[];
  postings: { day: string; account: number; debit: bigint; credit: bigint }[];
  prices: { day: string; pair: readonly [string, string]; rate: [number, number] }[];
}

/** The book in a ledger (its totals written as the journal writes them), and the same book as plain data for the reference. */
function ledgerOf(book: Book) {
  n += 1;
  const db = stores.ledger(`00000000-0000-4000-9100-${String(n).padStart(12, '0')}`);
  const ids: string[] = [];
  const types: AccountType[] = [];
  const reference: ReferenceBook & { prices: ReferenceBook['prices'][number][] } = {
    accounts: [],
    postings: [],
    prices: [],
  };
  db.transaction(() => {
    book.accounts.forEach((a, i) => {
      const id = crypto.randomUUID();
      const parent = a.parent === null || i === 0 ? null : ids[a.parent % i]!;
      db.runSql(
        "INSERT INTO accounts (id, name, name_key, type, currency, parent_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, '', '')",
        id,
        `A${i}`,
        `a${i}`,
        a.type,
        a.currency,
        parent,
      );
      ids.push(id);
      types.push(a.type);
      (reference.accounts as ReferenceBook['accounts'][number][]).push({ id, type: a.type, currency: a.currency });
    });
    for (const p of book.postings) {
      const i = p.account % ids.length;
      const line = { accountId: ids[i]!, accountType: types[i]!, currency: book.accounts[i]!.currency };
      (reference.postings as ReferenceBook['postings'][number][]).push({
        day: p.day,
        accountId: ids[i]!,
        debit: p.debit,
        credit: p.credit,
      });
      applyPosting(db, p.day, [
        { ...line, direction: 'DEBIT', amountMinor: p.debit },
        { ...line, direction: 'CREDIT', amountMinor: p.credit },
      ]);
    }
    for (const p of book.prices) {
      const rate = `${p.rate[0]}.${String(p.rate[1]).padStart(3, '0')}`.replace(/^0\.000$/, '0.001');
      // one price per pair and day: the first stays, as the table keeps it
      if (!reference.prices.some((r) => r.from === p.pair[0] && r.to === p.pair[1] && r.day === p.day))
        reference.prices.push({ day: p.day, from: p.pair[0], to: p.pair[1], rate });
      db.runSql(
        `INSERT INTO prices (id, date, from_currency, to_currency, rate, created_at) VALUES (?, ?, ?, ?, ?, '')
         ON CONFLICT (from_currency, to_currency, date) DO NOTHING`,
        crypto.randomUUID(),
        p.day,
        p.pair[0],
        p.pair[1],
        rate,
      );
    }
  });
  return { db, reference };
}

describe('the net-worth series', () => {
  it('when computed for any book, range and interval, then it is the series the definition gives', () => {
    fc.assert(
      fc.property(bookArb, (book) => {
        const { db, reference } = ledgerOf(book);
        const [start, end] = book.range as [string, string];
        expect(netWorthSeries(db, start, end, book.interval, book.convertTo)).toEqual(
          referenceNetWorth(reference, start, end, book.interval, book.convertTo),
        );
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
    const series = netWorthSeries(db, '2026-01-01', '2026-03-31', 'month', 'USD');
    expect(series.missing_rates).toEqual([{ from: 'EUR', to: 'USD', date: '2026-01-31' }]);
    expect(series).toEqual(referenceNetWorth(reference, '2026-01-01', '2026-03-31', 'month', 'USD'));
  });
});
