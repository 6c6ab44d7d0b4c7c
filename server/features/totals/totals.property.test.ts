import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stores } from '../../db/stores.ts';
import { addDays, periods, type Interval } from '../../domain/dates.ts';
import { applyPosting, sumEachPeriod, sumRange } from './totals.repository.ts';
import type { Pair } from './totals.model.ts';

let dir: string;
let stores: Stores;
let n = 0;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-totals-'));
  stores = new Stores(dir);
});
afterAll(() => {
  stores.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const dayArb = fc.integer({ min: 0, max: 800 }).map((d) => addDays('2024-11-20', d));

describe('sumRange', () => {
  it('when summing any date range, then the day/month aggregates give exactly the sum of the postings in it', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            day: dayArb,
            account: fc.constantFrom('a', 'b'),
            debit: fc.bigInt({ min: 0n, max: 10n ** 12n }),
            credit: fc.bigInt({ min: 0n, max: 10n ** 12n }),
          }),
          { maxLength: 60 },
        ),
        fc.option(dayArb, { nil: null }),
        dayArb,
        (postings, from, to) => {
          n += 1;
          const db = stores.ledger(`00000000-0000-4000-9000-${String(n).padStart(12, '0')}`);
          const ids = { a: crypto.randomUUID(), b: crypto.randomUUID() };
          db.transaction(() => {
            for (const [key, id] of Object.entries(ids)) {
              db.runSql(
                "INSERT INTO accounts (id, name, name_key, type, currency, created_at, updated_at) VALUES (?, ?, ?, 'ASSET', 'USD', '', '')",
                id,
                key,
                key,
              );
            }
            for (const p of postings) {
              applyPosting(db, p.day, [
                {
                  accountId: ids[p.account],
                  accountType: 'ASSET',
                  direction: 'DEBIT',
                  amountMinor: p.debit + 1n,
                  currency: 'USD',
                },
                {
                  accountId: ids[p.account],
                  accountType: 'ASSET',
                  direction: 'CREDIT',
                  amountMinor: p.credit + 1n,
                  currency: 'USD',
                },
              ]);
            }
          });
          const got = sumRange(db, 'account', from, to);
          for (const [key, id] of Object.entries(ids)) {
            const inRange = postings.filter(
              (p) => p.account === key && (from === null || p.day >= from) && p.day <= to,
            );
            const debit = inRange.reduce((s, p) => s + p.debit + 1n, 0n);
            const credit = inRange.reduce((s, p) => s + p.credit + 1n, 0n);
            expect(got.get(id) ?? { a: 0n, b: 0n }).toEqual({ a: debit, b: credit });
            expect(sumRange(db, 'account', from, to, id).get(id) ?? { a: 0n, b: 0n }).toEqual({ a: debit, b: credit });
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('sumEachPeriod', () => {
  it('when summing each period of a range at once, then every period has exactly its own range sum, for accounts and cash flow', () => {
    const nonZero = (m: Map<string, Pair> | undefined) =>
      [...(m ?? [])].filter(([, p]) => p.a !== 0n || p.b !== 0n).sort(([x], [y]) => (x < y ? -1 : 1));
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            day: dayArb,
            asset: fc.constantFrom(0, 1),
            counter: fc.constantFrom(0, 1),
            amount: fc.bigInt({ min: 1n, max: 10n ** 12n }),
          }),
          { maxLength: 60 },
        ),
        dayArb,
        dayArb,
        fc.constantFrom<Interval>('day', 'week', 'month'),
        fc.constantFrom(0, 1, 2),
        (postings, a, b, interval, asked) => {
          n += 1;
          const db = stores.ledger(`00000000-0000-4000-9000-${String(n).padStart(12, '0')}`);
          const assets = [crypto.randomUUID(), crypto.randomUUID()];
          const counters = [crypto.randomUUID(), crypto.randomUUID()];
          db.transaction(() => {
            for (const [i, id] of [...assets, ...counters].entries()) {
              db.runSql(
                "INSERT INTO accounts (id, name, name_key, type, currency, created_at, updated_at) VALUES (?, ?, ?, ?, 'USD', '', '')",
                id,
                `a${i}`,
                `a${i}`,
                i < 2 ? 'ASSET' : 'EXPENSE',
              );
            }
            for (const p of postings) {
              applyPosting(db, p.day, [
                {
                  accountId: counters[p.counter]!,
                  accountType: 'EXPENSE',
                  direction: 'DEBIT',
                  amountMinor: p.amount,
                  currency: 'USD',
                },
                {
                  accountId: assets[p.asset]!,
                  accountType: 'ASSET',
                  direction: 'CREDIT',
                  amountMinor: p.amount,
                  currency: 'USD',
                },
              ]);
            }
          });
          const spans = periods(a < b ? a : b, a < b ? b : a, interval, Number.MAX_SAFE_INTEGER);
          for (const kind of ['account', 'cash_flow'] as const) {
            // some of the accounts, or all of them
            const ids: string[] = [
              assets[0]!,
              counters[0]!,
              ...(asked > 0 ? [assets[1]!] : []),
              ...(asked > 1 ? [counters[1]!] : []),
            ];
            const each = sumEachPeriod(db, kind, spans, ids);
            expect(each).toHaveLength(spans.length);
            spans.forEach((span, i) => {
              const expected = nonZero(sumRange(db, kind, span.start, span.end)).filter(([id]) => ids.includes(id));
              expect(nonZero(each[i])).toEqual(expected);
            });
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
