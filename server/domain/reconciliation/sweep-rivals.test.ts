import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../dates.ts';
import { compareForAssignment } from './assignment.ts';
import { prepareTxn } from './pair.ts';
import { dayNumber } from './scoring.ts';
import { CANDIDATE_WINDOW_DAYS, emptyStats, PairRanker, type Candidate, type SweepTxn } from './sweep-ranking.ts';
import { OpenTxns } from './sweep-rivals.ts';
import { TxnSearch } from './sweep-txn.ts';
import { EntryWindow, newDay, sortByAmount } from './sweep-window.ts';
import { entry, txn } from './test-books.ts';
import type { BankTxn } from './types.ts';

const W = CANDIDATE_WINDOW_DAYS;
const DAY = '2024-06-01';
const words = ['tesco', 'stores', 'rent', 'card'];
const text = fc.array(fc.constantFrom(...words), { maxLength: 2 }).map((w) => w.join(' '));

function open(ranker: PairRanker, txns: readonly BankTxn[]): { open: OpenTxns; searches: TxnSearch[] } {
  const open = new OpenTxns(ranker);
  const window = new EntryWindow([], ranker, -Infinity);
  const searches = txns.map((t) => new TxnSearch(prepareTxn(t), undefined, ranker, window, 0));
  for (const d of new Set(searches.map((s) => s.day))) {
    const day = newDay<SweepTxn>();
    for (const s of searches) if (s.day === d) (s.huge ? day.huge : day.byAmount)[s.direction].push(s);
    sortByAmount(day);
    open.add(d, day);
  }
  return { open, searches };
}

function heldEntry(ranker: PairRanker, memo: string, amount: bigint) {
  const window = new EntryWindow([entry('e', DAY, memo, amount)], ranker, -Infinity);
  window.readThrough(Infinity);
  return window.day(dayNumber(DAY))!.byAmount.CREDIT[0] ?? window.day(dayNumber(DAY))!.huge.CREDIT[0]!;
}

describe('OpenTxns.bestOfEntry', () => {
  it('when an entry is offered a pair, then it finds the best of that pair and every free transaction within reach, as ranking them all would', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            day: fc.integer({ min: -W - 3, max: W + 3 }),
            text,
            amount: fc.oneof(fc.bigInt({ min: 9_000n, max: 11_000n }), fc.constantFrom(10n ** 17n)),
            credit: fc.boolean(),
            resolved: fc.boolean(),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        fc.nat(),
        text,
        fc.bigInt({ min: 9_000n, max: 11_000n }),
        (rows, pick, memo, amount) => {
          const ranker = new PairRanker(2, emptyStats());
          const txns = rows.map((r, i) =>
            txn(`t${i}`, addDays(DAY, r.day), r.text, r.amount, r.credit ? 'credit' : 'debit'),
          );
          const { open: openTxns, searches } = open(ranker, txns);
          const e = heldEntry(ranker, memo, amount);
          const within = (t: TxnSearch) =>
            t.direction === e.direction && Math.abs(t.day - e.day) <= W && ranker.comparable(t, e);
          const offeredBy = searches[pick % searches.length]!;
          fc.pre(within(offeredBy));
          rows.forEach((r, i) => {
            if (r.resolved && searches[i] !== offeredBy) searches[i]!.resolve();
          });
          const offered = ranker.rankAtLeast(offeredBy, e, 0)!;
          const expected = [
            offered,
            ...searches
              .filter((t) => !t.resolved && t !== offeredBy && within(t))
              .map((t) => ranker.rankAtLeast(t, e, 0)!),
          ].sort(compareForAssignment)[0]!;
          const best = openTxns.bestOfEntry(e, offered);
          expect([best.txnId, best.total]).toEqual([expected.txnId, expected.total]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('when the entry’s best is known and its transaction is still free, then it is kept; once that one settles, it is looked for again', () => {
    const ranker = new PairRanker(2, emptyStats());
    const { open: openTxns, searches } = open(ranker, [
      txn('near', DAY, 'Tesco', 100_00n),
      txn('nearer', DAY, 'Tesco', 100_01n),
    ]);
    const e = heldEntry(ranker, 'Tesco', 100_01n);
    const [near, nearer] = searches as [TxnSearch, TxnSearch];
    const offered: Candidate = ranker.rankAtLeast(near, e, 0)!;
    expect(openTxns.bestOfEntry(e, offered).txnId).toBe('nearer');
    expect(openTxns.bestOfEntry(e, offered).txnId).toBe('nearer');
    nearer.resolve();
    expect(openTxns.bestOfEntry(e, offered).txnId).toBe('near');
  });

  it('when days fall before the one given, then their transactions are no longer rivals', () => {
    const ranker = new PairRanker(2, emptyStats());
    const { open: openTxns, searches } = open(ranker, [
      txn('earlier', addDays(DAY, -1), 'Tesco', 100_01n),
      txn('today', DAY, 'Tesco', 100_00n),
    ]);
    const e = heldEntry(ranker, 'Tesco', 100_01n);
    const offered = ranker.rankAtLeast(searches[1]!, e, 0)!;
    openTxns.forgetBefore(dayNumber(DAY));
    expect(openTxns.bestOfEntry(e, offered).txnId).toBe('today');
  });
});
