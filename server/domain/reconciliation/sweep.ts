import { compareForAssignment } from './assignment.ts';
import { prepareTxn, scorePrepared } from './pair.ts';
import type { ScoredPair } from './pair.ts';
import type { PayeeModel } from './payee-model.ts';
import { dayNumber, DEFAULT_THRESHOLDS, scoreDays, validateThresholds } from './scoring.ts';
import { OpenTxns } from './sweep-rivals.ts';
import {
  CANDIDATE_WINDOW_DAYS,
  emptyStats,
  PairRanker,
  type Candidate,
  type HeldEntry,
  type SweepStats,
  type SweepTxn,
} from './sweep-ranking.ts';
import { TxnSearch } from './sweep-txn.ts';
import { EntryWindow, newDay, sortByAmount } from './sweep-window.ts';
import type { BankTxn, CandidateEntry, Thresholds } from './types.ts';

/**
 * A whole reconciliation run as one walk through time, holding only the entries of a few weeks.
 *
 * THE RULE, for a run's bank transactions and the account's posted entries:
 *   1. A candidate pair is an entry whose line on the account goes the way the transaction needs
 *      (money out of the bank: a CREDIT line), dated at most 30 days from the transaction, not
 *      refused for it before, and, 50 units or more apart, only on the same day with the same
 *      normalised description.
 *   2. Every candidate pair is scored (README.md: amount, date, description, business, history).
 *   3. Pairs are taken one to one, best first in `compareForAssignment`'s order (total, then fewer
 *      days apart, then amount score, then ids): a pair is taken unless one ranked before it took
 *      its transaction or its entry. The passes, best to weakest:
 *        sure        total at autoAccept or above, taken as `auto_accepted`;
 *        for review  total at review or above, below autoAccept, taken as `pending_review`.
 *      A transaction no pass pairs stays unmatched; a pair below review is never taken.
 * Taking every sure pair before any pair for review is that one greedy order cut at a total, so
 * the two passes give exactly the greedy assignment.
 *
 * Why a walk gives the greedy result: call a pair locally best when it ranks above every other
 * pair of its transaction and of its entry (among those still free). Greedy takes such a pair (no
 * better pair can take its ends first), and what greedy does with the rest is greedy on the rest,
 * so taking locally best pairs in any order gives exactly greedy's assignment. The order of
 * `compareForAssignment` is total, so a chain "the pair this transaction prefers is beaten at its
 * entry by another transaction's pair, which prefers ..." climbs strictly and ends at a locally
 * best pair. A transaction's pairs are all known once the entries up to 30 days after it are read;
 * an entry's, once no transaction still to come can reach it or beat the pair at hand there. So
 * the walk reads transactions day by day and entries up to 30 days ahead, settles what can be
 * settled, and forgets entries no unsettled transaction can reach. A transaction looks for its
 * pair in the passes in turn (`bestOf`): its sure pairs first, then those for review.
 *
 * The pieces: `PairRanker` (sweep-ranking.ts) bounds and ranks pairs; `EntryWindow`
 * (sweep-window.ts) holds the entries by day; `TxnSearch` (sweep-txn.ts) finds a transaction's best
 * pair level by level; `OpenTxns` (sweep-rivals.ts) finds an entry's; `Walk` below settles pairs
 * day by day.
 */

const W = CANDIDATE_WINDOW_DAYS;

/** A pass of the matching: it takes the pairs whose total reaches its floor, with its status. */
interface MatchPass {
  readonly name: 'sure' | 'for review';
  readonly floor: number;
  readonly status: 'auto_accepted' | 'pending_review';
}

/** The passes, best to weakest. */
function matchPasses(thresholds: Thresholds): readonly MatchPass[] {
  return [
    { name: 'sure', floor: thresholds.autoAccept, status: 'auto_accepted' },
    { name: 'for review', floor: thresholds.review, status: 'pending_review' },
  ];
}

export interface SweepOptions {
  /** minor-unit digits of the statement account's currency */
  readonly digits: number;
  readonly thresholds?: Thresholds;
  readonly payeeModel?: PayeeModel;
  /** entry ids refused before, per transaction id: never paired again */
  readonly rejected?: ReadonlyMap<string, ReadonlySet<string>>;
}

interface SweepMatch extends ScoredPair {
  /** the matched entry's counter accounts, each once (for learning from the match) */
  readonly counterAccountIds: readonly string[];
}

export interface SweepResult {
  /** assigned pairs with status auto_accepted or pending_review, highest ranked first */
  readonly matches: SweepMatch[];
  /** transactions left without a match, in input order */
  readonly unmatchedTxnIds: string[];
  /** the work done: pairs bounded and ranked exactly, descriptions compared, entries read and held at most */
  readonly stats: SweepStats;
}

/**
 * Matches bank transactions with entries read in date order (`entries` is read lazily, as far as
 * 30 days past the transaction being looked at; entries outside every window are ignored). The
 * result equals scoring every candidate pair and assigning greedily (see the module comment).
 */
export function matchInDateOrder(
  txns: readonly BankTxn[],
  entries: Iterable<CandidateEntry>,
  options: SweepOptions,
): SweepResult {
  const walk = new Walk(txns, entries, options);
  try {
    walk.run();
  } finally {
    walk.close();
  }
  const matches = walk.matches.sort(compareForAssignment);
  const matched = new Set(matches.map((m) => m.txnId));
  return { matches, unmatchedTxnIds: txns.filter((t) => !matched.has(t.id)).map((t) => t.id), stats: walk.stats };
}

/** The walk through time: transactions read a day at a time, entries up to 30 days ahead of them. */
class Walk {
  readonly matches: SweepMatch[] = [];
  readonly stats = emptyStats();
  private readonly txns: readonly BankTxn[];
  private readonly options: SweepOptions;
  private readonly thresholds: Thresholds;
  private readonly passes: readonly MatchPass[];
  /** the pass in which `bestOf` found the pair it answered last */
  private passOfBest: MatchPass;
  private readonly ranker: PairRanker;
  private readonly window: EntryWindow;
  private readonly open: OpenTxns;
  private readonly txnDays: number[];
  /** the transactions by date, then as given (positions in `txns`) */
  private readonly order: Int32Array;
  /** the transactions read so far, by position in `order`; a settled one is dropped */
  private readonly read: (SweepTxn | undefined)[] = [];
  /** the day of the next transaction to read (Infinity when all are read) */
  private nextTxnDay = Infinity;

  constructor(txns: readonly BankTxn[], entries: Iterable<CandidateEntry>, options: SweepOptions) {
    this.txns = txns;
    this.options = options;
    this.thresholds = validateThresholds(options.thresholds ?? DEFAULT_THRESHOLDS);
    this.passes = matchPasses(this.thresholds);
    this.passOfBest = this.passes[0]!;
    this.ranker = new PairRanker(options.digits, this.stats);
    const days = (this.txnDays = txns.map((t) => dayNumber(t.date)));
    this.order = Int32Array.from(txns.keys()).sort((a, b) => days[a]! - days[b]! || a - b);
    this.window = new EntryWindow(entries, this.ranker, this.order.length > 0 ? days[this.order[0]!]! - W : Infinity);
    this.open = new OpenTxns(this.ranker);
  }

  run(): void {
    const { order, txnDays, read } = this;
    let firstOpen = 0;
    while (read.length < order.length) {
      const day = txnDays[order[read.length]!]!;
      this.readTxnsOf(day);
      this.nextTxnDay = read.length < order.length ? txnDays[order[read.length]!]! : Infinity;
      this.window.readThrough(day + W);
      for (let i = firstOpen; i < read.length; i++) {
        const t = read[i];
        if (t) while (!t.resolved && this.step(t));
      }
      for (let i = firstOpen; i < read.length; i++) if (read[i]?.resolved) read[i] = undefined;
      while (firstOpen < read.length && !read[firstOpen]) firstOpen++;
      // what no unsettled or coming transaction can reach is forgotten
      const firstOpenDay = firstOpen < read.length ? txnDays[order[firstOpen]!]! : Infinity;
      this.window.forgetBefore(Math.min(firstOpenDay, this.nextTxnDay) - W);
      // an entry asks for the transactions within 30 days of it; entries older than the floor are gone
      this.open.forgetBefore(this.window.floorDay - W);
    }
  }

  close(): void {
    this.window.close();
  }

  /** Reads the transactions of one day into the search. */
  private readTxnsOf(day: number): void {
    const { order, txnDays, read, options } = this;
    const today = newDay<SweepTxn>();
    while (read.length < order.length && txnDays[order[read.length]!] === day) {
      const t = this.txns[order[read.length]!]!;
      const search = new TxnSearch(
        prepareTxn(t, options.payeeModel),
        options.rejected?.get(t.id),
        this.ranker,
        this.window,
        this.thresholds.review,
      );
      (search.huge ? today.huge : today.byAmount)[search.direction].push(search);
      read.push(search);
    }
    sortByAmount(today);
    this.open.add(day, today);
  }

  /**
   * Settles the pair `t` leads to, if it can yet: true when a pair was taken or a transaction was
   * left unmatched, false when the chain stops at an entry a transaction still to come may take.
   */
  private step(t: SweepTxn): boolean {
    let current = t;
    for (;;) {
      const c = this.bestOf(current);
      if (!c) {
        current.resolve(); // no pass pairs it: unmatched
        return true;
      }
      if (c.entry.day + W >= this.nextTxnDay && c.total <= this.reachable(c.entry)) return false;
      const rival = this.open.bestOfEntry(c.entry, c);
      if (rival.txn === current) {
        this.take(current, c, this.passOfBest);
        return true;
      }
      current = rival.txn;
    }
  }

  /** A transaction's best free pair, looked for in the passes best to weakest (`passOfBest` says which found it). */
  private bestOf(t: SweepTxn): Candidate | undefined {
    for (const pass of this.passes) {
      const pair = t.bestDownTo(pass.floor);
      if (pair) {
        this.passOfBest = pass;
        return pair;
      }
    }
    return undefined;
  }

  /**
   * The highest total a transaction still to come can reach with the entry (dated on or after the
   * next transaction's day, so at least that far from it): a pair above it cannot be outranked at
   * this entry by what is not read yet.
   */
  private reachable(e: HeldEntry): number {
    const business = e.p.business[e.direction === 'CREDIT' ? 'debit' : 'credit'];
    return Math.floor(
      (40 * 100 + 25 * scoreDays(Math.max(0, this.nextTxnDay - e.day)) + 20 * 100 + 10 * business + 5 * 100 + 50) / 100,
    );
  }

  /** Takes the pair a pass found: the transaction is settled, the entry used. */
  private take(t: SweepTxn, match: Candidate, pass: MatchPass): void {
    const pair = scorePrepared(t.p, match.entry.p, this.ranker.digits, this.thresholds);
    // the ranking's arithmetic must be the scoring's, or the order taken was not the rule's
    if (pair.total !== match.total || pair.breakdown.amount !== match.amount)
      throw new Error(`reconciliation ranked ${match.total}, scored ${pair.total}`);
    if (pair.status !== pass.status)
      throw new Error(`reconciliation took a pair of ${pair.total} in the ${pass.name} pass`);
    this.matches.push({ ...pair, counterAccountIds: match.entry.p.counterAccountIds });
    match.entry.used = true;
    t.resolve();
  }
}
