import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LedgerDb } from '../../db/stores.ts';
import { DomainError } from '../../domain/errors.ts';
import { savePrice } from '../prices/prices.service.ts';
import { createRule } from '../rules/rules.service.ts';
import { createStatement } from '../statements/statements.service.ts';
import { createEntries } from './reconciliation.booking.service.ts';
import { bookTransfer } from './reconciliation.transfers.service.ts';
import { useLedgerFiles } from '../../../test/support/ledger-files.ts';

/**
 * Whatever is booked from bank lines (one account, splits, accounts in other currencies at the
 * rate table's rates or at amounts given, rules with splits, transfers), or refused, every
 * currency's posted debits equal its credits, counted again from the lines and from the maintained
 * totals, and each booked bank line's entry weighs exactly the line.
 */

const THRESHOLDS = { autoAccept: 85, review: 60 };

const ledgers = useLedgerFiles('booking');

const BANKS = [
  ['Checking', 'ASSET', 'USD'],
  ['UK current', 'ASSET', 'GBP'],
  ['Yen card', 'LIABILITY', 'JPY'],
] as const;
const COUNTERS = [
  ['Groceries', 'EXPENSE', 'USD'],
  ['Household', 'EXPENSE', 'GBP'],
  ['Travel', 'EXPENSE', 'EUR'],
  ['Gifts', 'INCOME', 'JPY'],
  ['Savings', 'ASSET', 'USD'],
] as const;
const CURRENCIES = ['USD', 'GBP', 'EUR', 'JPY'];
const DIGITS: Record<string, number> = { USD: 2, GBP: 2, EUR: 2, JPY: 0 };
const day = (d: number) => `2026-03-${String(d + 1).padStart(2, '0')}`;
const text = (minor: number, currency: string) => {
  const digits = DIGITS[currency]!;
  if (digits === 0) return String(minor);
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
};

const lineArb = fc.record({
  bank: fc.integer({ min: 0, max: BANKS.length - 1 }),
  day: fc.integer({ min: 0, max: 20 }),
  minor: fc.integer({ min: 1, max: 500_000 }),
  out: fc.boolean(),
});
const priceArb = fc.record({
  day: fc.integer({ min: 0, max: 20 }),
  from: fc.constantFrom(...CURRENCIES),
  to: fc.constantFrom(...CURRENCIES),
  rate: fc
    .integer({ min: 1, max: 3_000_000 })
    .map((n) => `${Math.floor(n / 10_000)}.${String(n % 10_000).padStart(4, '0')}`),
});
const bookingArb = fc.record({
  line: fc.nat(),
  /** counter accounts, split when more than one */
  counters: fc.array(fc.integer({ min: 0, max: COUNTERS.length - 1 }), { minLength: 1, maxLength: 4 }),
  /** where each split falls, as fractions of the line */
  cuts: fc.array(fc.integer({ min: 1, max: 999 }), { minLength: 3, maxLength: 3 }),
  /** give the amount in the account's currency instead of the rate's */
  given: fc.array(fc.option(fc.integer({ min: 1, max: 900_000 }), { nil: undefined }), { minLength: 4, maxLength: 4 }),
});
const ruleArb = fc.record({
  counter: fc.integer({ min: 0, max: COUNTERS.length - 1 }),
  split: fc.integer({ min: 0, max: COUNTERS.length - 1 }),
  percent: fc.integer({ min: 1, max: 9_999 }).map((n) => `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`),
});

/** Posted debits minus credits per currency, recounted from the lines. */
function imbalanceFromLines(db: LedgerDb): Map<string, bigint> {
  const rows = db.allSql<{ currency: string; net: bigint }>(
    `SELECT l.currency, SUM(CASE l.direction WHEN 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) AS net
       FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id WHERE e.status IN ('posted', 'void') GROUP BY l.currency`,
  );
  return new Map(rows.map((r) => [r.currency, r.net]));
}

/** The same from the maintained day totals. */
function imbalanceFromTotals(db: LedgerDb): Map<string, bigint> {
  const rows = db.allSql<{ currency: string; net: bigint }>(
    `SELECT a.currency, SUM(t.debit_minor - t.credit_minor) AS net
       FROM account_day_totals t JOIN accounts a ON a.id = t.account_id GROUP BY a.currency`,
  );
  return new Map(rows.map((r) => [r.currency, r.net]));
}

function lineCount(db: LedgerDb): bigint {
  return db.allSql<{ n: bigint }>('SELECT COUNT(*) AS n FROM journal_lines')[0]!.n;
}

describe('booking bank lines keeps the books balanced', () => {
  it('when bank lines are booked at random (splits, other currencies, given amounts, rules, transfers), then every currency balances exactly and each entry weighs its bank line', () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 2, maxLength: 12 }),
        fc.array(priceArb, { maxLength: 8 }),
        fc.array(bookingArb, { maxLength: 10 }),
        fc.option(ruleArb, { nil: undefined }),
        (lines, prices, bookings, rule) => {
          const { db, accounts } = ledgers.fresh([...BANKS, ...COUNTERS]);
          const [banks, counters] = [accounts.slice(0, BANKS.length), accounts.slice(BANKS.length)];
          for (const p of prices)
            if (p.from !== p.to) savePrice(db, { date: day(p.day), from: p.from, to: p.to, rate: p.rate });
          const txns: { id: string; bank: number; minor: number; type: 'debit' | 'credit' }[] = [];
          const statements: string[] = [];
          BANKS.forEach(([, , currency], b) => {
            const own = lines.filter((l) => l.bank === b);
            if (own.length === 0) return;
            const made = createStatement(db, {
              account_id: banks[b]!,
              transactions: own.map((l, i) => ({
                date: day(l.day),
                description: `LINE ${b} ${i}`,
                amount: text(l.minor, currency),
                type: l.out ? 'debit' : 'credit',
              })),
            });
            statements.push(made.id!);
            const stored = db.allSql<{ id: string; amount_minor: bigint; type: 'debit' | 'credit' }>(
              'SELECT id, amount_minor, type FROM bank_transactions WHERE statement_id = ? ORDER BY seq',
              made.id,
            );
            for (const s of stored) txns.push({ id: s.id, bank: b, minor: Number(s.amount_minor), type: s.type });
          });
          const attempt = (work: () => unknown) => {
            const before = [imbalanceFromLines(db), lineCount(db)];
            try {
              work();
            } catch (error) {
              if (!(error instanceof DomainError)) throw error;
              // a refused booking changes nothing
              expect([imbalanceFromLines(db), lineCount(db)]).toEqual(before);
            }
          };
          for (const b of bookings) {
            const txn = txns[b.line % txns.length]!;
            const currency = BANKS[txn.bank]![2];
            // cut the line into as many parts as counters, each at least one minor unit
            const n = Math.min(b.counters.length, txn.minor);
            const cuts = [
              ...new Set(b.cuts.slice(0, n - 1).map((c) => Math.max(1, Math.floor((txn.minor * c) / 1000)))),
            ]
              .filter((c) => c < txn.minor)
              .sort((x, y) => x - y);
            const edges = [0, ...cuts, txn.minor];
            const parts = edges.slice(1).map((e, i) => e - edges[i]!);
            const counterOf = (i: number) => b.counters[i % b.counters.length]!;
            const given = (i: number) => {
              const g = b.given[i];
              const target = COUNTERS[counterOf(i)]![2];
              return g !== undefined && target !== currency ? { converted_amount: text(g, target) } : {};
            };
            const item =
              parts.length === 1
                ? { bank_transaction_id: txn.id, account_id: counters[counterOf(0)]!, ...given(0) }
                : {
                    bank_transaction_id: txn.id,
                    splits: parts.map((p, i) => ({
                      account_id: counters[counterOf(i)]!,
                      amount: text(p, currency),
                      ...given(i),
                    })),
                  };
            attempt(() => createEntries(db, { items: [item] }, THRESHOLDS));
          }
          if (rule) {
            attempt(() =>
              createRule(db, {
                name: 'Lines',
                description: { op: 'contains', value: 'line' },
                type: null,
                amount_min: null,
                amount_max: null,
                account_id: counters[rule.counter]!,
                memo: null,
                priority: 0,
                splits: [{ account_id: counters[rule.split]!, amount: null, percent: rule.percent }],
              }),
            );
            for (const s of statements) attempt(() => createEntries(db, { statement_id: s }, THRESHOLDS));
          }
          const unmatchedOut = txns.filter((x) => x.type === 'debit');
          const unmatchedIn = txns.filter((x) => x.type === 'credit');
          if (unmatchedOut[0] && unmatchedIn[0] && unmatchedOut[0].bank !== unmatchedIn[0].bank)
            attempt(() =>
              bookTransfer(
                db,
                { from_transaction_id: unmatchedOut[0]!.id, to_transaction_id: unmatchedIn[0]!.id },
                THRESHOLDS,
              ),
            );

          for (const [currency, net] of imbalanceFromLines(db)) expect(net, currency).toBe(0n);
          for (const [currency, net] of imbalanceFromTotals(db)) expect(net, currency).toBe(0n);
          // each booked line: its entry's line on the bank account is the line, and the other lines weigh it back
          const booked = db.allSql<{ entry_id: string; account_id: string; amount_minor: bigint; type: string }>(
            `SELECT m.entry_id, t.account_id, t.amount_minor, t.type FROM reconciliation_matches m
               JOIN bank_transactions t ON t.id = m.bank_transaction_id WHERE m.status = 'accepted'`,
          );
          for (const b of booked) {
            const entryLines = db.allSql<{
              account_id: string;
              direction: string;
              amount_minor: bigint;
              automatic: bigint;
            }>(
              'SELECT account_id, direction, amount_minor, automatic FROM journal_lines WHERE entry_id = ?',
              b.entry_id,
            );
            const own = entryLines.filter((l) => l.account_id === b.account_id);
            expect(own).toHaveLength(1);
            expect(own[0]).toMatchObject({
              amount_minor: b.amount_minor,
              direction: b.type === 'debit' ? 'CREDIT' : 'DEBIT',
            });
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
