import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../../test/support/server.ts';
import {
  account,
  allTransactions,
  api,
  count,
  createStatement,
  digest,
  fixture,
  importRaw,
  token,
  useStatementsServer,
  type Txn,
} from '../../../test/support/statements-api.ts';

useStatementsServer();

describe('reading and deleting statements', () => {
  let bank: string;
  let ids: string[];

  beforeAll(async () => {
    bank = await account('Listing bank', 'ASSET');
    ids = [];
    for (let i = 1; i <= 3; i++) {
      const res = await createStatement({
        account_id: bank,
        name: `Listing ${i}`,
        transactions: Array.from({ length: 5 }, (_, k) => ({
          date: `2026-0${i}-1${k}`,
          description: `Row ${i}.${k}`,
          amount: `${i}${k}.00`,
          type: 'debit',
        })),
      });
      ids.push(res.body.id);
    }
    // a statement of another account, which the account filter leaves out
    const other = await account('Other listing bank', 'ASSET');
    const elsewhere = await createStatement({
      account_id: other,
      transactions: [{ date: '2026-01-05', description: 'Elsewhere', amount: '1.00', type: 'debit' }],
    });
    expect(elsewhere.status).toBe(201);
  });

  it('when statements are listed, then they come newest first, paginated with the true total, and filter by account', async () => {
    const page1 = await api.get(`/api/statements?account_id=${bank}&per_page=2`, token);
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ total: 3, page: 1, per_page: 2 });
    expect(page1.body.items.map((s: { name: string }) => s.name)).toEqual(['Listing 3', 'Listing 2']);
    const page2 = await api.get(`/api/statements?account_id=${bank}&per_page=2&page=2`, token);
    expect(page2.body.items.map((s: { name: string }) => s.name)).toEqual(['Listing 1']);
    const past = await api.get(`/api/statements?account_id=${bank}&per_page=2&page=3`, token);
    expect(past.body).toMatchObject({ items: [], total: 3 });
    const all = await api.get('/api/statements?per_page=100', token);
    expect(all.body.total).toBeGreaterThan(3);
    expect((await api.get('/api/statements?per_page=0', token)).body.code).toBe('VALIDATION_ERROR');
    expect((await api.get('/api/statements?per_page=101', token)).body.code).toBe('VALIDATION_ERROR');
  });

  it('when a statement’s transactions are paged, then the pages split them by date with the true total', async () => {
    const page1 = await api.get(`/api/statements/${ids[1]}/transactions?per_page=2`, token);
    expect(page1.body).toMatchObject({ total: 5, page: 1, per_page: 2 });
    expect(page1.body.items.map((x: Txn) => x.description)).toEqual(['Row 2.0', 'Row 2.1']);
    const page3 = await api.get(`/api/statements/${ids[1]}/transactions?per_page=2&page=3`, token);
    expect(page3.body.items.map((x: Txn) => x.description)).toEqual(['Row 2.4']);
  });

  it('when an unknown or malformed statement id is asked for, then 404 NOT_FOUND', async () => {
    for (const id of [crypto.randomUUID(), 'not-an-id']) {
      expect((await api.get(`/api/statements/${id}`, token)).status).toBe(404);
      expect((await api.get(`/api/statements/${id}/transactions`, token)).body.code).toBe('NOT_FOUND');
      expect((await api.delete(`/api/statements/${id}`, token)).status).toBe(404);
    }
  });

  it('when a statement is deleted, then 204, it and its transactions are gone, and its rows can be imported again', async () => {
    const res = await createStatement({
      account_id: bank,
      transactions: [{ date: '2026-07-01', description: 'Deleted soon', amount: '7.00', type: 'debit' }],
    });
    const del = await api.delete(`/api/statements/${res.body.id}`, token);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await api.get(`/api/statements/${res.body.id}`, token)).status).toBe(404);
    expect(count('bank_transactions', 'statement_id = ?', res.body.id)).toBe(0);
    const again = await createStatement({
      account_id: bank,
      transactions: [{ date: '2026-07-01', description: 'Deleted soon', amount: '7.00', type: 'debit' }],
    });
    expect(again.body.imported_count).toBe(1);
  });

  it('when a transaction is reconciled, then its status shows it and the statement cannot be deleted (409 HAS_RECONCILED)', async () => {
    const food = await account('Listing food', 'EXPENSE');
    const res = await createStatement({
      account_id: bank,
      transactions: [
        { date: '2026-08-01', description: 'Reconciled lunch', amount: '11.00', type: 'debit' },
        { date: '2026-08-02', description: 'Auto matched dinner', amount: '23.00', type: 'debit' },
      ],
    });
    const [lunch, dinner] = await allTransactions(res.body.id);
    const created = await api.post(
      `/api/reconciliation/unmatched/${lunch!.id}/create-entry`,
      { account_id: food },
      token,
    );
    expect(created.status).toBe(201);
    const entry = await api.post(
      '/api/journal-entries',
      {
        entry_date: '2026-08-02',
        memo: 'Auto matched dinner',
        auto_post: true,
        lines: [
          { account_id: food, direction: 'DEBIT', amount: '23.00' },
          { account_id: bank, direction: 'CREDIT', amount: '23.00' },
        ],
      },
      token,
    );
    expect(entry.status).toBe(201);
    const run = await api.post('/api/reconciliation/run', { statement_id: res.body.id }, token);
    expect(run.body.summary).toMatchObject({ total_transactions: 1, auto_accepted: 1 });
    const txns = await allTransactions(res.body.id);
    expect(txns.map((x) => [x.description, x.reconciliation_status, x.match_id])).toEqual([
      ['Reconciled lunch', 'accepted', created.body.match.id],
      ['Auto matched dinner', 'auto_accepted', expect.any(String)],
    ]);
    expect(dinner!.id).toBe(txns[1]!.id);

    const before = digest();
    const del = await api.delete(`/api/statements/${res.body.id}`, token);
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('HAS_RECONCILED');
    expect(digest()).toBe(before);
  });

  it('when a statement only has a match under review, then it can be deleted and the match goes with it', async () => {
    const food = await account('Review food', 'EXPENSE');
    const res = await createStatement({
      account_id: bank,
      transactions: [{ date: '2026-09-10', description: 'Hardware store', amount: '64.00', type: 'debit' }],
    });
    await api.post(
      '/api/journal-entries',
      {
        entry_date: '2026-09-13',
        memo: 'Shelves',
        auto_post: true,
        lines: [
          { account_id: food, direction: 'DEBIT', amount: '64.00' },
          { account_id: bank, direction: 'CREDIT', amount: '64.00' },
        ],
      },
      token,
    );
    const run = await api.post('/api/reconciliation/run', { statement_id: res.body.id }, token);
    expect(run.body.summary).toMatchObject({ total_transactions: 1, pending_review: 1 });
    const [txn] = await allTransactions(res.body.id);
    expect(txn!.reconciliation_status).toBe('pending_review');
    expect((await api.delete(`/api/statements/${res.body.id}`, token)).status).toBe(204);
    expect(count('reconciliation_matches', 'id = ?', txn!.match_id)).toBe(0);
  });
});

describe('user isolation', () => {
  it('when another user asks for a statement, then 404, and it cannot use the first user’s account', async () => {
    const bank = await account('Isolated bank', 'ASSET');
    const mine = await createStatement({
      account_id: bank,
      transactions: [{ date: '2026-03-01', description: 'Private', amount: '1.00', type: 'debit' }],
    });
    const other = await registerUser(api, 'Other');
    expect((await api.get(`/api/statements/${mine.body.id}`, other.token)).status).toBe(404);
    expect((await api.get(`/api/statements/${mine.body.id}/transactions`, other.token)).body.code).toBe('NOT_FOUND');
    expect((await api.delete(`/api/statements/${mine.body.id}`, other.token)).status).toBe(404);
    expect((await api.get(`/api/statements/${mine.body.id}`, token)).status).toBe(200);
    expect((await api.get('/api/statements', other.token)).body).toMatchObject({ items: [], total: 0 });

    const steal = await createStatement({ account_id: bank, transactions: [] }, other.token);
    expect(steal.status).toBe(400);
    expect(steal.body.code).toBe('INVALID_ACCOUNT');
    const stealFile = await importRaw(`account_id=${bank}`, fixture('ofx2_asgrim_savings_usd.ofx'), other.token);
    expect(stealFile.status).toBe(400);
    expect(stealFile.body.code).toBe('INVALID_ACCOUNT');
  });

  it('when there is no token, then 401 Not authenticated', async () => {
    const res = await api.get('/api/statements');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Not authenticated' });
    const upload = await importRaw(`account_id=${crypto.randomUUID()}`, fixture('ofx2_asgrim_savings_usd.ofx'), '');
    expect(upload.status).toBe(401);
  });
});
