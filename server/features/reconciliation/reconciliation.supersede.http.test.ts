import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { Book } from '../../../test/support/reconciliation-book.ts';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

describe('superseding and rejected pairs', () => {
  it('when a rerun finds a better candidate for a pending match, then the old one is superseded, points at the new one, and cannot be decided', async () => {
    const book = await Book.open(t);
    const bank = await book.account('Checking', 'ASSET');
    const books = await book.account('Books', 'EXPENSE');
    const s = await book.statement(bank, [
      { date: '2026-05-10', description: 'BOOKSHOP 77', amount: '25.00', type: 'debit' },
    ]);
    const [txn] = s.txns;
    const far = await book.entry(bank, books, '2026-05-14', 'Novel', '25.00');
    expect(await book.run({ statement_id: s.id })).toMatchObject({ pending_review: 1 });
    const [old] = await book.pending();
    expect(old!.journal_entries[0]!.id).toBe(far);

    const near = await book.entry(bank, books, '2026-05-11', 'Novel', '25.00');
    expect(await book.run({ statement_id: s.id })).toEqual({
      total_transactions: 1,
      auto_accepted: 0,
      pending_review: 1,
      unmatched: 0,
    });
    const [fresh] = await book.pending();
    expect(fresh!.id).not.toBe(old!.id);
    expect(fresh!.journal_entries[0]!.id).toBe(near);
    expect(fresh!.score).toBeGreaterThan(old!.score);
    expect(book.match(old!.id)).toMatchObject({ status: 'superseded', superseded_by_id: fresh!.id, version: 2 });
    const read = await book.api.get(`/api/reconciliation/matches/${old!.id}`, book.token);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      id: old!.id,
      status: 'superseded',
      superseded_by_id: fresh!.id,
      version: 2,
      journal_entries: [{ id: far }],
    });
    expect((await book.api.get(`/api/reconciliation/matches/${crypto.randomUUID()}`, book.token)).status).toBe(404);
    expect((await book.txns(s.id))[0]).toMatchObject({
      id: txn!.id,
      reconciliation_status: 'pending_review',
      match_id: fresh!.id,
    });

    const before = book.digest();
    const accept = await book.accept(old!.id);
    expect(accept.status).toBe(400);
    expect(accept.body.code).toBe('SUPERSEDED');
    const reject = await book.reject(old!.id, { reason: 'no' });
    expect(reject.status).toBe(400);
    expect(reject.body.code).toBe('SUPERSEDED');
    expect(book.digest()).toBe(before);

    // the entry that lost is free again: it shows among the unmatched entries
    const entries = await book.unmatched('&type=journal_entry');
    expect(entries.map((u) => u.transaction.id)).toEqual([far]);
  });

  it('when a pending match’s entry goes to a better transaction, then that match is superseded by the new one', async () => {
    const book = await Book.open(t);
    const bank = await book.account('Checking', 'ASSET');
    const rent = await book.account('Rent', 'EXPENSE');
    const s1 = await book.statement(bank, [
      { date: '2026-06-01', description: 'LANDLORD', amount: '700.00', type: 'debit' },
    ]);
    const entry = await book.entry(bank, rent, '2026-06-04', 'June rent', '700.00');
    expect(await book.run({ account_id: bank })).toMatchObject({ pending_review: 1 });
    const [old] = await book.pending();
    const s2 = await book.statement(bank, [
      { date: '2026-06-04', description: 'June rent', amount: '700.00', type: 'debit' },
    ]);
    expect(await book.run({ account_id: bank })).toEqual({
      total_transactions: 2,
      auto_accepted: 1,
      pending_review: 0,
      unmatched: 1,
    });
    const [newTxn] = await book.txns(s2.id);
    expect(newTxn!.reconciliation_status).toBe('auto_accepted');
    expect(book.match(newTxn!.match_id!).entry_id).toBe(entry);
    expect(book.match(old!.id)).toMatchObject({ status: 'superseded', superseded_by_id: newTxn!.match_id });
    expect((await book.txns(s1.id))[0]!.reconciliation_status).toBe('unmatched');
  });

  it('when a match is rejected, then it records the reason and time, and a rerun never proposes that pair again', async () => {
    const book = await Book.open(t);
    const bank = await book.account('Checking', 'ASSET');
    const health = await book.account('Health', 'EXPENSE');
    const s = await book.statement(bank, [
      { date: '2026-05-20', description: 'PHARMACY 9', amount: '15.00', type: 'debit' },
    ]);
    const first = await book.entry(bank, health, '2026-05-23', 'Medicine', '15.00');
    await book.run({ statement_id: s.id });
    const [m] = await book.pending();
    const res = await book.reject(m!.id, { reason: 'not this purchase' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: m!.id,
      status: 'rejected',
      reject_reason: 'not this purchase',
      rejected_at: expect.any(String),
      version: 2,
    });
    expect(book.match(m!.id)).toMatchObject({
      status: 'rejected',
      reject_reason: 'not this purchase',
      rejected_at: res.body.rejected_at,
      accepted_at: null,
    });

    expect(await book.run({ statement_id: s.id })).toEqual({
      total_transactions: 1,
      auto_accepted: 0,
      pending_review: 0,
      unmatched: 1,
    });
    expect(await book.run({ account_id: bank })).toMatchObject({ pending_review: 0, unmatched: 1 });
    expect(await book.pending()).toEqual([]);
    expect(book.rows('SELECT id FROM reconciliation_matches WHERE entry_id = ?', first)).toHaveLength(1);

    // another entry for the same transaction is still proposed
    const second = await book.entry(bank, health, '2026-05-22', 'Medicine again', '15.00');
    expect(await book.run({ statement_id: s.id })).toMatchObject({ pending_review: 1 });
    expect((await book.pending())[0]!.journal_entries[0]!.id).toBe(second);
  });

  it('when a match is rejected without a reason, then reject_reason is null', async () => {
    const book = await Book.open(t);
    const bank = await book.account('Checking', 'ASSET');
    const misc = await book.account('Misc', 'EXPENSE');
    const s = await book.statement(bank, [{ date: '2026-05-20', description: 'KIOSK', amount: '5.00', type: 'debit' }]);
    await book.entry(bank, misc, '2026-05-23', 'Snacks', '5.00');
    await book.run({ statement_id: s.id });
    const [m] = await book.pending();
    const res = await book.reject(m!.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'rejected', reject_reason: null });
  });
});
