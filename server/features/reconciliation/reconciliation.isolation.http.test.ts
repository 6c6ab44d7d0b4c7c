import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { Book, byDescription } from '../../../test/support/reconciliation-book.ts';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

describe('user isolation', () => {
  it('when another user uses the first user’s match, transaction or statement ids, then 404 or nothing, and the first user’s data is untouched', async () => {
    const a = await Book.open(t);
    const bank = await a.account('Checking', 'ASSET');
    const spend = await a.account('Spending', 'EXPENSE');
    const s = await a.statement(bank, [
      { date: '2026-03-01', description: 'PRIVATE LOOSE', amount: '50.00', type: 'debit' },
      { date: '2026-03-02', description: 'PRIVATE OPEN', amount: '7.00', type: 'debit' },
    ]);
    await a.entry(bank, spend, '2026-03-04', 'Something else', '50.00');
    await a.run({ statement_id: s.id });
    const [m] = await a.pending();
    const open = byDescription(s.txns, 'PRIVATE OPEN');
    const before = a.digest();

    const b = await Book.open(t);
    const bSpend = await b.account('B spending', 'EXPENSE');
    for (const res of [await b.accept(m!.id), await b.reject(m!.id, { reason: 'x' })]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    const create = await b.post(`/api/reconciliation/unmatched/${open.id}/create-entry`, { account_id: bSpend });
    expect(create.status).toBe(404);
    expect(create.body.code).toBe('NOT_FOUND');
    expect((await b.post('/api/reconciliation/batch-accept', { min_score: 0, match_ids: [m!.id] })).body).toEqual({
      accepted_count: 0,
      match_ids: [],
    });
    const run = await b.post('/api/reconciliation/run', { statement_id: s.id });
    expect(run.status).toBe(400);
    expect((await b.post('/api/reconciliation/run', { account_id: bank })).body.code).toBe('INVALID_ACCOUNT');
    expect(await b.pending()).toEqual([]);
    expect(await b.unmatched()).toEqual([]);
    expect((await b.stats()).total_transactions).toBe(0);

    expect(a.digest()).toBe(before);
    expect(a.match(m!.id).status).toBe('pending_review');
  });

  it('when no token is sent, then every reconciliation endpoint answers 401 Not authenticated', async () => {
    const id = crypto.randomUUID();
    const calls: [string, string][] = [
      ['POST', '/api/reconciliation/run'],
      ['GET', '/api/reconciliation/pending'],
      ['POST', `/api/reconciliation/matches/${id}/accept`],
      ['POST', `/api/reconciliation/matches/${id}/reject`],
      ['POST', '/api/reconciliation/batch-accept'],
      ['GET', '/api/reconciliation/stats'],
      ['GET', '/api/reconciliation/unmatched'],
      ['POST', `/api/reconciliation/unmatched/${id}/create-entry`],
    ];
    for (const [method, urlPath] of calls) {
      const res = await t.api.request(method, urlPath, method === 'POST' ? { body: {} } : {});
      expect(res.status, urlPath).toBe(401);
      expect(res.body).toEqual({ detail: 'Not authenticated' });
    }
  });
});
