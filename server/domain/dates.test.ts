import { describe, it, expect } from 'vitest';
import { addDays, daysBetween, endOfMonth, endOfWeek, isCalendarDate, periods } from './dates.ts';

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

  it('when adding days across month, year and leap day, then the calendar is followed', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2023-12-31', 1)).toBe('2024-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(daysBetween('2024-01-01', '2025-01-01')).toBe(366);
    expect(endOfMonth('2023-02-10')).toBe('2023-02-28');
  });

  it('when splitting a range into periods, then they are contiguous and clipped', () => {
    expect(periods('2024-01-15', '2024-03-10', 'month')).toEqual([
      { start: '2024-01-15', end: '2024-01-31' },
      { start: '2024-02-01', end: '2024-02-29' },
      { start: '2024-03-01', end: '2024-03-10' },
    ]);
    expect(endOfWeek('2024-06-05')).toBe('2024-06-09');
    expect(periods('2024-06-05', '2024-06-12', 'week')).toEqual([
      { start: '2024-06-05', end: '2024-06-09' },
      { start: '2024-06-10', end: '2024-06-12' },
    ]);
    expect(periods('2024-06-05', '2024-06-04', 'day')).toEqual([]);
  });
});
