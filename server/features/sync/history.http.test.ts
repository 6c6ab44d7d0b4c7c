import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type TestServer } from '../../../test/support/server.ts';

/** The books' history and Undo, over HTTP: what each write logged, in words, and undoing it. */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.stop();
});

async function books() {
  const u = await registerUser(t.api);
  const bank = (await t.api.post('/api/accounts', { name: 'Checking', type: 'ASSET' }, u.token)).body.id as string;
  const food = (await t.api.post('/api/accounts', { name: 'Groceries', type: 'EXPENSE' }, u.token)).body.id as string;
  const lines = (amount: string) => [
    { account_id: food, direction: 'DEBIT', amount },
    { account_id: bank, direction: 'CREDIT', amount },
  ];
  return { u, bank, food, lines };
}

describe('the history and undo', () => {
  it('when a user writes, then the history lists each change newest first with its device and what it changed, in pages', async () => {
    const { u, lines } = await books();
    const entry = (
      await t.api.post(
        '/api/journal-entries',
        { entry_date: '2026-03-02', memo: 'Corner Shop', lines: lines('42.50') },
        u.token,
      )
    ).body;
    expect((await t.api.post(`/api/journal-entries/${entry.id}/post`, {}, u.token)).status).toBe(200);
    expect((await t.api.put('/api/settings', { home_currency: 'EUR' }, u.token)).status).toBe(200);

    const page = await t.api.get('/api/history?limit=3', u.token);
    expect(page.status).toBe(200);
    expect(page.body.items.map((i: { kind: string; action: string }) => [i.kind, i.action])).toEqual([
      ['settings', 'created'],
      ['journal_entries', 'posted'],
      ['journal_entries', 'created'],
    ]);
    expect(page.body.items[1].label).toBe('2026-03-02 · Corner Shop · 42.50 USD');
    expect(page.body.items[0].summary).toBe('Setting created: home_currency = EUR');
    expect(page.body.items.every((i: { this_device: boolean }) => i.this_device)).toBe(true);
    const rest = await t.api.get(`/api/history?before=${encodeURIComponent(page.body.next_before)}`, u.token);
    expect(rest.body.items.map((i: { label: string }) => i.label)).toEqual(['Groceries', 'Checking']);
    expect(rest.body.next_before).toBeNull();

    for (const bad of ['before=yesterday', 'limit=0', 'limit=201', 'other=1'])
      expect((await t.api.get(`/api/history?${bad}`, u.token)).status).toBe(400);
  });

  it('when a budget is set, then the history names its lines by month and account, not by ids', async () => {
    const { u, food } = await books();
    const budget = { lines: [{ account_id: food, amount: '150.00' }] };
    expect((await t.api.put('/api/budgets/2026-03', budget, u.token)).status).toBe(200);
    const [latest] = (await t.api.get('/api/history?limit=1', u.token)).body.items;
    expect(latest).toMatchObject({ kind: 'budget_lines', label: '2026-03 · Groceries' });
  });

  it('when the user undoes, then the last write goes back, a posted entry is voided, and a void is not undone', async () => {
    const { u } = await books();
    expect((await t.api.post('/api/history/undo', {}, u.token)).status).toBe(200); // the Groceries account
    const accounts = (await t.api.get('/api/accounts', u.token)).body.items.map((a: { name: string }) => a.name);
    expect(accounts).toEqual(['Checking']);

    const again = await books();
    const draft = (
      await t.api.post(
        '/api/journal-entries',
        { entry_date: '2026-03-02', memo: 'first', lines: again.lines('5.00') },
        again.u.token,
      )
    ).body;
    await t.api.put(
      `/api/journal-entries/${draft.id}`,
      { entry_date: '2026-03-03', memo: 'second', lines: again.lines('6.00') },
      again.u.token,
    );
    const undone = await t.api.post('/api/history/undo', {}, again.u.token);
    expect(undone.body.undone.map((i: { action: string }) => i.action)).toEqual(['changed']);
    const restored = (await t.api.get(`/api/journal-entries/${draft.id}`, again.u.token)).body;
    expect([restored.memo, restored.entry_date, restored.lines[0].amount]).toEqual(['first', '2026-03-02', '5.00']);

    await t.api.post(`/api/journal-entries/${draft.id}/post`, {}, again.u.token);
    expect((await t.api.get(`/api/accounts/${again.food}/balance`, again.u.token)).body.balance).toBe('5.00');
    expect((await t.api.post('/api/history/undo', {}, again.u.token)).status).toBe(200);
    expect((await t.api.get(`/api/journal-entries/${draft.id}`, again.u.token)).body.status).toBe('void');
    expect((await t.api.get(`/api/accounts/${again.food}/balance`, again.u.token)).body.balance).toBe('0.00');
    // the next write back made the entry, now void
    const refused = await t.api.post('/api/history/undo', {}, again.u.token);
    expect([refused.status, refused.body.code]).toEqual([409, 'UNDO_NOT_POSSIBLE']);

    const history = (await t.api.get('/api/history?limit=200', again.u.token)).body.items;
    expect(history.filter((i: { by_undo: boolean }) => i.by_undo).length).toBeGreaterThanOrEqual(2);
    expect(history.some((i: { undone: boolean }) => i.undone)).toBe(true);
  });

  it('when nothing was written, then undo is refused', async () => {
    const u = await registerUser(t.api);
    const res = await t.api.post('/api/history/undo', {}, u.token);
    expect([res.status, res.body.code]).toEqual([409, 'NOTHING_TO_UNDO']);
  });
});
