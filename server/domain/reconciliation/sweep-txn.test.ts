import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../dates.ts';
import { compareForAssignment } from './assignment.ts';
import { prepareTxn, scorePrepared, type ScoredPair } from './pair.ts';
import { PayeeModel } from './payee-model.ts';
import { amountLimitMinor } from './scoring.ts';
import { CANDIDATE_WINDOW_DAYS, emptyStats, PairRanker, type HeldEntry } from './sweep-ranking.ts';
import { TxnSearch } from './sweep-txn.ts';
import { EntryWindow } from './sweep-window.ts';
import { byDate, entry, txn } from './test-books.ts';
import type { AccountType } from './types.ts';

const W = CANDIDATE_WINDOW_DAYS;
const DAY = '2024-06-01';
const words = ['tesco', 'stores', 'rent', 'card', 'payment', '123456'];
const text = fc.array(fc.constantFrom(...words), { maxLength: 2 }).map((w) => w.join(' '));

const books = fc.record({
  digits: fc.constantFrom(2, 0),
  review: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 30, max: 60 })),
  txn: fc.record({ text, amount: fc.bigInt({ min: 1n, max: 10_000n }), credit: fc.boolean() }),
  entries: fc.array(
    fc.record({
      // many on the transaction's day (ties, and far amounts that only the same day and text allow); some outside the window
      day: fc.oneof(fc.integer({ min: -1, max: 1 }), fc.integer({ min: -W - 5, max: W + 5 })),
      memo: fc.option(text, { nil: null }),
      amount: fc.oneof(fc.bigInt({ min: 1n, max: 10_000n }), fc.constantFrom(10n ** 17n)),
      debit: fc.boolean(),
      counters: fc.array(
        fc.tuple(fc.constantFrom('a', 'b'), fc.constantFrom<AccountType>('EXPENSE', 'INCOME', 'ASSET')),
        { maxLength: 2 },
      ),
    }),
    { maxLength: 50 },
  ),
  refused: fc.array(fc.nat(49), { maxLength: 5 }),
  examples: fc.array(fc.tuple(text, fc.constantFrom('a', 'b')), { maxLength: 4 }),
});

describe('TxnSearch', () => {
  it('when a transaction’s window holds any entries, then its best pairs, one after another as each entry is taken, are those of scoring every candidate', () => {
    fc.assert(
      fc.property(books, (b) => {
        const ranker = new PairRanker(b.digits, emptyStats());
        const entries = byDate(
          b.entries.map((e, i) =>
            entry(`e${i}`, addDays(DAY, e.day), e.memo, e.amount, e.debit ? 'DEBIT' : 'CREDIT', e.counters),
          ),
        );
        const window = new EntryWindow(entries, ranker, -Infinity);
        const model = PayeeModel.fromExamples(
          b.examples.map(([description, accountId]) => ({ description, accountId })),
        );
        const refused = new Set(b.refused.map((i) => `e${i}`));
        const t = new TxnSearch(
          prepareTxn(txn('t', DAY, b.txn.text, b.txn.amount, b.txn.credit ? 'credit' : 'debit'), model),
          refused,
          ranker,
          window,
          b.review,
        );
        window.readThrough(t.day + W);

        // every candidate scored: right direction, within 30 days, not refused, past 50 units only the same day and text
        const limit = amountLimitMinor(b.digits);
        const held: HeldEntry[] = [];
        for (let d = t.day - W; d <= t.day + W; d++) {
          const bucket = window.day(d);
          if (bucket) held.push(...bucket.byAmount[t.direction], ...bucket.huge[t.direction]);
        }
        const expected: ScoredPair[] = held
          .filter((e) => {
            if (refused.has(e.p.entry.id)) return false;
            const diff =
              e.p.amountMinor > t.p.amountMinor ? e.p.amountMinor - t.p.amountMinor : t.p.amountMinor - e.p.amountMinor;
            return diff < limit || (e.day === t.day && e.p.memo.normalised === t.p.description.normalised);
          })
          .map((e) => scorePrepared(t.p, e.p, b.digits))
          .filter((p) => p.total >= b.review)
          .sort(compareForAssignment);

        const found: [string, number][] = [];
        for (let c = t.best(); c; c = t.best()) {
          found.push([c.entryId, c.total]);
          c.entry.used = true;
        }
        expect(found).toEqual(expected.map((p) => [p.entryId, p.total]));
      }),
      { numRuns: 500 },
    );
  });

  it('when the best pair is perfect, then the rest of the window is not even bounded', () => {
    const stats = emptyStats();
    const ranker = new PairRanker(2, stats);
    const entries = byDate([
      entry('perfect', DAY, 'Tesco', 42_00n),
      ...Array.from({ length: 30 }, (_, i) =>
        entry(`other${i}`, addDays(DAY, (i % 7) - 3), 'Shell', BigInt(30_00 + i * 50)),
      ),
    ]);
    const window = new EntryWindow(entries, ranker, -Infinity);
    window.readThrough(Infinity);
    const t = new TxnSearch(prepareTxn(txn('t', DAY, 'Tesco', 42_00n)), undefined, ranker, window, 60);
    expect(t.best()?.entryId).toBe('perfect');
    expect(stats.pairsBounded).toBeLessThan(5);
  });

  it('when resolved, then it is settled and finds nothing more', () => {
    const ranker = new PairRanker(2, emptyStats());
    const window = new EntryWindow([entry('e', DAY, 'Tesco', 42_00n)], ranker, -Infinity);
    window.readThrough(Infinity);
    const t = new TxnSearch(prepareTxn(txn('t', DAY, 'Tesco', 42_00n)), undefined, ranker, window, 60);
    t.resolve();
    expect(t.resolved).toBe(true);
    expect(t.descriptions.size).toBe(0);
  });
});
