import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stores } from '../../db/stores.ts';
import type { LedgerDb } from '../../db/stores.ts';
import { createAccount } from '../accounts/accounts.service.ts';
import { balancesAsOf } from '../accounts/accounts.service.ts';
import { trialBalance } from '../reports/reports.service.ts';
import { maintainedTotals, recomputeFromLines } from '../totals/totals.queries.ts';
import { createEntry, postEntry, voidEntry } from './journal.service.ts';
import { matchedEntryVoidGuard } from '../reconciliation/reconciliation.review.service.ts';

/** Random sequences of create / post / void on a real ledger file, checked against invariants. */

let dir: string;
let stores: Stores;
let ledgerCount = 0;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-prop-'));
  stores = new Stores(dir);
});
afterAll(() => {
  stores.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function freshLedger(): { db: LedgerDb; accounts: { id: string; currency: string }[] } {
  ledgerCount += 1;
  const id = `00000000-0000-4000-8000-${String(ledgerCount).padStart(12, '0')}`;
  const db = stores.ledger(id);
  const specs = [
    ['Checking', 'ASSET', 'USD'],
    ['Savings', 'ASSET', 'USD'],
    ['Card', 'LIABILITY', 'USD'],
    ['Opening', 'EQUITY', 'USD'],
    ['Salary', 'INCOME', 'USD'],
    ['Groceries', 'EXPENSE', 'USD'],
    ['Yen wallet', 'ASSET', 'JPY'],
    ['Yen spending', 'EXPENSE', 'JPY'],
    ['Dinar account', 'ASSET', 'KWD'],
    ['Dinar income', 'INCOME', 'KWD'],
  ] as const;
  const accounts = specs.map(([name, type, currency]) => createAccount(db, { name, type, currency }));
  return { db, accounts: accounts.map((a) => ({ id: a.id, currency: a.currency })) };
}

const DIGITS: Record<string, number> = { USD: 2, JPY: 0, KWD: 3 };
function format(minor: bigint, currency: string): string {
  const d = DIGITS[currency]!;
  if (d === 0) return minor.toString();
  const s = minor.toString().padStart(d + 1, '0');
  return `${s.slice(0, -d)}.${s.slice(-d)}`;
}

/** A balanced entry in one currency: debits split over some accounts, credits over others. */
const entryArb = fc.record({
  currencyIndex: fc.nat(2),
  amounts: fc.array(fc.bigInt({ min: 1n, max: 10_000_000n }), { minLength: 1, maxLength: 4 }),
  picks: fc.array(fc.nat(20), { minLength: 5, maxLength: 5 }),
  dayOffset: fc.integer({ min: -400, max: 30 }),
  autoPost: fc.boolean(),
});

const actionArb = fc.oneof(
  { weight: 5, arbitrary: entryArb.map((e) => ({ kind: 'create' as const, e })) },
  { weight: 2, arbitrary: fc.nat(50).map((i) => ({ kind: 'post' as const, i })) },
  { weight: 2, arbitrary: fc.nat(50).map((i) => ({ kind: 'void' as const, i })) },
);

function dateFrom(offset: number): string {
  const d = new Date(Date.UTC(2026, 5, 15) + offset * 86_400_000);
  return d.toISOString().slice(0, 10);
}

describe('journal invariants under random use', () => {
  it('when entries are created, posted and voided at random, then the maintained totals equal a full recomputation and the trial balance is zero in every currency', () => {
    fc.assert(
      fc.property(fc.array(actionArb, { minLength: 1, maxLength: 40 }), (actions) => {
        const { db, accounts } = freshLedger();
        const byCurrency = ['USD', 'JPY', 'KWD'].map((c) => accounts.filter((a) => a.currency === c));
        const ids: string[] = [];
        for (const action of actions) {
          if (action.kind === 'create') {
            const pool = byCurrency[action.e.currencyIndex]!;
            const currency = pool[0]!.currency;
            const total = action.e.amounts.reduce((s, a) => s + a, 0n);
            const debitAccount = pool[action.e.picks[0]! % pool.length]!;
            const lines = action.e.amounts.map((amount, i) => ({
              account_id: pool[action.e.picks[(i + 1) % 5]! % pool.length]!.id,
              direction: 'CREDIT' as 'DEBIT' | 'CREDIT',
              amount: format(amount, currency),
            }));
            lines.push({ account_id: debitAccount.id, direction: 'DEBIT' as const, amount: format(total, currency) });
            ids.push(
              createEntry(db, { entry_date: dateFrom(action.e.dayOffset), lines, auto_post: action.e.autoPost }).id,
            );
          } else if (ids.length > 0) {
            const id = ids[action.i % ids.length]!;
            try {
              if (action.kind === 'post') postEntry(db, id);
              else voidEntry(db, id, 'random', matchedEntryVoidGuard);
            } catch (error) {
              expect((error as { code?: string }).code).toBe('INVALID_STATUS');
            }
          }
        }
        const maintained = maintainedTotals(db);
        expect(maintained.monthsMatchDays).toBe(true);
        const recomputed = recomputeFromLines(db);
        expect(maintained.accountDays).toEqual(recomputed.accountDays);
        expect(maintained.cashFlowDays).toEqual(recomputed.cashFlowDays);
        for (const asOf of ['2025-01-01', '2026-06-15', '2099-12-31']) {
          for (const currency of trialBalance(db, asOf).currencies) {
            expect(currency.total_debit).toBe(currency.total_credit);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('when any posted entry is voided, then every balance after the reversal date is what it was before the entry', () => {
    fc.assert(
      fc.property(entryArb, (e) => {
        const { db, accounts } = freshLedger();
        const pool = accounts.filter((a) => a.currency === 'USD');
        const far = '2999-01-01';
        const before = balancesAsOf(db, far).map((b) => b.balanceMinor);
        const total = e.amounts.reduce((s, a) => s + a, 0n);
        const lines = e.amounts.map((amount, i) => ({
          account_id: pool[e.picks[i % 5]! % pool.length]!.id,
          direction: 'DEBIT' as const,
          amount: format(amount, 'USD'),
        }));
        lines.push({
          account_id: pool[e.picks[4]! % pool.length]!.id,
          direction: 'CREDIT' as const,
          amount: format(total, 'USD'),
        } as never);
        const entry = createEntry(db, { entry_date: dateFrom(e.dayOffset), lines, auto_post: true });
        voidEntry(db, entry.id, null, matchedEntryVoidGuard);
        expect(balancesAsOf(db, far).map((b) => b.balanceMinor)).toEqual(before);
      }),
      { numRuns: 40 },
    );
  });
});
