import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addDays, localToday } from '../../domain/dates.ts';
import { databaseDigest, registerUser } from '../../../test/support/server.ts';
import { MAX_UPCOMING_DAYS, MAX_UPCOMING_OCCURRENCES } from '../../contract/schedules.ts';
import { api, book, useScheduleServer } from '../../../test/support/schedule-books.ts';

/** Schedules over HTTP: made, read, changed, deleted, and their upcoming occurrences. */

useScheduleServer();

const today = localToday();

describe('POST, GET, PUT, DELETE /api/schedules', () => {
  it('when a monthly schedule starts on the 31st, then it answers 201 with next_date, and shorter months get their last day', async () => {
    const b = await book();
    const created = await b.create({ name: 'Rent', frequency: 'monthly', start_date: '2099-01-31', memo: 'Flat' });
    expect(created).toMatchObject({
      name: 'Rent',
      memo: 'Flat',
      frequency: 'monthly',
      interval: 1,
      start_date: '2099-01-31',
      end_date: null,
      auto_post: false,
      next_date: '2099-01-31',
      amount: '1200.00',
      currency: 'USD',
    });
    expect(created.lines).toEqual([
      {
        account_id: b.ids.Rent,
        account_name: 'Rent',
        direction: 'DEBIT',
        amount: '1200.00',
        currency: 'USD',
        cost: null,
      },
      {
        account_id: b.ids.Checking,
        account_name: 'Checking',
        direction: 'CREDIT',
        amount: '1200.00',
        currency: 'USD',
        cost: null,
      },
    ]);
    expect((await b.get(`/api/schedules/${created.id}`)).body).toEqual(created);
    // skipping January moves next_date to the last day of February
    expect((await b.post(`/api/schedules/${created.id}/skip`, { date: '2099-01-31' })).status).toBe(204);
    expect((await b.get(`/api/schedules/${created.id}`)).body.next_date).toBe('2099-02-28');
    const list = await b.get('/api/schedules');
    expect(list.body).toMatchObject({ total: 1, page: 1, per_page: 20 });
    expect(list.body.items[0].id).toBe(created.id);

    const replaced = await api.put(
      `/api/schedules/${created.id}`,
      { name: 'Rent, new flat', lines: b.lines('Rent', '1350.00'), frequency: 'monthly', start_date: '2099-03-15' },
      b.user.token,
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: 'Rent, new flat', amount: '1350.00', next_date: '2099-03-15' });
    expect((await api.delete(`/api/schedules/${created.id}`, b.user.token)).status).toBe(204);
    expect((await b.get(`/api/schedules/${created.id}`)).status).toBe(404);
    expect((await api.delete(`/api/schedules/${created.id}`, b.user.token)).status).toBe(404);
  });

  it("when the lines are bad, then the entry's §7 codes answer and nothing is stored", async () => {
    const b = await book();
    const before = databaseDigest(b.file);
    const base = { name: 'X', frequency: 'weekly', start_date: '2099-01-01' };
    const cases: [unknown, number, string][] = [
      [{ ...base, lines: [{ account_id: b.ids.Rent, direction: 'DEBIT', amount: '1.00' }] }, 400, 'TOO_FEW_LINES'],
      [
        { ...base, lines: [...b.lines('Rent', '1.00').slice(0, 1), ...b.lines('Rent', '2.00').slice(1)] },
        400,
        'UNBALANCED',
      ],
      [
        { ...base, lines: b.lines('Rent', '1.00').map((l, i) => (i ? { ...l, account_id: crypto.randomUUID() } : l)) },
        400,
        'INVALID_ACCOUNT',
      ],
      [{ ...base, lines: b.lines('Rent', '1.00'), frequency: 'hourly' }, 400, 'VALIDATION_ERROR'],
      [{ ...base, lines: b.lines('Rent', '1.00'), interval: 0 }, 400, 'VALIDATION_ERROR'],
      [{ ...base, lines: b.lines('Rent', '1.00'), end_date: '2098-12-31' }, 400, 'VALIDATION_ERROR'],
      [{ ...base, lines: b.lines('Rent', '1.001') }, 400, 'VALIDATION_ERROR'],
      [{ ...base, lines: b.lines('Rent', '1.00'), name: '  ' }, 400, 'VALIDATION_ERROR'],
    ];
    for (const [body, status, code] of cases) {
      const res = await b.post('/api/schedules', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.code).toBe(code);
    }
    expect((await b.get(`/api/schedules/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await b.get('/api/schedules/not-an-id')).status).toBe(404);
    expect(databaseDigest(b.file)).toBe(before);
  });

  it('when an account is used by a schedule, then deleting it is 409 HAS_ENTRIES', async () => {
    const b = await book();
    await b.create({ name: 'Rent', frequency: 'monthly', start_date: '2099-01-01' });
    const res = await api.delete(`/api/accounts/${b.ids.Rent}`, b.user.token);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'HAS_ENTRIES', detail: expect.stringContaining('scheduled entry') });
  });

  it("when another user asks for a schedule, then it is 404 and that user's ledger is untouched", async () => {
    const b = await book();
    const s = await b.create({ name: 'Rent', frequency: 'monthly', start_date: '2099-01-01' });
    const other = await registerUser(api);
    expect((await api.get(`/api/schedules/${s.id}`, other.token)).status).toBe(404);
    expect((await api.post(`/api/schedules/${s.id}/skip`, { date: '2099-01-01' }, other.token)).status).toBe(404);
    expect((await api.get('/api/schedules', other.token)).body.total).toBe(0);
  });
});

describe('GET /api/schedules/upcoming', () => {
  it('when schedules fall due in the window, then their open occurrences are listed in date order, skipped ones left out', async () => {
    const b = await book();
    const weekly = await b.create({
      name: 'Cleaner',
      frequency: 'weekly',
      start_date: addDays(today, 1),
      lines: b.lines('Streaming', '40.00'),
    });
    await b.create({ name: 'Rent', frequency: 'monthly', start_date: addDays(today, 3) });
    await b.create({ name: 'Later', frequency: 'monthly', start_date: addDays(today, 40) });
    await b.create({ name: 'Ended', frequency: 'daily', start_date: '2020-01-01', end_date: '2020-01-05' });
    expect((await b.post(`/api/schedules/${weekly.id}/skip`, { date: addDays(today, 8) })).status).toBe(204);
    const res = await b.get(`/api/schedules/upcoming?until=${addDays(today, 14)}`);
    expect(res.status).toBe(200);
    expect(
      res.body.items.map((o: { name: string; date: string; amount: string }) => [o.date, o.name, o.amount]),
    ).toEqual([
      [addDays(today, 1), 'Cleaner', '40.00'],
      [addDays(today, 3), 'Rent', '1200.00'],
    ]);
    expect(res.body.until).toBe(addDays(today, 14));
    // default: 30 days ahead
    expect((await b.get('/api/schedules/upcoming')).body.until).toBe(addDays(today, 30));
  });

  it('when until is too far or the window holds too many occurrences, then 400 names the limit', async () => {
    const b = await book();
    const far = await b.get(`/api/schedules/upcoming?until=${addDays(today, MAX_UPCOMING_DAYS + 1)}`);
    expect(far.status).toBe(400);
    expect(far.body.detail).toContain(String(MAX_UPCOMING_DAYS));
    expect((await b.get(`/api/schedules/upcoming?until=${addDays(today, -1)}`)).status).toBe(400);
    // a daily schedule begun a century ago is found by arithmetic, not walked
    await b.create({
      name: 'Coffee',
      frequency: 'daily',
      start_date: '1926-01-01',
      lines: b.lines('Streaming', '3.00'),
    });
    for (let i = 0; i < 2; i++)
      await b.create({
        name: `Daily ${i}`,
        frequency: 'daily',
        start_date: addDays(today, 1),
        lines: b.lines('Streaming', '1.00'),
      });
    const many = await b.get(`/api/schedules/upcoming?until=${addDays(today, MAX_UPCOMING_DAYS)}`);
    expect(many.status).toBe(400);
    expect(many.body.detail).toContain(String(MAX_UPCOMING_OCCURRENCES));
    const some = await b.get(`/api/schedules/upcoming?until=${addDays(today, 10)}&per_page=5&page=2`);
    expect(some.status).toBe(200);
    expect(some.body.total).toBe(11 + 10 + 10);
    expect(some.body.items).toHaveLength(5);
  });
});
