import { describe, expect, it } from 'vitest';
import { presetPeriod, previousPeriod } from './report-period.ts';

describe('report periods', () => {
  it('when a preset is chosen, then it is the whole calendar month or year around today', () => {
    expect(presetPeriod('this-month', '2026-03-15')).toEqual({ start: '2026-03-01', end: '2026-03-31' });
    expect(presetPeriod('last-month', '2026-01-10')).toEqual({ start: '2025-12-01', end: '2025-12-31' });
    expect(presetPeriod('last-month', '2024-03-31')).toEqual({ start: '2024-02-01', end: '2024-02-29' });
    expect(presetPeriod('this-year', '2026-03-15')).toEqual({ start: '2026-01-01', end: '2026-12-31' });
    expect(presetPeriod('last-year', '2026-03-15')).toEqual({ start: '2025-01-01', end: '2025-12-31' });
  });

  it('when the last 12 months are chosen, then they are the eleven whole months before this one and this whole month', () => {
    expect(presetPeriod('last-12-months', '2026-03-15')).toEqual({ start: '2025-04-01', end: '2026-03-31' });
    expect(presetPeriod('last-12-months', '2026-12-01')).toEqual({ start: '2026-01-01', end: '2026-12-31' });
  });

  it('when a period is compared, then a month goes with the month before, a year with the year before, else as many days before', () => {
    expect(previousPeriod({ start: '2026-03-01', end: '2026-03-31' })).toEqual({
      start: '2026-02-01',
      end: '2026-02-28',
    });
    expect(previousPeriod({ start: '2026-01-01', end: '2026-01-31' })).toEqual({
      start: '2025-12-01',
      end: '2025-12-31',
    });
    expect(previousPeriod({ start: '2026-01-01', end: '2026-12-31' })).toEqual({
      start: '2025-01-01',
      end: '2025-12-31',
    });
    expect(previousPeriod({ start: '2025-04-01', end: '2026-03-31' })).toEqual({
      start: '2024-04-01',
      end: '2025-03-31',
    });
    expect(previousPeriod({ start: '2026-03-10', end: '2026-03-19' })).toEqual({
      start: '2026-02-28',
      end: '2026-03-09',
    });
    expect(previousPeriod({ start: '2026-03-10', end: '2026-03-10' })).toEqual({
      start: '2026-03-09',
      end: '2026-03-09',
    });
  });
});
