import type { PreparedDescription } from './description.ts';
import type { PreparedTxn } from './pair.ts';
import { bestHistoryScore, EMPTY_HISTORY_EVIDENCE } from './history-score.ts';
import { expectedLineDirection } from './scoring.ts';
import { AssignmentHeap } from './sweep-heap.ts';
import {
  ALL_ELSE,
  boundOf,
  Candidate,
  CANDIDATE_WINDOW_DAYS,
  leastAmountScore,
  levelWithinReach,
  totalOf,
  WINDOW_SPAN,
  type HeldEntry,
  type PairRanker,
  type SweepTxn,
} from './sweep-ranking.ts';
import { firstAtLeast, type Day, type EntryWindow } from './sweep-window.ts';
import type { Direction } from './types.ts';

const W = CANDIDATE_WINDOW_DAYS;

/**
 * One bank transaction's search for its best pair. Pairs are looked at from the top down, level
 * by level (100 to the review threshold), only those whose bound (the exact amount, date, business
 * and history scores with the description taken as 100) reaches the level. Each day's entries are
 * sorted by amount, so the pairs whose bound can reach a level are a range around the
 * transaction's amount (with the business score taken as 100 and the history as the best the
 * payee gives any account: 0 for a new payee), widened as the level falls: a transaction matched
 * at 95 never looks at most of its window.
 */
export class TxnSearch implements SweepTxn {
  readonly p: PreparedTxn;
  readonly day: number;
  readonly direction: Direction;
  readonly amount: number;
  readonly huge: boolean;
  readonly hasHistory: boolean;
  /** `ALL_ELSE` with the history score this transaction's payee can give at best (0 for a payee not seen before) */
  readonly allElse: number;
  readonly refused: ReadonlySet<string> | undefined;
  resolved = false;
  /** every candidate whose bound reaches this level has been ranked, or set aside in `pending` */
  level = 101;
  descriptions = new Map<PreparedDescription, number>();
  private readonly ranker: PairRanker;
  private readonly window: EntryWindow;
  private readonly review: number;
  /** per day offset: that day's entries, once read */
  private days: (Day<HeldEntry> | undefined)[] | undefined;
  /** per day offset: the amount-sorted range [down + 1, up) looked at so far (`up` -1: not yet) */
  private up = new Int32Array(WINDOW_SPAN).fill(-1);
  private down = new Int32Array(WINDOW_SPAN);
  /** candidates seen below the level, by their bound or their total: looked at again at that level */
  private pending: (HeldEntry[] | undefined)[] = [];
  /** candidates ranked at their level or above */
  private readonly heap = new AssignmentHeap<Candidate>();

  constructor(
    p: PreparedTxn,
    refused: ReadonlySet<string> | undefined,
    ranker: PairRanker,
    window: EntryWindow,
    review: number,
  ) {
    this.p = p;
    this.day = p.day;
    this.direction = expectedLineDirection(p.txn.type);
    this.amount = p.amountNumber;
    this.huge = ranker.isHuge(p.amountNumber);
    this.hasHistory =
      p.history !== EMPTY_HISTORY_EVIDENCE && (p.history.exactAccounts.size > 0 || p.history.confidence.size > 0);
    this.allElse = ALL_ELSE - 5 * (100 - (this.hasHistory ? bestHistoryScore(p.history) : 0));
    this.refused = refused;
    this.ranker = ranker;
    this.window = window;
    this.review = review;
  }

  best(): Candidate | undefined {
    return this.bestDownTo(this.review);
  }

  bestDownTo(floor: number): Candidate | undefined {
    for (;;) {
      while (this.heap.size > 0 && this.heap.top!.entry.used) this.heap.pop();
      const top = this.heap.top;
      // what is not ranked yet has a bound, hence a total, below the level (and every ranked pair is at it or above)
      if (top && top.total >= this.level) return top.total >= floor ? top : undefined;
      if (this.level <= floor) return undefined;
      this.level -= 1;
      this.lookAt(this.level);
    }
  }

  resolve(): void {
    this.resolved = true;
    this.days = undefined;
    this.up = this.down = new Int32Array(0);
    this.pending = [];
    this.heap.clear();
    this.descriptions = new Map();
  }

  /** Looks at every candidate whose bound may reach `level` (all above it are done). */
  private lookAt(level: number): void {
    const set = this.pending[level];
    if (set) {
      this.pending[level] = undefined;
      for (const e of set) if (!e.used) this.place(e, level);
    }
    const window = (this.days ??= Array.from({ length: WINDOW_SPAN }, (_, slot) =>
      this.window.day(this.day + slot - W),
    ));
    if (level === 100) {
      // amounts too large for plain numbers are bounded pair by pair, at the first look
      for (const bucket of window) {
        if (!bucket) continue;
        for (const e of bucket.huge[this.direction]) this.consider(e, level);
        if (this.huge) for (const e of bucket.byAmount[this.direction]) this.consider(e, level);
      }
    }
    if (this.huge) return;
    for (let distance = 0; distance <= W && levelWithinReach(level, distance, this.allElse); distance++) {
      const least = leastAmountScore(level, distance, this.allElse);
      for (let k = -distance; k <= distance; k += 2 * distance || 1) {
        const bucket = window[k + W];
        if (bucket) this.lookAtDay(bucket.byAmount[this.direction], k, least, level);
      }
    }
  }

  /** Widens the range looked at in one day's entries (`k` days from the transaction) to those within reach of `least`. */
  private lookAtDay(list: readonly HeldEntry[], k: number, least: number, level: number): void {
    const slot = k + W;
    let up = this.up[slot]!;
    let down: number;
    if (up < 0) {
      up = firstAtLeast(list, this.amount);
      down = up - 1;
    } else down = this.down[slot]!;
    // 50 units or more apart, only the same day is a candidate (and only with the same description)
    const farToo = k === 0 && least <= 0;
    for (; up < list.length && this.ranker.reaches(list[up]!.amount - this.amount, least, farToo); up++)
      this.consider(list[up]!, level);
    for (; down >= 0 && this.ranker.reaches(this.amount - list[down]!.amount, least, farToo); down--)
      this.consider(list[down]!, level);
    this.up[slot] = up;
    this.down[slot] = down;
  }

  private consider(e: HeldEntry, level: number): void {
    if (!e.used && this.ranker.comparable(this, e)) this.place(e, level);
  }

  /**
   * A candidate at `level`: into the heap when its total reaches the level, else set aside at its
   * bound (the description not compared yet) or its total, whichever is known.
   */
  private place(e: HeldEntry, level: number): void {
    const ranker = this.ranker;
    const part = ranker.partOf(this, e);
    const amount = ranker.lastAmount;
    let at = boundOf(part);
    if (at >= level) at = totalOf(part, ranker.descriptionOf(this, e));
    if (at >= level) {
      ranker.stats.pairsRanked++;
      this.heap.push(new Candidate(at, Math.abs(this.day - e.day), amount, this, e));
    } else if (at >= this.review) (this.pending[at] ??= []).push(e);
  }
}
