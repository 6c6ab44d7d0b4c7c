import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { Book, pendingFor, type MatchBody } from '../../../test/support/reconciliation-book.ts';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

describe('accepting and rejecting (spec §3.3)', () => {
  let book: Book;
  let bank: string;
  let spend: string;
  let day = 0;

  /** A fresh pending_review match: a bank debit and an entry three days later with other words. */
  async function pendingMatch(accountId = bank): Promise<MatchBody> {
    day += 1;
    // amounts 100 apart: no earlier entry is ever a candidate for a later transaction
    const amount = `${100 * day + 40}.00`;
    const date = `2025-${String(1 + Math.floor(day / 25)).padStart(2, '0')}-${String(1 + (day % 25)).padStart(2, '0')}`;
    const s = await book.statement(accountId, [{ date, description: `STORE ${day}`, amount, type: 'debit' }]);
    const later = new Date(`${date}T00:00:00Z`);
    later.setUTCDate(later.getUTCDate() + 3);
    await book.entry(accountId, spend, later.toISOString().slice(0, 10), 'Shopping', amount);
    expect(await book.run({ statement_id: s.id })).toMatchObject({ pending_review: 1 });
    return pendingFor(await book.pending(), s.txns[0]!.id);
  }

  beforeAll(async () => {
    book = await Book.open(t);
    bank = await book.account('Checking', 'ASSET');
    spend = await book.account('Spending', 'EXPENSE');
  });

  it('when a pending match is accepted, then it is accepted with accepted_at and a new version, and leaves the review queue', async () => {
    const m = await pendingMatch();
    const res = await book.accept(m.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: m.id, status: 'accepted', accepted_at: expect.any(String), version: 2 });
    expect(book.match(m.id)).toMatchObject({
      status: 'accepted',
      accepted_at: res.body.accepted_at,
      version: 2,
      rejected_at: null,
    });
    expect((await book.pending()).map((x) => x.id)).not.toContain(m.id);
  });

  it('when an accepted, auto-accepted or rejected match is accepted, or an accepted or rejected one rejected, then 400 ALREADY_PROCESSED and nothing changes', async () => {
    const accepted = await pendingMatch();
    expect((await book.accept(accepted.id)).status).toBe(200);
    const rejected = await pendingMatch();
    expect((await book.reject(rejected.id, { reason: 'wrong' })).status).toBe(200);
    const s = await book.statement(bank, [
      { date: '2024-06-01', description: 'AUTO PAYEE', amount: '12.00', type: 'debit' },
    ]);
    await book.entry(bank, spend, '2024-06-01', 'AUTO PAYEE', '12.00');
    expect(await book.run({ statement_id: s.id })).toMatchObject({ auto_accepted: 1 });
    const auto = (await book.txns(s.id))[0]!.match_id!;

    const before = book.digest();
    const decisions = [accepted.id, rejected.id, auto].flatMap((id) => [
      () => book.accept(id),
      ...(id === auto ? [] : [() => book.reject(id, { reason: 'again' })]),
    ]);
    for (const decide of decisions) {
      const res = await decide();
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('ALREADY_PROCESSED');
    }
    expect(book.digest()).toBe(before);
  });

  it('when the match id is unknown or malformed, then 404 NOT_FOUND', async () => {
    for (const id of [crypto.randomUUID(), 'nope']) {
      for (const res of [await book.accept(id), await book.reject(id)]) {
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('NOT_FOUND');
      }
    }
  });

  it('when a stale version is sent, then 409 VERSION_CONFLICT and the match is unchanged; the current version is accepted', async () => {
    const m = await pendingMatch();
    const before = book.digest();
    for (const res of [await book.accept(m.id, { version: 7 }), await book.reject(m.id, { version: 2, reason: 'x' })]) {
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('VERSION_CONFLICT');
    }
    expect(book.digest()).toBe(before);
    const ok = await book.accept(m.id, { version: 1 });
    expect(ok.status).toBe(200);
    expect(ok.body.version).toBe(2);
    const late = await book.accept(m.id, { version: 1 });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('ALREADY_PROCESSED');
  });

  it('when the decision body is malformed, then 400 VALIDATION_ERROR names the field', async () => {
    const m = await pendingMatch();
    for (const [body, field] of [
      [{ version: '1' }, 'version'],
      [{ version: 0 }, 'version'],
      [{ reason: 5 }, 'reason'],
      [{ status: 'accepted' }, 'status'],
    ] as const) {
      const res = await book.reject(m.id, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect(book.match(m.id).status).toBe('pending_review');
  });

  it('when two accepts of one match race, then exactly one wins and the other gets ALREADY_PROCESSED or 409', async () => {
    const m = await pendingMatch();
    const results = await Promise.all([book.accept(m.id), book.accept(m.id)]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    const loser = results.find((r) => r.status !== 200)!;
    expect([400, 409]).toContain(loser.status);
    expect(['ALREADY_PROCESSED', 'VERSION_CONFLICT']).toContain(loser.body.code);
    expect(book.match(m.id)).toMatchObject({ status: 'accepted', version: 2 });
    // the payee model learnt the pair once
    expect(
      book.rows('SELECT id FROM payee_examples WHERE description = ?', m.bank_transaction.description),
    ).toHaveLength(1);
  });

  it('when an accept and a reject race with the same version, then exactly one decision is recorded', async () => {
    const m = await pendingMatch();
    const results = await Promise.all([
      book.accept(m.id, { version: 1 }),
      book.reject(m.id, { version: 1, reason: 'race' }),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const loser = results.find((r) => r.status !== 200)!;
    expect(['ALREADY_PROCESSED', 'VERSION_CONFLICT']).toContain(loser.body.code);
    const row = book.match(m.id);
    expect(row.version).toBe(2);
    expect(row.status).toBe(results[0]!.status === 200 ? 'accepted' : 'rejected');
  });

  describe('batch-accept and the review queue', () => {
    let queueBook: Book;
    let a1: string;
    let a2: string;
    let matches: MatchBody[];

    beforeAll(async () => {
      queueBook = await Book.open(t);
      a1 = await queueBook.account('First bank', 'ASSET');
      a2 = await queueBook.account('Second bank', 'LIABILITY');
      const misc = await queueBook.account('Misc', 'EXPENSE');
      // other words, dates 1, 6, 12 and 18 days apart: four review scores about 5 points apart
      const plan: [string, string, string, number][] = [
        [a1, 'ALPHA', '11.00', 1],
        [a1, 'BRAVO', '122.00', 6],
        [a2, 'CHARLIE', '233.00', 12],
        [a2, 'DELTA', '344.00', 18],
      ];
      for (const [acct, word, amount, days] of plan) {
        const s = await queueBook.statement(acct, [
          { date: '2026-02-01', description: `${word} PAYMENT`, amount, type: 'debit' },
        ]);
        await queueBook.entry(acct, misc, `2026-02-${String(1 + days).padStart(2, '0')}`, 'Monthly bill', amount);
        await queueBook.run({ statement_id: s.id });
      }
      matches = await queueBook.pending();
    });

    it('when the queue is listed, then it holds pending_review matches ordered by score, highest first, paginated', async () => {
      expect(matches).toHaveLength(4);
      const scores = matches.map((m) => m.score);
      expect(scores).toEqual([...scores].sort((x, y) => y - x));
      expect(new Set(scores).size).toBe(4);
      expect(matches.map((m) => m.bank_transaction.description)).toEqual([
        'ALPHA PAYMENT',
        'BRAVO PAYMENT',
        'CHARLIE PAYMENT',
        'DELTA PAYMENT',
      ]);
      expect(matches.every((m) => m.status === 'pending_review' && m.score >= 60 && m.score <= 84)).toBe(true);
      const page2 = await queueBook.get('/api/reconciliation/pending?per_page=3&page=2');
      expect(page2.body).toMatchObject({ total: 4, page: 2, per_page: 3 });
      expect(page2.body.items.map((m: MatchBody) => m.id)).toEqual([matches[3]!.id]);
    });

    it('when the queue is filtered by min_score, max_score or account_id, then only those matches come', async () => {
      const [alpha, bravo, charlie, delta] = matches;
      expect((await queueBook.pending(`&min_score=${bravo!.score}`)).map((m) => m.id)).toEqual([alpha!.id, bravo!.id]);
      expect((await queueBook.pending(`&max_score=${charlie!.score}`)).map((m) => m.id)).toEqual([
        charlie!.id,
        delta!.id,
      ]);
      expect(
        (await queueBook.pending(`&min_score=${charlie!.score}&max_score=${bravo!.score}`)).map((m) => m.id),
      ).toEqual([bravo!.id, charlie!.id]);
      expect((await queueBook.pending(`&account_id=${a2}`)).map((m) => m.id)).toEqual([charlie!.id, delta!.id]);
      expect(await queueBook.pending(`&account_id=${crypto.randomUUID()}`)).toEqual([]);
      for (const query of ['min_score=90&max_score=80', 'min_score=abc', 'max_score=101', 'per_page=0']) {
        const res = await queueBook.get(`/api/reconciliation/pending?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.code).toBe('VALIDATION_ERROR');
      }
    });

    it('when batch-accept is malformed, then 400 VALIDATION_ERROR and nothing is accepted', async () => {
      const before = queueBook.digest();
      for (const [body, field] of [
        [{}, 'min_score'],
        [{ min_score: 101 }, 'min_score'],
        [{ min_score: '60' }, 'min_score'],
        [{ min_score: 60, match_ids: 'x' }, 'match_ids'],
      ] as const) {
        const res = await queueBook.post('/api/reconciliation/batch-accept', body);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('VALIDATION_ERROR');
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      expect(queueBook.digest()).toBe(before);
    });

    it('when batch-accept is filtered by match_ids, account_id and min_score, then it accepts exactly the pending matches that pass every filter', async () => {
      const [alpha, bravo, charlie, delta] = matches;
      // match_ids: only listed ones, and only those at or above min_score
      const byIds = await queueBook.post('/api/reconciliation/batch-accept', {
        min_score: charlie!.score,
        match_ids: [alpha!.id, delta!.id],
      });
      expect(byIds.status).toBe(200);
      expect(byIds.body).toEqual({ accepted_count: 1, match_ids: [alpha!.id] });
      // account_id
      const byAccount = await queueBook.post('/api/reconciliation/batch-accept', {
        min_score: 0,
        account_id: a2,
        match_ids: [bravo!.id, charlie!.id],
      });
      expect(byAccount.body).toEqual({ accepted_count: 1, match_ids: [charlie!.id] });
      // min_score above what is left accepts nothing
      expect((await queueBook.post('/api/reconciliation/batch-accept', { min_score: 100 })).body).toEqual({
        accepted_count: 0,
        match_ids: [],
      });
      // the rest, by score
      const rest = await queueBook.post('/api/reconciliation/batch-accept', { min_score: delta!.score });
      expect(rest.body).toEqual({ accepted_count: 2, match_ids: [bravo!.id, delta!.id] });
      for (const m of matches)
        expect(queueBook.match(m.id)).toMatchObject({
          status: 'accepted',
          accepted_at: expect.any(String),
          version: 2,
        });
      expect(await queueBook.pending()).toEqual([]);
      // an already accepted match listed again is not counted twice
      expect(
        (await queueBook.post('/api/reconciliation/batch-accept', { min_score: 0, match_ids: [alpha!.id] })).body,
      ).toEqual({ accepted_count: 0, match_ids: [] });
    });
  });
});
