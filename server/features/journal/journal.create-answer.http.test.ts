import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type Api, type TestServer } from '../../../test/support/server.ts';

/**
 * Creating entries answers from what it wrote, without reading the entry back: the answer must be
 * the very bytes a later GET of the same entry gives, whatever the entry's shape.
 */

let t: TestServer;
let api: Api;
let token: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer();
  api = t.api;
  ({ token } = await registerUser(api));
  for (const [name, type, currency] of [
    ['Checking', 'ASSET', 'USD'],
    ['Groceries', 'EXPENSE', 'USD'],
    ['Travel', 'EXPENSE', 'EUR'],
    ['Yen cash', 'ASSET', 'JPY'],
    ['Gifts', 'INCOME', 'JPY'],
  ] as const) {
    const res = await api.post('/api/accounts', { name, type, currency }, token);
    ids[name] = res.body.id;
  }
});
afterAll(() => t.stop());

/** The shapes of entry a create can store, each as a request body. */
const shapes = () => ({
  'posted, one currency, with a memo': {
    entry_date: '2026-04-01',
    memo: 'Weekly shop ü 中文',
    auto_post: true,
    lines: [
      { account_id: ids.Groceries, direction: 'DEBIT', amount: '82.50' },
      { account_id: ids.Checking, direction: 'CREDIT', amount: '82.5' },
    ],
  },
  'a draft without a memo that does not balance yet': {
    entry_date: '2026-04-02',
    lines: [
      { account_id: ids.Groceries, direction: 'DEBIT', amount: '10' },
      { account_id: ids.Checking, direction: 'CREDIT', amount: '9.99' },
    ],
  },
  'posted across currencies, a line with its cost (the automatic trading lines added)': {
    entry_date: '2026-04-03',
    memo: 'Dinner in Paris',
    auto_post: true,
    lines: [
      { account_id: ids.Travel, direction: 'DEBIT', amount: '100.00', cost: { amount: '108.50', currency: 'USD' } },
      { account_id: ids.Checking, direction: 'CREDIT', amount: '108.50' },
    ],
  },
  'a draft across currencies with its cost': {
    entry_date: '2026-04-04',
    memo: 'Train tickets',
    auto_post: false,
    lines: [
      { account_id: ids.Travel, direction: 'DEBIT', amount: '40.00', cost: { amount: '43.00', currency: 'USD' } },
      { account_id: ids.Checking, direction: 'CREDIT', amount: '43.00' },
    ],
  },
  'posted in a currency without minor units, three lines': {
    entry_date: '2026-04-05',
    memo: '',
    auto_post: true,
    lines: [
      { account_id: ids['Yen cash'], direction: 'DEBIT', amount: '5000' },
      { account_id: ids['Yen cash'], direction: 'DEBIT', amount: '1' },
      { account_id: ids.Gifts, direction: 'CREDIT', amount: '5001' },
    ],
  },
});

describe('the answer of creating entries', () => {
  it('when an entry of each shape is created one at a time, then its answer is byte for byte what a later GET of it answers', async () => {
    for (const [shape, body] of Object.entries(shapes())) {
      const created = await api.post('/api/journal-entries', body, token);
      expect(created.status, `${shape}: ${created.text}`).toBe(201);
      const read = await api.get(`/api/journal-entries/${created.body.id}`, token);
      expect(read.status).toBe(200);
      expect(created.text, shape).toBe(read.text);
    }
  });

  it('when entries of every shape are created in one batch, then each entry of the answer is byte for byte what a later GET of it answers', async () => {
    const bodies = Object.values(shapes());
    const created = await api.post('/api/journal-entries/batch', { entries: bodies }, token);
    expect(created.status, created.text).toBe(201);
    const entries = created.body.items as { id: string }[];
    expect(entries).toHaveLength(bodies.length);
    for (const entry of entries) {
      const read = await api.get(`/api/journal-entries/${entry.id}`, token);
      expect(JSON.stringify(entry)).toBe(read.text);
    }
    // the batch's lines kept their own ids, none shared between entries
    const lineIds = (created.body.items as { lines: { id: string }[] }[]).flatMap((e) => e.lines.map((l) => l.id));
    expect(new Set(lineIds).size).toBe(lineIds.length);
  });

  it('when a posted entry is corrected, then the corrected entry of the answer is byte for byte what a later GET of it answers', async () => {
    const { 'posted across currencies, a line with its cost (the automatic trading lines added)': body } = shapes();
    const original = await api.post('/api/journal-entries', body, token);
    const corrected = await api.post(
      `/api/journal-entries/${original.body.id}/correct`,
      { entry_date: body.entry_date, lines: body.lines, memo: 'Dinner in Paris, with the tip', reason: 'tip left out' },
      token,
    );
    expect(corrected.status, corrected.text).toBe(201);
    const read = await api.get(`/api/journal-entries/${corrected.body.entry.id}`, token);
    expect(JSON.stringify(corrected.body.entry)).toBe(read.text);
    expect(corrected.body.entry.corrects).toBe(original.body.id);
  });
});
