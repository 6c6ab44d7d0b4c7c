import type { PreparedDescription } from './description.ts';
import { scoreDescriptionPrepared } from './description.ts';
import type { PreparedEntry, PreparedTxn } from './pair.ts';
import { scoreHistoryPrepared } from './history-score.ts';
import { amountLimitMinor, scoreAmount, scoreDays } from './scoring.ts';
import type { Direction } from './types.ts';

/**
 * The arithmetic by which the date sweep (`sweep.ts`) ranks pairs without scoring them whole: a
 * pair's total without its description (everything else exact, in plain numbers), the bound that
 * gives with the description taken as 100, and the least amount score with which a pair so many
 * days apart can still reach a level. The sweep's pieces share the shapes declared here.
 */

/** Entries dated within this many days of a bank transaction are compared with it. */
export const CANDIDATE_WINDOW_DAYS = 30;

/** The days of a transaction's window: 30 before it, its own, 30 after. */
export const WINDOW_SPAN = 2 * CANDIDATE_WINDOW_DAYS + 1;

/** Amounts up to this many minor units are compared in plain numbers, exactly; beyond, in bigint. */
const SAFE = Number.MAX_SAFE_INTEGER / 128;

/** The hundredths a pair's total gets besides amount and date when all else is perfect (description, business, history, rounding). */
export const ALL_ELSE = 20 * 100 + 10 * 100 + 5 * 100 + 50;

/** The date score by days apart, within the window. */
const DATE_SCORES = Array.from({ length: CANDIDATE_WINDOW_DAYS + 1 }, (_, d) => scoreDays(d));

/** The work a sweep does: pairs bounded and ranked exactly, descriptions compared, entries read and held at most. */
export interface SweepStats {
  pairsBounded: number;
  pairsRanked: number;
  descriptionsCompared: number;
  entriesRead: number;
  mostEntriesHeld: number;
}

export function emptyStats(): SweepStats {
  return { pairsBounded: 0, pairsRanked: 0, descriptionsCompared: 0, entriesRead: 0, mostEntriesHeld: 0 };
}

/** An entry the sweep holds, with what ranking needs of it computed once. */
export interface HeldEntry {
  readonly p: PreparedEntry;
  readonly day: number;
  readonly direction: Direction;
  /** the amount in minor units as a number; exact unless `huge` */
  readonly amount: number;
  readonly huge: boolean;
  /** taken by a match */
  used: boolean;
  /** once no transaction still to come can beat it: its best pair among the free transactions */
  best: Candidate | undefined;
}

/** A bank transaction in the sweep, as ranking and the walk see it (`TxnSearch`). */
export interface SweepTxn {
  readonly p: PreparedTxn;
  readonly day: number;
  /** the direction of the entry line it needs */
  readonly direction: Direction;
  readonly amount: number;
  readonly huge: boolean;
  /** whether its payee has any learnt history (else its history score is 0 with every entry) */
  readonly hasHistory: boolean;
  /** entry ids refused before: never paired */
  readonly refused: ReadonlySet<string> | undefined;
  /** settled: matched, or left unmatched */
  readonly resolved: boolean;
  /** description scores by the entry memo's prepared text (shared between equal memos) */
  readonly descriptions: Map<PreparedDescription, number>;
  /** its best pair with a free entry, or undefined when it has none at the review threshold or above */
  best(): Candidate | undefined;
  /**
   * its best pair with a free entry when that pair's total is `floor` or more, else undefined;
   * the search goes on from where it stopped, so asking again with a lower floor finds the rest
   */
  bestDownTo(floor: number): Candidate | undefined;
  /** marks it settled and lets go of what its search holds */
  resolve(): void;
}

/**
 * A ranked pair, as much of it as ranking needs (the full `ScoredPair` is built for the pairs
 * taken). `breakdown` is the record itself, so that `compareForAssignment` ranks it like any pair.
 */
export class Candidate {
  readonly total: number;
  readonly dateDiffDays: number;
  readonly amount: number;
  readonly txn: SweepTxn;
  readonly entry: HeldEntry;

  constructor(total: number, dateDiffDays: number, amount: number, txn: SweepTxn, entry: HeldEntry) {
    this.total = total;
    this.dateDiffDays = dateDiffDays;
    this.amount = amount;
    this.txn = txn;
    this.entry = entry;
  }

  get breakdown(): { readonly amount: number } {
    return this;
  }

  get txnId(): string {
    return this.txn.p.txn.id;
  }

  get entryId(): string {
    return this.entry.p.entry.id;
  }
}

/** A pair's bound: its total with the description taken as 100, from its hundredths without it (`PairRanker.partOf`). */
export function boundOf(part: number): number {
  return Math.floor((part + 20 * 100) / 100);
}

/** A pair's total, from its hundredths without the description and its description score (as `totalScore` rounds). */
export function totalOf(part: number, description: number): number {
  return Math.floor((part + 20 * description) / 100);
}

/**
 * Whether a pair this many days apart can reach `level` at all, with `allElse` (see `ALL_ELSE`)
 * the most the description, business and history scores can add.
 */
export function levelWithinReach(level: number, distance: number, allElse: number): boolean {
  return 40 * 100 + 25 * DATE_SCORES[distance]! + allElse >= 100 * level;
}

/** The least amount score with which a pair this many days apart reaches `level` (see `levelWithinReach`). */
export function leastAmountScore(level: number, distance: number, allElse: number): number {
  return Math.ceil((100 * level - allElse - 25 * DATE_SCORES[distance]!) / 40);
}

/** Ranks pairs in one currency (`digits`), counting its work in `stats`. */
export class PairRanker {
  readonly digits: number;
  /** 50 units in minor units: the amount score is 0 at this difference or beyond */
  readonly limitBig: bigint;
  readonly limit: number;
  /** whether the limit itself fits plain numbers (else every amount is compared in bigint) */
  private readonly numeric: boolean;
  readonly stats: SweepStats;
  /** the amount score of the pair last passed to `partOf` */
  lastAmount = 0;

  constructor(digits: number, stats: SweepStats) {
    this.digits = digits;
    this.limitBig = amountLimitMinor(digits);
    this.limit = Number(this.limitBig);
    this.numeric = this.limit <= SAFE;
    this.stats = stats;
  }

  /** Whether an amount is compared in bigint, pair by pair, rather than in plain numbers. */
  isHuge(amount: number): boolean {
    return !this.numeric || !(amount <= SAFE);
  }

  /** The amount score of a difference, as `scoreAmount` rounds it, in plain numbers. */
  amountScore(diff: number): number {
    if (diff === 0) return 100;
    if (diff >= this.limit) return 0;
    return Math.min(99, Math.floor((100 * (this.limit - diff) + this.limit - 1) / this.limit));
  }

  /**
   * Whether a pair whose amounts are `diff` apart is within reach of `least` (see
   * `leastAmountScore`): 50 units or more apart, only when `farToo` (the same day, at a level that
   * needs no amount score).
   */
  reaches(diff: number, least: number, farToo: boolean): boolean {
    return diff >= this.limit ? farToo : this.amountScore(diff) >= least;
  }

  /** Whether the pair is a candidate at all: not refused, and 50 units or more apart only on the same day with the same text. */
  comparable(t: SweepTxn, e: HeldEntry): boolean {
    if (t.refused?.has(e.p.entry.id)) return false;
    let far: boolean;
    if (t.huge || e.huge) {
      const diff = t.p.amountMinor - e.p.amountMinor;
      far = (diff < 0n ? -diff : diff) >= this.limitBig;
    } else far = Math.abs(t.amount - e.amount) >= this.limit;
    return !far || (e.day === t.day && e.p.memo.normalised === t.p.description.normalised);
  }

  /** The pair's total in hundredths without the description (as `totalScore` adds them up, with its rounding half). */
  partOf(t: SweepTxn, e: HeldEntry): number {
    this.stats.pairsBounded++;
    const a =
      t.huge || e.huge
        ? scoreAmount(t.p.amountMinor, e.p.amountMinor, this.digits)
        : this.amountScore(Math.abs(t.amount - e.amount));
    this.lastAmount = a;
    const history = t.hasHistory ? scoreHistoryPrepared(t.p.history, e.p.counterAccountIds) : 0;
    return 40 * a + 25 * DATE_SCORES[Math.abs(t.day - e.day)]! + 10 * e.p.business[t.p.txn.type] + 5 * history + 50;
  }

  /** The pair's description score, compared once per transaction and memo text. */
  descriptionOf(t: SweepTxn, e: HeldEntry): number {
    let description = t.descriptions.get(e.p.memo);
    if (description === undefined) {
      this.stats.descriptionsCompared++;
      t.descriptions.set(e.p.memo, (description = scoreDescriptionPrepared(t.p.description, e.p.memo)));
    }
    return description;
  }

  /** The pair ranked exactly when its bound reaches `atLeast`. */
  rankAtLeast(t: SweepTxn, e: HeldEntry, atLeast: number): Candidate | undefined {
    const part = this.partOf(t, e);
    if (boundOf(part) < atLeast) return undefined;
    this.stats.pairsRanked++;
    return new Candidate(totalOf(part, this.descriptionOf(t, e)), Math.abs(t.day - e.day), this.lastAmount, t, e);
  }
}
