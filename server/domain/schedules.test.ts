import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addDays, endOfMonth } from './dates.ts';
import {
  firstIndexOnOrAfter,
  isOccurrence,
  nextOccurrence,
  occurrenceAfter,
  occurrenceDate,
  occurrencesBetween,
  type Recurrence,
} from './schedules.ts';

const monthly = (startDate: string, interval = 1, endDate: string | null = null): Recurrence => ({
  frequency: 'monthly',
  interval,
  startDate,
  endDate,
});

describe('schedule occurrences', () => {
  it('when a monthly schedule starts on the 31st, then it falls on the last day of shorter months and returns to the 31st', () => {
    const r = monthly('2026-01-31');
    expect([0, 1, 2, 3, 4].map((n) => occurrenceDate(r, n))).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
    ]);
    expect(occurrenceDate(monthly('2024-01-29'), 1)).toBe('2024-02-29');
    expect(occurrenceDate(monthly('2023-01-30'), 1)).toBe('2023-02-28');
  });

  it('when a yearly schedule starts on Feb 29, then common years fall on Feb 28', () => {
    const r: Recurrence = { frequency: 'yearly', interval: 1, startDate: '2024-02-29', endDate: null };
    expect([0, 1, 4].map((n) => occurrenceDate(r, n))).toEqual(['2024-02-29', '2025-02-28', '2028-02-29']);
  });

  it('when the interval is more than one, then occurrences step by it', () => {
    expect(occurrenceDate({ frequency: 'weekly', interval: 2, startDate: '2026-01-05', endDate: null }, 3)).toBe(
      '2026-02-16',
    );
    expect(occurrenceDate({ frequency: 'daily', interval: 10, startDate: '2026-01-05', endDate: null }, 3)).toBe(
      '2026-02-04',
    );
    expect(occurrenceDate(monthly('2026-01-15', 3), 2)).toBe('2026-07-15');
  });

  it("when occurrences would pass the ledger's last date 2199-12-31, then there are none", () => {
    expect(occurrenceDate({ frequency: 'yearly', interval: 1, startDate: '2199-06-01', endDate: null }, 1)).toBeNull();
    expect(occurrenceDate({ frequency: 'monthly', interval: 1, startDate: '2199-06-30', endDate: null }, 6)).toBe(
      '2199-12-30',
    );
    expect(occurrenceDate({ frequency: 'monthly', interval: 1, startDate: '2199-06-30', endDate: null }, 7)).toBeNull();
    expect(
      occurrenceAfter({ frequency: 'daily', interval: 1, startDate: '2199-12-30', endDate: null }, '2199-12-31'),
    ).toBeNull();
    expect(occurrenceDate({ frequency: 'weekly', interval: 1, startDate: '2199-12-20', endDate: null }, 2)).toBeNull();
  });

  it('when the end date is reached, then no occurrence follows it', () => {
    const r = monthly('2026-01-10', 1, '2026-03-10');
    expect(occurrencesBetween(r, '2026-01-01', '2026-12-31', 100)).toEqual({
      dates: ['2026-01-10', '2026-02-10', '2026-03-10'],
      more: false,
    });
    expect(occurrenceAfter(r, '2026-03-10')).toBeNull();
    expect(isOccurrence(r, '2026-04-10')).toBe(false);
    expect(isOccurrence(r, '2026-02-10')).toBe(true);
    expect(isOccurrence(r, '2026-02-11')).toBe(false);
  });

  it('when a daily schedule spans a century, then listing stops at the limit and says there are more', () => {
    const r: Recurrence = { frequency: 'daily', interval: 1, startDate: '1926-01-01', endDate: null };
    const { dates, more } = occurrencesBetween(r, '1926-01-01', '2026-01-01', 1000);
    expect(dates).toHaveLength(1000);
    expect(more).toBe(true);
    // finding today's occurrence is arithmetic, not a walk from the start
    expect(nextOccurrence(r, '2026-01-01')).toBe('2026-01-01');
  });

  const recurrence = fc.record({
    frequency: fc.constantFrom('daily', 'weekly', 'monthly', 'yearly'),
    interval: fc.integer({ min: 1, max: 40 }),
    startDate: fc
      .date({ min: new Date('1990-01-01'), max: new Date('2040-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
    endDate: fc.constant(null),
  }) as fc.Arbitrary<Recurrence>;
  const day = fc
    .date({ min: new Date('1985-01-01'), max: new Date('2060-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));

  it('when asked for the first occurrence on or after any day, then it is that and the one before is earlier', () => {
    fc.assert(
      fc.property(recurrence, day, (r, date) => {
        const n = firstIndexOnOrAfter(r, date);
        const at = occurrenceDate(r, n)!;
        expect(at >= date).toBe(true);
        if (n > 0) expect(occurrenceDate(r, n - 1)! < date).toBe(true);
      }),
    );
  });

  it('when occurrences are listed, then they are strictly increasing and each is an occurrence', () => {
    fc.assert(
      fc.property(recurrence, day, fc.integer({ min: 0, max: 400 }), (r, from, span) => {
        const to = addDays(from, span);
        const { dates } = occurrencesBetween(r, from, to, 50);
        for (let i = 0; i < dates.length; i++) {
          expect(dates[i]! >= from && dates[i]! <= to).toBe(true);
          expect(isOccurrence(r, dates[i]!)).toBe(true);
          if (i > 0) expect(dates[i - 1]! < dates[i]!).toBe(true);
          if (i > 0) expect(occurrenceAfter(r, dates[i - 1]!)).toBe(dates[i]);
        }
      }),
    );
  });

  it('when a monthly schedule starts late in a month, then each occurrence is its day or the month end', () => {
    fc.assert(
      fc.property(fc.integer({ min: 28, max: 31 }), fc.integer({ min: 0, max: 600 }), (startDay, n) => {
        const start = `2024-01-${startDay}`;
        const at = occurrenceDate(monthly(start), n)!;
        const dayOf = Number(at.slice(8));
        const lastDay = Number(endOfMonth(at).slice(8));
        expect(dayOf).toBe(Math.min(startDay, lastDay));
      }),
    );
  });
});
