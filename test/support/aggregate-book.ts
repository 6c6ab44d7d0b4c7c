import fc from 'fast-check';
import type { LedgerDb } from '../../server/db/stores.ts';
import { addDays, type Interval } from '../../server/domain/dates.ts';
import type { AccountType } from '../../server/domain/double-entry.ts';
import { applyPosting } from '../../server/features/totals/totals.repository.ts';

/**
 * A book written straight into a ledger for the reports' property tests: its accounts, each
 * posting's debit and credit on one account added to the maintained totals as the journal adds
 * them (a posting need not balance: the reports read the totals), and its rates. Answers what was
 * written, as plain data for a test's own recount.
 */
export interface AggregateBook {
  accounts: readonly { type: AccountType; currency: string; parent: number | null }[];
  /** `account`: an index into `accounts`, taken modulo their number */
  postings: readonly { day: string; account: number; debit: bigint; credit: bigint }[];
  /** `rate`: whole and thousandths (0.000 is written as 0.001) */
  prices: readonly { day: string; pair: readonly [string, string]; rate: readonly [number, number] }[];
}

export interface WrittenBook {
  accounts: { id: string; type: AccountType; currency: string }[];
  postings: { day: string; accountId: string; debit: bigint; credit: bigint }[];
  /** one price per pair and day (the first given stays, as the table keeps it), `rate` as decimal text */
  prices: { day: string; from: string; to: string; rate: string }[];
}

export function writeAggregateBook(db: LedgerDb, book: AggregateBook): WrittenBook {
  const written: WrittenBook = { accounts: [], postings: [], prices: [] };
  db.transaction(() => {
    book.accounts.forEach((a, i) => {
      const id = crypto.randomUUID();
      const parent = a.parent === null || i === 0 ? null : written.accounts[a.parent % i]!.id;
      db.runSql(
        "INSERT INTO accounts (id, name, name_key, type, currency, parent_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, '', '')",
        id,
        `A${i}`,
        `a${i}`,
        a.type,
        a.currency,
        parent,
      );
      written.accounts.push({ id, type: a.type, currency: a.currency });
    });
    for (const p of book.postings) {
      const account = written.accounts[p.account % written.accounts.length]!;
      const line = { accountId: account.id, accountType: account.type, currency: account.currency };
      written.postings.push({ day: p.day, accountId: account.id, debit: p.debit, credit: p.credit });
      applyPosting(db, p.day, [
        { ...line, direction: 'DEBIT', amountMinor: p.debit },
        { ...line, direction: 'CREDIT', amountMinor: p.credit },
      ]);
    }
    for (const p of book.prices) {
      const rate = `${p.rate[0]}.${String(p.rate[1]).padStart(3, '0')}`.replace(/^0\.000$/, '0.001');
      if (!written.prices.some((r) => r.from === p.pair[0] && r.to === p.pair[1] && r.day === p.day))
        written.prices.push({ day: p.day, from: p.pair[0], to: p.pair[1], rate });
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
  return written;
}

/** A day of the fourteen months the random books cover, from 2025-11-20. */
export const bookDayArb = fc.integer({ min: 0, max: 420 }).map((d) => addDays('2025-11-20', d));

/**
 * A random book (up to seven accounts of the given types in USD, EUR or JPY, some under others;
 * up to 50 postings of at most `maxAmount` minor units each side; some rates of the given pairs),
 * and a range of its days with an interval to cut it by.
 */
export function aggregateBookArb(o: {
  types: readonly AccountType[];
  maxAmount: bigint;
  pairs: readonly (readonly [string, string])[];
  maxPrices: number;
}) {
  return fc.record({
    accounts: fc.array(
      fc.record({
        type: fc.constantFrom(...o.types),
        currency: fc.constantFrom('USD', 'EUR', 'JPY'),
        // an index into the accounts made before this one
        parent: fc.option(fc.nat(), { nil: null }),
      }),
      { minLength: 1, maxLength: 7 },
    ),
    postings: fc.array(
      fc.record({
        day: bookDayArb,
        account: fc.nat(),
        debit: fc.bigInt({ min: 0n, max: o.maxAmount }),
        credit: fc.bigInt({ min: 0n, max: o.maxAmount }),
      }),
      { maxLength: 50 },
    ),
    prices: fc.array(
      fc.record({
        day: bookDayArb,
        pair: fc.constantFrom(...o.pairs),
        rate: fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 999 })),
      }),
      { maxLength: o.maxPrices },
    ),
    range: fc.tuple(bookDayArb, bookDayArb).map(([a, b]) => (a <= b ? [a, b] : [b, a]) as [string, string]),
    interval: fc.constantFrom<Interval>('day', 'week', 'month'),
  });
}
