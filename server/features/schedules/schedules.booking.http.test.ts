import crypto from 'node:crypto';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { addDays, localToday } from '../../domain/dates.ts';
import { api, book, bookAll, useScheduleServer } from '../../../test/support/schedule-books.ts';

/** Booking a schedule's due occurrences over HTTP: once each, under concurrency, by the server's round. */

useScheduleServer();

const today = localToday();

/** RFC 9562 version 8 from SHA-256("schedule-occurrence\n" + schedule + "\n" + date), as docs/sync.md says. */
function derivedEntryId(scheduleId: string, date: string): string {
  const h = crypto.createHash('sha256').update(`schedule-occurrence\n${scheduleId}\n${date}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x80;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
}

describe('booking due occurrences', () => {
  it('when occurrences are due, then run books each once as an entry with source_type schedule, posted when auto_post', async () => {
    const b = await book();
    const posted = await b.create({
      name: 'Streaming',
      frequency: 'daily',
      start_date: addDays(today, -4),
      auto_post: true,
      lines: b.lines('Streaming', '9.99'),
    });
    const draft = await b.create({
      name: 'Rent',
      frequency: 'monthly',
      start_date: addDays(today, -1),
      memo: 'Flat rent',
    });
    await b.create({ name: 'Future', frequency: 'monthly', start_date: addDays(today, 1) });
    expect((await b.post(`/api/schedules/${posted.id}/skip`, { date: addDays(today, -2) })).status).toBe(204);
    const run = await b.post('/api/schedules/run');
    expect(run.status).toBe(200);
    expect(run.body.created).toHaveLength(5);
    expect(run.body).toMatchObject({ failed: [], more_due: false });
    const entries = await b.entries();
    expect(entries.total).toBe(5);
    expect(new Set(entries.items.map((e: { id: string }) => e.id))).toEqual(new Set(run.body.created));
    const streaming = entries.items.filter((e: { memo: string }) => e.memo === 'Streaming');
    expect(streaming.map((e: { entry_date: string }) => e.entry_date).sort()).toEqual(
      [-4, -3, -1, 0].map((d) => addDays(today, d)),
    );
    expect(
      streaming.every(
        (e: { status: string; source_type: string }) => e.status === 'posted' && e.source_type === 'schedule',
      ),
    ).toBe(true);
    const rent = entries.items.find((e: { memo: string }) => e.memo === 'Flat rent');
    expect(rent).toMatchObject({ status: 'draft', entry_date: addDays(today, -1) });
    // an occurrence's entry id is the schedule and the date's: another device booking it makes the same entry
    for (const e of streaming) expect(e.id).toBe(derivedEntryId(posted.id, e.entry_date));
    expect(rent.id).toBe(derivedEntryId(draft.id, addDays(today, -1)));
    expect((await b.get(`/api/accounts/${b.ids.Streaming}/balance`)).body.balance).toBe('39.96');
    // booking again adds nothing; next dates moved past today
    expect((await b.post('/api/schedules/run')).body.created).toEqual([]);
    expect((await b.get(`/api/schedules/${posted.id}`)).body.next_date).toBe(addDays(today, 1));
    expect((await b.get(`/api/schedules/${draft.id}`)).body.next_date > today).toBe(true);
    // a booked occurrence cannot be skipped; a day that is no occurrence cannot either
    expect((await b.post(`/api/schedules/${posted.id}/skip`, { date: today })).body.code).toBe('INVALID_STATUS');
    const notOne = await b.post(`/api/schedules/${draft.id}/skip`, { date: addDays(today, 2) });
    expect(notOne.status).toBe(400);
    expect(notOne.body.code).toBe('VALIDATION_ERROR');
  });

  it('when a schedule holds an exchange (a line with its cost in another currency), then it keeps the typed lines and each booked entry gets its own trading lines', async () => {
    const b = await book();
    const rent = (
      await api.post('/api/accounts', { name: 'Flat in Lyon', type: 'EXPENSE', currency: 'EUR' }, b.user.token)
    ).body.id;
    const lines = [
      { account_id: rent, direction: 'DEBIT', amount: '900.00', cost: { amount: '981.00', currency: 'USD' } },
      { account_id: b.ids.Checking, direction: 'CREDIT', amount: '981.00' },
    ];
    const created = await b.create({
      name: 'Lyon rent',
      frequency: 'monthly',
      start_date: addDays(today, -1),
      auto_post: true,
      lines,
    });
    expect(
      created.lines.map(
        (l: { account_name: string; amount: string; currency: string; cost: unknown }) =>
          `${l.account_name} ${l.amount} ${l.currency} ${JSON.stringify(l.cost)}`,
      ),
    ).toEqual(['Flat in Lyon 900.00 EUR {"amount":"981.00","currency":"USD"}', 'Checking 981.00 USD null']);
    const run = await b.post('/api/schedules/run');
    expect(run.body).toMatchObject({ failed: [], more_due: false });
    expect(run.body.created).toHaveLength(1);
    const entry = (await b.get(`/api/journal-entries/${run.body.created[0]}`)).body;
    expect(
      entry.lines.map(
        (l: { account_name: string; direction: string; amount: string; currency: string; automatic: boolean }) =>
          `${l.automatic ? 'auto ' : ''}${l.account_name} ${l.direction} ${l.amount} ${l.currency}`,
      ),
    ).toEqual([
      'Flat in Lyon DEBIT 900.00 EUR',
      'Checking CREDIT 981.00 USD',
      'auto Currency trading EUR CREDIT 900.00 EUR',
      'auto Currency trading USD DEBIT 981.00 USD',
    ]);
    expect(entry.lines[0].cost).toEqual({ amount: '981.00', currency: 'USD' });
    const trial = (await b.get('/api/reports/trial-balance')).body;
    for (const group of trial.currencies) expect(group.total_debit).toBe(group.total_credit);
  });

  it('when runs are sent concurrently, then each occurrence becomes exactly one entry', async () => {
    const b = await book();
    // 250 occurrences: each run books them in several transactions, so the runs interleave
    await b.create({
      name: 'Coffee',
      frequency: 'daily',
      start_date: addDays(today, -249),
      auto_post: true,
      lines: b.lines('Streaming', '2.50'),
    });
    await b.create({ name: 'Rent', frequency: 'weekly', start_date: addDays(today, -70), auto_post: true });
    const runs = await Promise.all([
      ...Array.from({ length: 4 }, () => b.post('/api/schedules/run')),
      bookAll!().then(() => ({ status: 200, body: { created: [] as string[] } })),
    ]);
    expect(runs.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const created = runs.flatMap((r) => r.body.created as string[]);
    expect(new Set(created).size).toBe(created.length);
    const entries = await b.entries(1);
    expect(entries.total).toBe(250 + 11);
    expect((await b.get(`/api/accounts/${b.ids.Streaming}/balance`)).body.balance).toBe('625.00');
    const trial = (await b.get('/api/reports/trial-balance')).body.currencies[0];
    expect(trial.total_debit).toBe(trial.total_credit);
  });

  it('when the booking mark is stale, then the database still refuses a second entry for an occurrence', async () => {
    const b = await book();
    const s = await b.create({
      name: 'Gym',
      frequency: 'weekly',
      start_date: addDays(today, -21),
      auto_post: true,
      lines: b.lines('Streaming', '30.00'),
    });
    expect((await b.post('/api/schedules/run')).body.created).toHaveLength(4);
    // another connection (another process) rewinds the mark, as a crash between two writers could
    const raw = new Database(b.file);
    try {
      raw.prepare('UPDATE schedules SET next_date = start_date WHERE id = ?').run(s.id);
      expect(() =>
        raw
          .prepare(
            "INSERT INTO schedule_occurrences (schedule_id, date, entry_id, skipped, created_at) VALUES (?, ?, NULL, 0, 'x')",
          )
          .run(s.id, addDays(today, -21)),
      ).toThrow(/UNIQUE|PRIMARY KEY/);
    } finally {
      raw.close();
    }
    expect((await b.post('/api/schedules/run')).body.created).toEqual([]);
    expect((await b.entries()).total).toBe(4);
    expect((await b.get(`/api/schedules/${s.id}`)).body.next_date).toBe(addDays(today, 7));
  });

  it("when the server's booking round runs, then every user's due occurrences are booked", async () => {
    const b = await book();
    const c = await book();
    await b.create({ name: 'Rent', frequency: 'monthly', start_date: today, auto_post: true });
    await c.create({ name: 'Rent', frequency: 'yearly', start_date: addDays(today, -366), auto_post: false });
    await bookAll!();
    expect((await b.entries()).total).toBe(1);
    expect((await c.entries()).total).toBe(2);
  });

  it('when a due occurrence cannot be booked, then it is reported and stays due while other schedules are booked', async () => {
    const b = await book();
    const blocked = await b.create({
      name: 'Blocked',
      frequency: 'daily',
      start_date: addDays(today, -1),
      lines: b
        .lines('Salary', '5.00')
        .map((l, i) => (i === 0 ? { ...l, direction: 'CREDIT' } : { ...l, direction: 'DEBIT' })),
    });
    await b.create({ name: 'Fine', frequency: 'daily', start_date: today, lines: b.lines('Rent', '5.00') });
    expect((await api.put(`/api/accounts/${b.ids.Salary}`, { is_active: false }, b.user.token)).status).toBe(200);
    const run = await b.post('/api/schedules/run');
    expect(run.body.created).toHaveLength(1);
    expect(run.body.failed).toEqual([
      {
        schedule_id: blocked.id,
        date: addDays(today, -1),
        code: 'INACTIVE_ACCOUNT',
        detail: expect.stringContaining('Salary'),
      },
    ]);
    expect((await b.get(`/api/schedules/${blocked.id}`)).body.next_date).toBe(addDays(today, -1));
    expect((await api.put(`/api/accounts/${b.ids.Salary}`, { is_active: true }, b.user.token)).status).toBe(200);
    expect((await b.post('/api/schedules/run')).body.created).toHaveLength(2);
  });

  it('when a schedule with booked occurrences is changed, then the past is not booked again', async () => {
    const b = await book();
    const s = await b.create({ name: 'Rent', frequency: 'daily', start_date: addDays(today, -3), auto_post: true });
    expect((await b.post('/api/schedules/run')).body.created).toHaveLength(4);
    const res = await api.put(
      `/api/schedules/${s.id}`,
      {
        name: 'Rent',
        lines: b.lines('Rent', '10.00'),
        frequency: 'weekly',
        start_date: addDays(today, -30),
        auto_post: true,
      },
      b.user.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.next_date > today).toBe(true);
    expect((await b.post('/api/schedules/run')).body.created).toEqual([]);
  });

  it('when a bank line matches a booked scheduled entry, then reconciliation matches it like any other entry', async () => {
    const b = await book();
    await b.create({
      name: 'Netflix',
      frequency: 'monthly',
      start_date: addDays(today, -2),
      auto_post: true,
      lines: b.lines('Streaming', '15.49'),
    });
    const [entryId] = (await b.post('/api/schedules/run')).body.created;
    const statement = await b.post('/api/statements', {
      account_id: b.ids.Checking,
      transactions: [{ date: addDays(today, -2), description: 'NETFLIX', amount: '15.49', type: 'debit' }],
    });
    expect(statement.status).toBe(201);
    const run = await b.post('/api/reconciliation/run', { statement_id: statement.body.id });
    expect(run.body.summary).toMatchObject({ auto_accepted: 1, unmatched: 0 });
    const [line] = (await b.get(`/api/statements/${statement.body.id}/transactions`)).body.items;
    const match = await b.get(`/api/reconciliation/matches/${line.match_id}`);
    expect(match.body.journal_entries.map((e: { id: string }) => e.id)).toEqual([entryId]);
  });
});
