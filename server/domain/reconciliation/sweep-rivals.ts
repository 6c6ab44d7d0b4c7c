import { compareForAssignment } from './assignment.ts';
import {
  ALL_ELSE,
  CANDIDATE_WINDOW_DAYS,
  leastAmountScore,
  levelWithinReach,
  type Candidate,
  type HeldEntry,
  type PairRanker,
  type SweepTxn,
} from './sweep-ranking.ts';
import { firstAtLeast, type Day } from './sweep-window.ts';

const W = CANDIDATE_WINDOW_DAYS;

/**
 * The unsettled transactions read so far, by day: where an entry looks for the transaction that
 * would take it from the pair at hand (`bestOfEntry`).
 */
export class OpenTxns {
  private readonly byDay = new Map<number, Day<SweepTxn>>();
  private readonly ranker: PairRanker;

  constructor(ranker: PairRanker) {
    this.ranker = ranker;
  }

  /** A day's transactions, sorted by amount (see `sortByAmount`). */
  add(day: number, txns: Day<SweepTxn>): void {
    this.byDay.set(day, txns);
  }

  /** Lets go of the days before `day` (no entry still held can reach them). */
  forgetBefore(day: number): void {
    for (const d of this.byDay.keys()) if (d < day) this.byDay.delete(d);
  }

  /**
   * The entry's best pair among the free transactions read so far, `offered` or better: only
   * transactions whose bound with the entry reaches `offered`'s total are ranked (the same ranges
   * of amount around the entry's as `TxnSearch` takes around a transaction's). Once found it is
   * kept on the entry until its transaction settles.
   */
  bestOfEntry(e: HeldEntry, offered: Candidate): Candidate {
    if (e.best && !e.best.txn.resolved) return e.best;
    const ranker = this.ranker;
    let best = offered;
    const challenge = (t: SweepTxn) => {
      if (t.resolved || t === offered.txn || !ranker.comparable(t, e)) return;
      const c = ranker.rankAtLeast(t, e, best.total);
      if (c && compareForAssignment(c, best) < 0) best = c;
    };
    const level = offered.total;
    for (let distance = 0; distance <= W && levelWithinReach(level, distance, ALL_ELSE); distance++) {
      const least = leastAmountScore(level, distance, ALL_ELSE);
      for (let k = -distance; k <= distance; k += 2 * distance || 1) {
        const day = this.byDay.get(e.day + k);
        if (!day) continue;
        for (const t of day.huge[e.direction]) challenge(t);
        const list = day.byAmount[e.direction];
        if (e.huge) {
          for (const t of list) challenge(t);
          continue;
        }
        const farToo = k === 0 && least <= 0;
        const start = firstAtLeast(list, e.amount);
        for (let i = start; i < list.length && ranker.reaches(list[i]!.amount - e.amount, least, farToo); i++)
          challenge(list[i]!);
        for (let i = start - 1; i >= 0 && ranker.reaches(e.amount - list[i]!.amount, least, farToo); i--)
          challenge(list[i]!);
      }
    }
    e.best = best;
    return best;
  }
}
