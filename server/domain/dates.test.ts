import { describe, it, expect } from 'vitest';
import {
  addDays,
  countPeriods,
  daysBetween,
  endOfMonth,
  endOfWeek,
  isCalendarDate,
  isLedgerDate,
  periods,
} from './dates.ts';

describe('dates', () => {
  it('when a date does not exist on the calendar, then it is not a calendar date', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(isCalendarDate('2024-13-01')).toBe(false);
    expect(isCalendarDate('2024-04-31')).toBe(false);
    expect(isCalendarDate('2024-4-01')).toBe(false);
    expect(isCalendarDate('0000-01-01')).toBe(false);
    expect(isCalendarDate('2024-01-01T00:00:00Z')).toBe(false);
  });

  it('when a calendar date is outside 1900-01-01 … 2199-12-31, then the ledger does not take it', () => {
    expect(['1900-01-01', '2199-12-31', '2026-02-28'].map(isLedgerDate)).toEqual([true, true, true]);
    expect(['1899-12-31', '2200-01-01', '9999-12-31', '0001-01-01', '2023-02-29'].map(isLedgerDate)).toEqual(
      new Array(5).fill(false),
    );
  });

  it('when a range has more periods than the limit, then it is refused naming the limit before any is made', () => {
    expect(() => periods('1900-01-01', '2199-12-31', 'day', 5000)).toThrow(/more than 5000 days/);
    expect(countPeriods('1900-01-01', '2199-12-31', 'day')).toBe(109_573);
    expect(periods('1900-01-01', '2199-12-31', 'month', 5000)).toHaveLength(3600);
    expect(periods('2199-12-30', '2199-12-31', 'day', 2)).toEqual([
      { start: '2199-12-30', end: '2199-12-30' },
      { start: '2199-12-31', end: '2199-12-31' },
    ]);
  });

  it('when adding days across month, year and leap day, then the calendar is followed', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2023-12-31', 1)).toBe('2024-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(daysBetween('2024-01-01', '2025-01-01')).toBe(366);
    expect(endOfMonth('2023-02-10')).toBe('2023-02-28');
  });

  it('when splitting a range into periods, then they are contiguous and clipped', () => {
    expect(periods('2024-01-15', '2024-03-10', 'month', 10)).toEqual([
      { start: '2024-01-15', end: '2024-01-31' },
      { start: '2024-02-01', end: '2024-02-29' },
      { start: '2024-03-01', end: '2024-03-10' },
    ]);
    expect(endOfWeek('2024-06-05')).toBe('2024-06-09');
    expect(periods('2024-06-05', '2024-06-12', 'week', 10)).toEqual([
      { start: '2024-06-05', end: '2024-06-09' },
      { start: '2024-06-10', end: '2024-06-12' },
    ]);
    expect(periods('2024-06-05', '2024-06-04', 'day', 10)).toEqual([]);
  });
});
