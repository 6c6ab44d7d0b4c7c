import { describe, expect, it } from 'vitest';
import { addDays } from '../dates.ts';
import { dayNumber } from './scoring.ts';
import { emptyStats, PairRanker } from './sweep-ranking.ts';
import { EntryWindow, firstAtLeast } from './sweep-window.ts';
import { entry, USD } from './test-books.ts';
import type { CandidateEntry } from './types.ts';

const START = '2024-03-01';
const day = (n: number) => dayNumber(addDays(START, n));

/** Entries on days 0..days-1, `perDay` a day, amounts falling within a day, every third one a DEBIT line. */
function* book(days: number, perDay: number, read: { count: number; returned: boolean }): Generator<CandidateEntry> {
  try {
    for (let d = 0; d < days; d++)
      for (let i = 0; i < perDay; i++) {
        read.count++;
        yield entry(`e${d}-${i}`, addDays(START, d), 'x', BigInt(1000 - i), i % 3 === 0 ? 'DEBIT' : 'CREDIT');
      }
  } finally {
    read.returned = true;
  }
}

function ids(window: EntryWindow, d: number): string[] {
  const bucket = window.day(day(d));
  if (!bucket) return [];
  return [...bucket.byAmount.CREDIT, ...bucket.byAmount.DEBIT, ...bucket.huge.CREDIT, ...bucket.huge.DEBIT].map(
    (e) => e.p.entry.id,
  );
}

describe('EntryWindow', () => {
  it('when read through a day, then every entry up to it is held, sorted by amount per direction, and only one entry past it is read', () => {
    const read = { count: 0, returned: false };
    const stats = emptyStats();
    const window = new EntryWindow(book(10, 3, read), new PairRanker(USD, stats), day(0));
    window.readThrough(day(4));
    expect(read.count).toBe(5 * 3 + 1);
    expect(stats.entriesRead).toBe(16);
    expect(window.held).toBe(15);
    expect(ids(window, 4)).toEqual(['e4-2', 'e4-1', 'e4-0']);
    expect(window.day(day(4))!.byAmount.CREDIT.map((e) => e.amount)).toEqual([998, 999]);
    expect(ids(window, 5)).toEqual([]);
    window.readThrough(day(5));
    expect(ids(window, 5)).toEqual(['e5-2', 'e5-1', 'e5-0']);
  });

  it('when entries are dated below the floor, then they are read past and never held', () => {
    const window = new EntryWindow(
      book(10, 2, { count: 0, returned: false }),
      new PairRanker(USD, emptyStats()),
      day(3),
    );
    window.readThrough(day(5));
    expect([ids(window, 2), ids(window, 3).length, window.held]).toEqual([[], 2, 6]);
  });

  it('when days fall below a raised floor, then they are let go and the count held falls; the floor never falls', () => {
    const stats = emptyStats();
    const window = new EntryWindow(book(10, 2, { count: 0, returned: false }), new PairRanker(USD, stats), day(0));
    window.readThrough(day(9));
    expect(window.held).toBe(20);
    window.forgetBefore(day(4));
    expect([ids(window, 3), ids(window, 4).length, window.held, window.floorDay]).toEqual([[], 2, 12, day(4)]);
    window.forgetBefore(day(1));
    expect([window.floorDay, window.held, stats.mostEntriesHeld]).toEqual([day(4), 12, 20]);
  });

  it('when an amount is too large for plain numbers, then the entry is held apart, to be compared in bigint', () => {
    const window = new EntryWindow(
      [entry('small', START, 'x', 10n), entry('huge', START, 'x', 10n ** 17n)],
      new PairRanker(USD, emptyStats()),
      day(0),
    );
    window.readThrough(day(0));
    const bucket = window.day(day(0))!;
    expect([bucket.byAmount.CREDIT.map((e) => e.p.entry.id), bucket.huge.CREDIT.map((e) => e.p.entry.id)]).toEqual([
      ['small'],
      ['huge'],
    ]);
  });

  it('when entries come out of date order, then reading stops with an error rather than miss candidates', () => {
    const window = new EntryWindow(
      [entry('e1', '2024-03-05', 'x', 1n), entry('e2', '2024-03-04', 'x', 1n)],
      new PairRanker(USD, emptyStats()),
      day(0),
    );
    expect(() => window.readThrough(day(30))).toThrow(/date order/);
  });

  it('when closed before the end, then the source is let go', () => {
    const read = { count: 0, returned: false };
    const window = new EntryWindow(book(10, 2, read), new PairRanker(USD, emptyStats()), day(0));
    window.readThrough(day(1));
    window.close();
    expect(read).toEqual({ count: 5, returned: true });
  });
});

describe('firstAtLeast', () => {
  it('when an amount is looked up in a sorted list, then the first position at or above it is found', () => {
    const list = [1, 3, 3, 7].map((amount) => ({ amount }));
    expect([0, 1, 2, 3, 4, 7, 8].map((a) => firstAtLeast(list, a))).toEqual([0, 0, 1, 1, 3, 3, 4]);
  });
});
