import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../dates.ts';
import { prepareTxn, scorePrepared } from './pair.ts';
import { PayeeModel } from './payee-model.ts';
import { dayNumber, scoreAmount, scoreDays } from './scoring.ts';
import {
  ALL_ELSE,
  boundOf,
  CANDIDATE_WINDOW_DAYS,
  emptyStats,
  leastAmountScore,
  levelWithinReach,
  PairRanker,
  type HeldEntry,
} from './sweep-ranking.ts';
import { TxnSearch } from './sweep-txn.ts';
import { EntryWindow } from './sweep-window.ts';
import { byDate, entry, txn, USD } from './test-books.ts';
import type { AccountType, BankTxn, CandidateEntry } from './types.ts';

/** The entries as the sweep holds them (read through an `EntryWindow`), in the order given. */
function held(ranker: PairRanker, entries: readonly CandidateEntry[]): HeldEntry[] {
  const window = new EntryWindow(byDate(entries), ranker, -Infinity);
  window.readThrough(Infinity);
  const byId = new Map<string, HeldEntry>();
  for (const d of new Set(entries.map((e) => dayNumber(e.entryDate)))) {
    const day = window.day(d)!;
    for (const e of [...day.byAmount.DEBIT, ...day.byAmount.CREDIT, ...day.huge.DEBIT, ...day.huge.CREDIT])
      byId.set(e.p.entry.id, e);
  }
  return entries.map((e) => byId.get(e.id)!);
}

function search(ranker: PairRanker, t: BankTxn, model?: PayeeModel, refused?: ReadonlySet<string>): TxnSearch {
  return new TxnSearch(prepareTxn(t, model), refused, ranker, new EntryWindow([], ranker, -Infinity), 60);
}

const words = ['tesco', 'stores', 'rent', 'gym', 'card', 'payment', '123456', 'café'];
const text = fc.array(fc.constantFrom(...words), { maxLength: 3 }).map((w) => w.join(' '));
const amount = fc.oneof(
  fc.bigInt({ min: 1n, max: 20_000n }),
  fc.constantFrom(1000n, 5999n, 6000n, 10n ** 15n, 10n ** 17n),
);
const pairs = fc.record({
  digits: fc.constantFrom(0, 2, 3),
  txn: fc.record({ day: fc.nat(CANDIDATE_WINDOW_DAYS), text, amount, credit: fc.boolean() }),
  entry: fc.record({
    day: fc.nat(CANDIDATE_WINDOW_DAYS),
    memo: fc.option(text, { nil: null }),
    amount,
    counters: fc.array(
      fc.tuple(fc.constantFrom('a', 'b'), fc.constantFrom<AccountType>('EXPENSE', 'INCOME', 'ASSET', 'EQUITY')),
      { maxLength: 2 },
    ),
  }),
  examples: fc.array(fc.tuple(text, fc.constantFrom('a', 'b')), { maxLength: 4 }),
});

describe('PairRanker', () => {
  it('when two amounts differ by anything up to past the limit, then the amount score in plain numbers is scoreAmount’s', () => {
    fc.assert(
      fc.property(fc.constantFrom(0, 2, 3), fc.integer({ min: 0, max: 60_000_000 }), (digits, diff) => {
        const ranker = new PairRanker(digits, emptyStats());
        expect(ranker.amountScore(diff)).toBe(scoreAmount(1_000_000_000n, 1_000_000_000n + BigInt(diff), digits));
      }),
      { numRuns: 2000 },
    );
  });

  it('when any pair is ranked, then its total and amount score are the scoring’s and its bound is never below its total', () => {
    fc.assert(
      fc.property(pairs, (b) => {
        const stats = emptyStats();
        const ranker = new PairRanker(b.digits, stats);
        const model = PayeeModel.fromExamples(
          b.examples.map(([description, accountId]) => ({ description, accountId })),
        );
        const t = search(
          ranker,
          txn('t', addDays('2024-01-01', b.txn.day), b.txn.text, b.txn.amount, b.txn.credit ? 'credit' : 'debit'),
          model,
        );
        const [e] = held(ranker, [
          entry('e', addDays('2024-01-01', b.entry.day), b.entry.memo, b.entry.amount, t.direction, b.entry.counters),
        ]);
        const scored = scorePrepared(t.p, e!.p, b.digits);
        const bound = boundOf(ranker.partOf(t, e!));
        expect(bound).toBeGreaterThanOrEqual(scored.total);
        const ranked = ranker.rankAtLeast(t, e!, 0)!;
        expect([ranked.total, ranked.amount, ranked.dateDiffDays]).toEqual([
          scored.total,
          scored.breakdown.amount,
          scored.dateDiffDays,
        ]);
        // a pair whose bound is below the level asked for is not ranked (its description is not compared)
        const compared = stats.descriptionsCompared;
        expect(ranker.rankAtLeast(t, e!, bound + 1)).toBeUndefined();
        expect(stats.descriptionsCompared).toBe(compared);
      }),
      { numRuns: 1000 },
    );
  });

  it('when a pair is refused, or 50 units or more apart on another day or with another text, then it is not comparable', () => {
    const ranker = new PairRanker(USD, emptyStats());
    const t = search(ranker, txn('t', '2024-03-10', 'Tesco', 200_00n), undefined, new Set(['refused']));
    const [near, refused, farSameDaySameText, farNextDay, farOtherText] = held(ranker, [
      entry('near', '2024-03-10', 'Shell', 199_00n),
      entry('refused', '2024-03-10', 'Tesco', 200_00n),
      entry('far-same', '2024-03-10', 'TESCO', 150_00n),
      entry('far-next-day', '2024-03-11', 'Tesco', 150_00n),
      entry('far-other-text', '2024-03-10', 'Tesco stores', 150_00n),
    ]);
    expect([near, refused, farSameDaySameText, farNextDay, farOtherText].map((e) => ranker.comparable(t, e!))).toEqual([
      true,
      false,
      true,
      false,
      false,
    ]);
  });

  it('when the amounts are 50 units or more apart, then only a far-too search reaches them; nearer, the amount score decides', () => {
    const ranker = new PairRanker(USD, emptyStats());
    expect([ranker.reaches(50_00, 0, false), ranker.reaches(50_00, 0, true)]).toEqual([false, true]);
    expect([ranker.reaches(25_00, 50, false), ranker.reaches(25_00, 51, false)]).toEqual([true, false]);
    expect(ranker.reaches(0, 100, false)).toBe(true);
  });
});

describe('the reach of a level', () => {
  it('when the level, the days apart and the amount score are any, then the best bound reaches the level exactly when the amount score is at least leastAmountScore', () => {
    const wrong: string[] = [];
    for (const allElse of [ALL_ELSE, ALL_ELSE - 5 * 100, ALL_ELSE - 5 * 37]) {
      for (let level = 0; level <= 101; level++) {
        for (let distance = 0; distance <= CANDIDATE_WINDOW_DAYS; distance++) {
          const date = 25 * scoreDays(distance);
          const best = (a: number) => Math.floor((40 * a + date + allElse) / 100);
          if (levelWithinReach(level, distance, allElse) !== best(100) >= level)
            wrong.push(`reach ${level} ${distance}`);
          const least = leastAmountScore(level, distance, allElse);
          for (let a = 0; a <= 100; a++)
            if (best(a) >= level !== a >= least) wrong.push(`least ${allElse} ${level} ${distance} ${a}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
