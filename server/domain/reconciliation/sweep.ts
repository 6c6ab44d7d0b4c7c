import { compareForAssignment } from './assignment.ts';
import type { PreparedDescription } from './description.ts';
import { scoreDescriptionPrepared } from './description.ts';
import { prepareEntry, prepareTxn, scorePrepared } from './pair.ts';
import type { PreparedEntry, PreparedTxn, ScoredPair } from './pair.ts';
import { bestHistoryScore, EMPTY_HISTORY_EVIDENCE, scoreHistoryPrepared } from './payee-model.ts';
import type { PayeeModel } from './payee-model.ts';
import {
  amountLimitMinor,
  dayNumber,
  DEFAULT_THRESHOLDS,
  expectedLineDirection,
  scoreAmount,
  scoreDays,
  validateThresholds,
} from './scoring.ts';
import type { BankTxn, CandidateEntry, Direction, Thresholds } from './types.ts';

/**
 * A whole reconciliation run as one walk through time, holding only the entries of a few weeks.
 *
 * The rule it implements is the plain one: every candidate pair (an entry in the direction the
 * transaction needs, dated at most 30 days from it, not refused before, and — 50 units or more
 * apart — only on the same day with the same normalised description) is scored; pairs at the
 * review threshold or above are assigned greedily in `compareForAssignment`'s order.
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
 * settled, and forgets entries no unsettled transaction can reach.
 *
 * Within a transaction, pairs are looked at from the top down, level by level (100 to the review
 * threshold), only those whose upper bound (the exact amount, date, business and history scores
 * with the description taken as 100) reaches the level. Each day's entries are sorted by amount,
 * so the pairs whose bound can reach a level are a range around the transaction's amount (with the
 * business score taken as 100 and the history as the best the transaction's payee gives any
 * account: 0 for a new payee), widened as the level falls: a transaction matched at 95 never looks
 * at most of its window.
 */

/** Entries dated within this many days of a bank transaction are compared with it. */
export const CANDIDATE_WINDOW_DAYS = 30;

/** Amounts up to this many minor units are compared in plain numbers, exactly; beyond, in bigint. */
const SAFE = Number.MAX_SAFE_INTEGER / 128;

/** The hundredths a pair's total gets besides amount and date when all else is perfect (description, business, history, rounding). */
const ALL_ELSE = 20 * 100 + 10 * 100 + 5 * 100 + 50;

export interface SweepOptions {
  /** minor-unit digits of the statement account's currency */
  readonly digits: number;
  readonly thresholds?: Thresholds;
  readonly payeeModel?: PayeeModel;
  /** entry ids refused before, per transaction id: never paired again */
  readonly rejected?: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface SweepMatch extends ScoredPair {
  /** the matched entry's counter accounts, each once (for learning from the match) */
  readonly counterAccountIds: readonly string[];
}

export interface SweepResult {
  /** assigned pairs with status auto_accepted or pending_review, highest ranked first */
  readonly matches: SweepMatch[];
  /** transactions left without a match, in input order */
  readonly unmatchedTxnIds: string[];
  /** the work done: pairs bounded and ranked exactly, descriptions compared, entries read and held at most */
  readonly stats: {
    pairsBounded: number;
    pairsRanked: number;
    descriptionsCompared: number;
    entriesRead: number;
    mostEntriesHeld: number;
  };
}

interface HeldEntry {
  readonly p: PreparedEntry;
  readonly day: number;
  readonly direction: Direction;
  /** the amount in minor units as a number; exact unless `huge` */
  readonly amount: number;
  readonly huge: boolean;
  used: boolean;
  /** once no transaction still to come can beat it: its best pair among the free transactions */
  best: Candidate | undefined;
}

/** One day of entries, or of transactions: per direction, sorted by amount, and those too large for plain numbers. */
interface Day<T> {
  readonly byAmount: Record<Direction, T[]>;
  readonly huge: Record<Direction, T[]>;
}

function newDay<T>(): Day<T> {
  return { byAmount: { DEBIT: [], CREDIT: [] }, huge: { DEBIT: [], CREDIT: [] } };
}

/**
 * A ranked pair, as much of it as ranking needs (the full `ScoredPair` is built for the pairs
 * taken). `breakdown` is the record itself, so that `compareForAssignment` ranks it like any pair.
 */
class Candidate {
  readonly total: number;
  readonly dateDiffDays: number;
  readonly amount: number;
  readonly txn: TxnState;
  readonly entry: HeldEntry;

  constructor(total: number, dateDiffDays: number, amount: number, txn: TxnState, entry: HeldEntry) {
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

const WINDOW_SPAN = 2 * CANDIDATE_WINDOW_DAYS + 1;
/** the date score by days apart, within the window */
const DATE_SCORES = Array.from({ length: CANDIDATE_WINDOW_DAYS + 1 }, (_, d) => scoreDays(d));

class TxnState {
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
  /** per day offset: that day's entries, once read */
  days: (Day<HeldEntry> | undefined)[] | undefined;
  /** per day offset: the amount-sorted range [down + 1, up) looked at so far (`up` -1: not yet) */
  up = new Int32Array(WINDOW_SPAN).fill(-1);
  down = new Int32Array(WINDOW_SPAN);
  /** candidates seen below the level, by their bound or their total: looked at again at that level */
  pending: (HeldEntry[] | undefined)[] = [];
  /** candidates ranked at their level or above, a heap in assignment order */
  heap: Candidate[] = [];
  /** description scores by the entry memo's prepared text (shared between equal memos) */
  descriptions = new Map<PreparedDescription, number>();

  constructor(p: PreparedTxn, refused: ReadonlySet<string> | undefined, numeric: boolean) {
    this.p = p;
    this.day = p.day;
    this.direction = expectedLineDirection(p.txn.type);
    this.amount = p.amountNumber;
    this.huge = !numeric || !(p.amountNumber <= SAFE);
    this.hasHistory =
      p.history !== EMPTY_HISTORY_EVIDENCE && (p.history.exactAccounts.size > 0 || p.history.confidence.size > 0);
    this.allElse = ALL_ELSE - 5 * (100 - (this.hasHistory ? bestHistoryScore(p.history) : 0));
    this.refused = refused;
  }

  release(): void {
    this.days = undefined;
    this.up = this.down = new Int32Array(0);
    this.pending = [];
    this.heap = [];
    this.descriptions = new Map();
  }
}

function before(a: Candidate, b: Candidate): boolean {
  return compareForAssignment(a, b) < 0;
}

function heapPush(heap: Candidate[], c: Candidate): void {
  let i = heap.length;
  heap.push(c);
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!before(c, heap[parent]!)) break;
    heap[i] = heap[parent]!;
    i = parent;
  }
  heap[i] = c;
}

function heapPop(heap: Candidate[]): void {
  const last = heap.pop()!;
  if (heap.length === 0) return;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= heap.length) break;
    const r = l + 1;
    const child = r < heap.length && before(heap[r]!, heap[l]!) ? r : l;
    if (!before(heap[child]!, last)) break;
    heap[i] = heap[child]!;
    i = child;
  }
  heap[i] = last;
}

function firstAtLeast<T extends { readonly amount: number }>(list: readonly T[], amount: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.amount < amount) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
  const thresholds = validateThresholds(options.thresholds ?? DEFAULT_THRESHOLDS);
  const review = thresholds.review;
  const digits = options.digits;
  const limitBig = amountLimitMinor(digits);
  const limit = Number(limitBig);
  const numeric = limit <= SAFE;
  const W = CANDIDATE_WINDOW_DAYS;
  const stats = { pairsBounded: 0, pairsRanked: 0, descriptionsCompared: 0, entriesRead: 0, mostEntriesHeld: 0 };

  const txnDays = txns.map((t) => dayNumber(t.date));
  // transactions by date, then as given
  const order = Int32Array.from(txns.keys()).sort((a, b) => txnDays[a]! - txnDays[b]! || a - b);
  /** the transactions read so far (by position in `order`); a settled one is dropped */
  const states: (TxnState | undefined)[] = [];
  /** the unsettled transactions read so far, by day */
  const txnsByDay = new Map<number, Day<TxnState>>();
  const matches: SweepMatch[] = [];
  const days = new Map<number, Day<HeldEntry>>();
  let held = 0;
  let oldestDay = Infinity;

  /** the amount score of a difference, as `scoreAmount` rounds it, in plain numbers */
  function amountScore(diff: number): number {
    if (diff === 0) return 100;
    if (diff >= limit) return 0;
    return Math.min(99, Math.floor((100 * (limit - diff) + limit - 1) / limit));
  }

  /** whether the pair is a candidate at all (refusals and the far-amount rule) */
  function comparable(t: TxnState, e: HeldEntry): boolean {
    if (t.refused?.has(e.p.entry.id)) return false;
    let far: boolean;
    if (t.huge || e.huge) {
      const diff = t.p.amountMinor - e.p.amountMinor;
      far = (diff < 0n ? -diff : diff) >= limitBig;
    } else far = Math.abs(t.amount - e.amount) >= limit;
    return !far || (e.day === t.day && e.p.memo.normalised === t.p.description.normalised);
  }

  /** the amount score of the pair last passed to `partOf` */
  let amountOfPart = 0;

  /** The pair's total in hundredths without the description (as `totalScore` adds them up, with its rounding half). */
  function partOf(t: TxnState, e: HeldEntry): number {
    stats.pairsBounded++;
    const a =
      t.huge || e.huge
        ? scoreAmount(t.p.amountMinor, e.p.amountMinor, digits)
        : amountScore(Math.abs(t.amount - e.amount));
    amountOfPart = a;
    const history = t.hasHistory ? scoreHistoryPrepared(t.p.history, e.p.counterAccountIds) : 0;
    return 40 * a + 25 * DATE_SCORES[Math.abs(t.day - e.day)]! + 10 * e.p.business[t.p.txn.type] + 5 * history + 50;
  }

  function descriptionOf(t: TxnState, e: HeldEntry): number {
    let description = t.descriptions.get(e.p.memo);
    if (description === undefined) {
      stats.descriptionsCompared++;
      t.descriptions.set(e.p.memo, (description = scoreDescriptionPrepared(t.p.description, e.p.memo)));
    }
    return description;
  }

  /** The pair ranked exactly when its bound reaches `atLeast`. */
  function rankAtLeast(t: TxnState, e: HeldEntry, atLeast: number): Candidate | undefined {
    const part = partOf(t, e);
    if (Math.floor((part + 20 * 100) / 100) < atLeast) return undefined;
    stats.pairsRanked++;
    return new Candidate(
      Math.floor((part + 20 * descriptionOf(t, e)) / 100),
      Math.abs(t.day - e.day),
      amountOfPart,
      t,
      e,
    );
  }

  /**
   * A candidate of `t` at `level`: into the heap when its total reaches the level, else set aside
   * at its bound (the description not compared yet) or its total, whichever is known.
   */
  function place(t: TxnState, e: HeldEntry, level: number): void {
    const part = partOf(t, e);
    const amount = amountOfPart;
    let at = Math.floor((part + 20 * 100) / 100);
    if (at >= level) at = Math.floor((part + 20 * descriptionOf(t, e)) / 100);
    if (at >= level) {
      stats.pairsRanked++;
      heapPush(t.heap, new Candidate(at, Math.abs(t.day - e.day), amount, t, e));
    } else if (at >= review) (t.pending[at] ??= []).push(e);
  }

  function consider(t: TxnState, e: HeldEntry, level: number): void {
    if (!e.used && comparable(t, e)) place(t, e, level);
  }

  /** Looks at every candidate of `t` whose bound may reach `level` (all above it are done). */
  function lookAt(t: TxnState, level: number): void {
    const set = t.pending[level];
    if (set) {
      t.pending[level] = undefined;
      for (const e of set) if (!e.used) place(t, e, level);
    }
    const window = (t.days ??= Array.from({ length: WINDOW_SPAN }, (_, slot) => days.get(t.day + slot - W)));
    if (level === 100) {
      // amounts too large for plain numbers are bounded pair by pair, at the first look
      for (const bucket of window) {
        if (!bucket) continue;
        for (const e of bucket.huge[t.direction]) consider(t, e, level);
        if (t.huge) for (const e of bucket.byAmount[t.direction]) consider(t, e, level);
      }
    }
    if (t.huge) return;
    // with everything but the date at its best, the bound must reach the level
    for (
      let distance = 0;
      distance <= W && 40 * 100 + 25 * DATE_SCORES[distance]! + t.allElse >= 100 * level;
      distance++
    ) {
      // the least amount score with which the bound reaches the level, this many days apart
      const least = Math.ceil((100 * level - t.allElse - 25 * DATE_SCORES[distance]!) / 40);
      for (let k = -distance; k <= distance; k += 2 * distance || 1) {
        const bucket = window[k + W];
        if (bucket) lookAtDay(t, bucket.byAmount[t.direction], k, least, level);
      }
    }
  }

  function lookAtDay(t: TxnState, list: readonly HeldEntry[], k: number, least: number, level: number): void {
    const slot = k + W;
    let up = t.up[slot]!;
    let down: number;
    if (up < 0) {
      up = firstAtLeast(list, t.amount);
      down = up - 1;
    } else down = t.down[slot]!;
    // 50 units or more apart, only the same day is a candidate (and only with the same description)
    const farToo = k === 0 && least <= 0;
    for (; up < list.length; up++) {
      const diff = list[up]!.amount - t.amount;
      if (diff >= limit ? !farToo : amountScore(diff) < least) break;
      consider(t, list[up]!, level);
    }
    for (; down >= 0; down--) {
      const diff = t.amount - list[down]!.amount;
      if (diff >= limit ? !farToo : amountScore(diff) < least) break;
      consider(t, list[down]!, level);
    }
    t.up[slot] = up;
    t.down[slot] = down;
  }

  /** The transaction's best pair with a free entry, or undefined when it has none at review or above. */
  function bestOfTxn(t: TxnState): Candidate | undefined {
    for (;;) {
      while (t.heap.length > 0 && t.heap[0]!.entry.used) heapPop(t.heap);
      const top = t.heap[0];
      // what is not ranked yet has a bound, hence a total, below the level
      if ((top && top.total >= t.level) || t.level <= review) return top;
      t.level -= 1;
      lookAt(t, t.level);
    }
  }

  /**
   * The entry's best pair among the free transactions read so far, `offered` or better: only
   * transactions whose bound with the entry reaches `offered`'s total are ranked (the same
   * ranges of amount around the entry's as `lookAt` takes around a transaction's).
   */
  function bestOfEntry(e: HeldEntry, offered: Candidate): Candidate {
    if (e.best && !e.best.txn.resolved) return e.best;
    let best = offered;
    const challenge = (t: TxnState) => {
      if (t.resolved || t === offered.txn || !comparable(t, e)) return;
      const c = rankAtLeast(t, e, best.total);
      if (c && before(c, best)) best = c;
    };
    const level = offered.total;
    for (
      let distance = 0;
      distance <= W && 40 * 100 + 25 * DATE_SCORES[distance]! + ALL_ELSE >= 100 * level;
      distance++
    ) {
      const least = Math.ceil((100 * level - ALL_ELSE - 25 * DATE_SCORES[distance]!) / 40);
      for (let k = -distance; k <= distance; k += 2 * distance || 1) {
        const day = txnsByDay.get(e.day + k);
        if (!day) continue;
        for (const t of day.huge[e.direction]) challenge(t);
        const list = day.byAmount[e.direction];
        if (e.huge) {
          for (const t of list) challenge(t);
          continue;
        }
        const farToo = k === 0 && least <= 0;
        const start = firstAtLeast(list, e.amount);
        for (let i = start; i < list.length; i++) {
          const diff = list[i]!.amount - e.amount;
          if (diff >= limit ? !farToo : amountScore(diff) < least) break;
          challenge(list[i]!);
        }
        for (let i = start - 1; i >= 0; i--) {
          const diff = e.amount - list[i]!.amount;
          if (diff >= limit ? !farToo : amountScore(diff) < least) break;
          challenge(list[i]!);
        }
      }
    }
    e.best = best;
    return best;
  }

  let nextTxnDay = Infinity;

  /**
   * The highest total a transaction still to come can reach with the entry (dated on or after
   * the next transaction's day, so at least that far from it): a pair above it cannot be
   * outranked at this entry by what is not read yet.
   */
  function reachable(e: HeldEntry): number {
    const business = e.p.business[e.direction === 'CREDIT' ? 'debit' : 'credit'];
    return Math.floor(
      (40 * 100 + 25 * scoreDays(Math.max(0, nextTxnDay - e.day)) + 20 * 100 + 10 * business + 5 * 100 + 50) / 100,
    );
  }

  function settle(t: TxnState, match: Candidate | undefined): void {
    if (match) {
      const pair = scorePrepared(t.p, match.entry.p, digits, thresholds);
      // the ranking's arithmetic must be the scoring's, or the order taken was not the rule's
      if (pair.total !== match.total || pair.breakdown.amount !== match.amount)
        throw new Error(`reconciliation ranked ${match.total}, scored ${pair.total}`);
      matches.push({ ...pair, counterAccountIds: match.entry.p.counterAccountIds });
      match.entry.used = true;
    }
    t.resolved = true;
    t.release();
  }

  /**
   * Settles the pair `t` leads to, if it can yet: true when a pair was taken or a transaction was
   * left unmatched, false when the chain stops at an entry a transaction still to come may take.
   */
  function step(t: TxnState): boolean {
    let current = t;
    for (;;) {
      const c = bestOfTxn(current);
      if (!c) {
        settle(current, undefined);
        return true;
      }
      if (c.entry.day + W >= nextTxnDay && c.total <= reachable(c.entry)) return false;
      const rival = bestOfEntry(c.entry, c);
      if (rival.txn === current) {
        settle(current, c);
        return true;
      }
      current = rival.txn;
    }
  }

  // --- reading entries in date order ---
  const iterator = entries[Symbol.iterator]();
  let lookahead: CandidateEntry | undefined;
  let exhausted = false;
  let lastDay = -Infinity;
  let lastDate = '';
  let lastDateDay = 0;
  const unsorted: Day<HeldEntry>[] = [];
  const memos = new Map<string, PreparedDescription>();
  /** entries dated before this are outside every window still to be looked at */
  let floorDay = order.length > 0 ? txnDays[order[0]!]! - W : Infinity;

  function hold(entry: CandidateEntry, day: number): void {
    let bucket = days.get(day);
    if (!bucket) {
      days.set(day, (bucket = newDay()));
      unsorted.push(bucket);
      oldestDay = Math.min(oldestDay, day);
    }
    // books repeat their memos; the map is only a cache, so it is kept small
    if (memos.size >= 8192) memos.clear();
    const p = prepareEntry(entry, memos);
    const huge = !numeric || !(p.amountNumber <= SAFE);
    const e: HeldEntry = {
      p,
      day,
      direction: entry.accountLine.direction,
      amount: p.amountNumber,
      huge,
      used: false,
      best: undefined,
    };
    (huge ? bucket.huge : bucket.byAmount)[e.direction].push(e);
    held++;
    stats.mostEntriesHeld = Math.max(stats.mostEntriesHeld, held);
  }

  /** Reads entries until every one dated on or before `through` is held. */
  function readThrough(through: number): void {
    while (!exhausted) {
      if (!lookahead) {
        const next = iterator.next();
        if (next.done) {
          exhausted = true;
          break;
        }
        lookahead = next.value;
        stats.entriesRead++;
      }
      // entries come a day at a time: the date is parsed once per day
      if (lookahead.entryDate !== lastDate)
        [lastDate, lastDateDay] = [lookahead.entryDate, dayNumber(lookahead.entryDate)];
      const day = lastDateDay;
      if (day < lastDay) throw new Error(`entries must come in date order (${lookahead.entryDate} after a later one)`);
      if (day > through) break;
      lastDay = day;
      if (day >= floorDay) hold(lookahead, day);
      lookahead = undefined;
    }
    for (const bucket of unsorted)
      for (const list of Object.values(bucket.byAmount)) list.sort((a, b) => a.amount - b.amount);
    unsorted.length = 0;
  }

  try {
    let firstOpen = 0;
    while (states.length < order.length) {
      const day = txnDays[order[states.length]!]!;
      const today = newDay<TxnState>();
      txnsByDay.set(day, today);
      while (states.length < order.length && txnDays[order[states.length]!] === day) {
        const t = txns[order[states.length]!]!;
        const state = new TxnState(prepareTxn(t, options.payeeModel), options.rejected?.get(t.id), numeric);
        (state.huge ? today.huge : today.byAmount)[state.direction].push(state);
        states.push(state);
      }
      for (const list of Object.values(today.byAmount)) list.sort((a, b) => a.amount - b.amount);
      nextTxnDay = states.length < order.length ? txnDays[order[states.length]!]! : Infinity;
      readThrough(day + W);
      for (let i = firstOpen; i < states.length; i++) {
        const t = states[i];
        if (t) while (!t.resolved && step(t));
      }
      for (let i = firstOpen; i < states.length; i++) if (states[i]?.resolved) states[i] = undefined;
      while (firstOpen < states.length && !states[firstOpen]) firstOpen++;
      // what no unsettled or coming transaction can reach is forgotten
      floorDay = Math.max(
        floorDay,
        Math.min(firstOpen < states.length ? txnDays[order[firstOpen]!]! : Infinity, nextTxnDay) - W,
      );
      for (; oldestDay < floorDay && days.size > 0; oldestDay++) {
        const bucket = days.get(oldestDay);
        if (!bucket) continue;
        for (const lists of [bucket.byAmount, bucket.huge]) held -= lists.DEBIT.length + lists.CREDIT.length;
        days.delete(oldestDay);
      }
      if (days.size === 0) oldestDay = Infinity;
      // an entry asks for the transactions within 30 days of it; entries older than the floor are gone
      for (const d of txnsByDay.keys()) if (d < floorDay - W) txnsByDay.delete(d);
    }
  } finally {
    iterator.return?.();
  }

  matches.sort(compareForAssignment);
  const matched = new Set(matches.map((m) => m.txnId));
  return { matches, unmatchedTxnIds: txns.filter((t) => !matched.has(t.id)).map((t) => t.id), stats };
}
