import { afterEach, describe, expect, it, vi } from 'vitest';
import { addDays, localToday } from '../../domain/dates.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/support/server.ts';
import { dailyBooking } from './schedules.runner.ts';

const DAY = 24 * 60 * 60 * 1000;

afterEach(() => {
  vi.useRealTimers();
});

describe('the daily booking trigger', () => {
  it('when started, then it books at once, and again only when the day has changed', async () => {
    vi.useFakeTimers();
    let clock = new Date(2026, 2, 10, 9, 0).getTime();
    const book = vi.fn(async () => {});
    const stop = dailyBooking({ now: () => clock, intervalMs: 1000 })(book);
    expect(book).toHaveBeenCalledTimes(1);
    clock += 60 * 60 * 1000;
    await vi.advanceTimersByTimeAsync(5000);
    expect(book).toHaveBeenCalledTimes(1);
    clock += DAY;
    await vi.advanceTimersByTimeAsync(1000);
    expect(book).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(book).toHaveBeenCalledTimes(2);
    await stop();
    clock += DAY;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(book).toHaveBeenCalledTimes(2);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('booking when the server starts', () => {
  let servers: TestServer[] = [];
  afterEach(async () => {
    for (const s of servers) await s.stop();
    servers = [];
  });

  it('when the server starts over a ledger with due occurrences, then its first round books them', async () => {
    const first = await startTestServer({ scheduleTrigger: () => async () => {} });
    servers.push(first);
    const user = await registerUser(first.api);
    const ids: string[] = [];
    for (const [name, type] of [
      ['Checking', 'ASSET'],
      ['Rent', 'EXPENSE'],
    ])
      ids.push((await first.api.post('/api/accounts', { name, type }, user.token)).body.id);
    const created = await first.api.post(
      '/api/schedules',
      {
        name: 'Rent',
        frequency: 'weekly',
        start_date: addDays(localToday(), -7),
        auto_post: true,
        lines: [
          { account_id: ids[0], direction: 'CREDIT', amount: '100.00' },
          { account_id: ids[1], direction: 'DEBIT', amount: '100.00' },
        ],
      },
      user.token,
    );
    expect(created.status).toBe(201);
    await first.server.close();
    servers = [];

    // the server's own daily trigger, watched: its first round starts with the server
    let firstRound: Promise<void> | undefined;
    const second = await startTestServer({
      dataDir: first.dataDir,
      scheduleTrigger: (book) =>
        dailyBooking({ now: Date.now })(() => {
          const round = book();
          firstRound ??= round;
          return round;
        }),
    });
    servers.push(second);
    expect(firstRound).toBeDefined();
    await firstRound;
    const entries = await second.api.get('/api/journal-entries?source_type=schedule', user.token);
    expect(entries.body.total).toBe(2);
    expect(entries.body.items.every((e: { status: string }) => e.status === 'posted')).toBe(true);
  });
});
