import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { newRowId, occurrenceEntryId } from './ids.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('newRowId', () => {
  it('when an id is made, then it is a UUID of version 7 and RFC 9562 variant whose first 48 bits are the millisecond it was made', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const at = Date.UTC(2026, 10, 26, 8, 30, 0, 123);
    vi.setSystemTime(at);
    const id = newRowId();
    expect(z.uuid().safeParse(id).success).toBe(true);
    expect(id[14]).toBe('7');
    expect('89ab').toContain(id[19]);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
  });

  it('when ids are made in later milliseconds, then they sort after the earlier ones, and ids are never repeated', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.UTC(2026, 0, 1);
    const made: string[] = [];
    for (let ms = 0; ms < 50; ms++) {
      vi.setSystemTime(start + ms * 7);
      for (let i = 0; i < 20; i++) made.push(newRowId());
    }
    const byMillisecond = (id: string) => id.slice(0, 13);
    expect(made.map(byMillisecond)).toEqual([...made].sort().map(byMillisecond));
    expect(new Set(made).size).toBe(made.length);
  });
});

describe('occurrenceEntryId', () => {
  it('when the same occurrence is named twice, then its id is the same; another date or schedule gives another id, each a UUID of version 8', () => {
    const schedules = [newRowId(), newRowId()];
    const dates = ['2025-01-31', '2025-02-28', '2025-03-31'];
    const ids = schedules.flatMap((s) => dates.map((d) => occurrenceEntryId(s, d)));
    expect(schedules.flatMap((s) => dates.map((d) => occurrenceEntryId(s, d)))).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(z.uuid().safeParse(id).success).toBe(true);
      expect(id[14]).toBe('8');
      expect('89ab').toContain(id[19]);
    }
  });
});
