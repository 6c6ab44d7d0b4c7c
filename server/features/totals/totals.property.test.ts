import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stores } from '../../db/stores.ts';
import { addDays } from '../../domain/dates.ts';
import { applyPosting, sumRange } from './totals.repository.ts';

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
