import { prepareEntry, sharedPreparation } from './pair.ts';
import { dayNumber } from './scoring.ts';
import type { HeldEntry, PairRanker } from './sweep-ranking.ts';
import type { CandidateEntry, Direction } from './types.ts';

/** One day of entries, or of transactions: per direction, sorted by amount, and those too large for plain numbers. */
export interface Day<T> {
  readonly byAmount: Record<Direction, T[]>;
  readonly huge: Record<Direction, T[]>;
}

export function newDay<T>(): Day<T> {
  return { byAmount: { DEBIT: [], CREDIT: [] }, huge: { DEBIT: [], CREDIT: [] } };
}

export function sortByAmount(day: Day<{ readonly amount: number }>): void {
  for (const list of Object.values(day.byAmount)) list.sort((a, b) => a.amount - b.amount);
}

/** The first position in an amount-sorted list whose amount is `amount` or more (binary search). */
export function firstAtLeast(list: readonly { readonly amount: number }[], amount: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.amount < amount) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Memo texts, and lists of counter accounts, kept prepared at most (only a cache, so it is kept small). */
const SHARED_AT_MOST = 8192;

/**
 * The entries the sweep holds, by day: read from `entries` (in date order) only as far as asked
 * (`readThrough`), and let go once no transaction can reach them (`forgetBefore`). Entries dated
 * below the floor are read past and never held.
 */
export class EntryWindow {
  private readonly days = new Map<number, Day<HeldEntry>>();
  private readonly ranker: PairRanker;
  private readonly iterator: Iterator<CandidateEntry>;
  private lookahead: CandidateEntry | undefined;
  private exhausted = false;
  private lastDay = -Infinity;
  private lastDate = '';
  private lastDateDay = 0;
  /** days given entries since the last sort */
  private readonly unsorted: Day<HeldEntry>[] = [];
  /** what the entries held share (books repeat their memos and counter accounts) */
  private readonly shared = sharedPreparation();
  private oldestDay = Infinity;
  /** entries dated before this are outside every window still to be looked at */
  private floor: number;
  /** how many entries are held */
  held = 0;

  constructor(entries: Iterable<CandidateEntry>, ranker: PairRanker, floorDay: number) {
    this.ranker = ranker;
    this.iterator = entries[Symbol.iterator]();
    this.floor = floorDay;
  }

  get floorDay(): number {
    return this.floor;
  }

  /** The entries held of a day, if any. */
  day(day: number): Day<HeldEntry> | undefined {
    return this.days.get(day);
  }

  /** Reads entries until every one dated on or before `through` is held (one more is read, to know). */
  readThrough(through: number): void {
    const stats = this.ranker.stats;
    while (!this.exhausted) {
      if (!this.lookahead) {
        const next = this.iterator.next();
        if (next.done) {
          this.exhausted = true;
          break;
        }
        this.lookahead = next.value;
        stats.entriesRead++;
      }
      // entries come a day at a time: the date is parsed once per day
      if (this.lookahead.entryDate !== this.lastDate) {
        this.lastDate = this.lookahead.entryDate;
        this.lastDateDay = dayNumber(this.lastDate);
      }
      const day = this.lastDateDay;
      if (day < this.lastDay)
        throw new Error(`entries must come in date order (${this.lookahead.entryDate} after a later one)`);
      if (day > through) break;
      this.lastDay = day;
      if (day >= this.floor) this.hold(this.lookahead, day);
      this.lookahead = undefined;
    }
    for (const day of this.unsorted) sortByAmount(day);
    this.unsorted.length = 0;
  }

  private hold(entry: CandidateEntry, day: number): void {
    let bucket = this.days.get(day);
    if (!bucket) {
      this.days.set(day, (bucket = newDay()));
      this.unsorted.push(bucket);
      this.oldestDay = Math.min(this.oldestDay, day);
    }
    if (this.shared.memos.size >= SHARED_AT_MOST) this.shared.memos.clear();
    if (this.shared.counters.size >= SHARED_AT_MOST) this.shared.counters.clear();
    const p = prepareEntry(entry, this.shared);
    const huge = this.ranker.isHuge(p.amountNumber);
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
    this.held++;
    this.ranker.stats.mostEntriesHeld = Math.max(this.ranker.stats.mostEntriesHeld, this.held);
  }

  /** Raises the floor to `floor` (it never falls) and lets go of the days below it. */
  forgetBefore(floor: number): void {
    this.floor = Math.max(this.floor, floor);
    for (; this.oldestDay < this.floor && this.days.size > 0; this.oldestDay++) {
      const bucket = this.days.get(this.oldestDay);
      if (!bucket) continue;
      for (const lists of [bucket.byAmount, bucket.huge]) this.held -= lists.DEBIT.length + lists.CREDIT.length;
      this.days.delete(this.oldestDay);
    }
    if (this.days.size === 0) this.oldestDay = Infinity;
  }

  /** Stops reading (the source, a database cursor, is let go). */
  close(): void {
    this.iterator.return?.();
  }
}
