import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../../test/support/ledger-user.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import {
  Book,
  byDescription,
  expectIntegerBreakdown,
  total,
  type BankTxn,
} from '../../../test/support/reconciliation-book.ts';

const server = useTestServer();

describe('POST /api/reconciliation/run', () => {
  it('when neither statement_id nor account_id is given, then 400 VALIDATION_ERROR and nothing is stored', async () => {
    const book = await Book.open(server());
    const before = book.digest();
    for (const body of [{}, { start_date: '2026-01-01', end_date: '2026-01-31' }]) {
      const res = await book.post('/api/reconciliation/run', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('statement_id');
    }
    expect(book.digest()).toBe(before);
  });

  it('when the scope is wrong, then it is refused: unknown statement, non-bank account, reversed dates, bad date', async () => {
    const book = await Book.open(server());
    const food = await book.account('Food', 'EXPENSE');
    const bank = await book.account('Bank', 'ASSET');
    const cases: [unknown, string, string][] = [
      [{ statement_id: crypto.randomUUID() }, 'VALIDATION_ERROR', 'statement_id'],
      [{ account_id: crypto.randomUUID() }, 'INVALID_ACCOUNT', 'account_id'],
      [{ account_id: food }, 'INVALID_ACCOUNT', 'account_id'],
      [{ account_id: bank, start_date: '2026-02-01', end_date: '2026-01-01' }, 'VALIDATION_ERROR', 'start_date'],
      [{ account_id: bank, start_date: '2026-02-30' }, 'VALIDATION_ERROR', 'start_date'],
      [{ account_id: bank, extra: 1 }, 'VALIDATION_ERROR', 'extra'],
    ];
    for (const [body, code, field] of cases) {
      const res = await book.post('/api/reconciliation/run', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe(code);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });

  describe('classification with the default thresholds', () => {
    let book: Book;
    let bank: string;
    let coffee: string;
    let statement: { id: string; txns: BankTxn[] };
    let runBody: any;

    beforeAll(async () => {
      book = await Book.open(server());
      bank = await book.account('Checking', 'ASSET');
      coffee = await book.account('Coffee', 'EXPENSE');
      const hardware = await book.account('Home', 'EXPENSE');
      const parties = await book.account('Parties', 'EXPENSE');
      const shop = await book.account('Shop', 'EXPENSE');
      statement = await book.statement(bank, [
        { date: '2026-03-10', description: 'ACME COFFEE 123', amount: '4.50', type: 'debit' },
        { date: '2026-03-12', description: 'HARDWARE STORE 55', amount: '64.00', type: 'debit' },
        { date: '2026-03-20', description: 'MYSTERY CHARGE', amount: '200.00', type: 'debit' },
        { date: '2026-03-22', description: 'REFUND SHOP', amount: '30.00', type: 'credit' },
      ]);
      // exact: same amount, same day, memo = description, an expense counter account
      await book.entry(bank, coffee, '2026-03-10', 'ACME COFFEE 123', '4.50');
      // weaker: three days off, other wording
      await book.entry(bank, hardware, '2026-03-15', 'Shelves for garage', '64.00');
      // poor: 30 off and ten days apart
      await book.entry(bank, parties, '2026-03-30', 'Dinner party', '170.00');
      // same amount, day and text, but money out where the bank says money in: never a candidate
      await book.entry(bank, shop, '2026-03-22', 'REFUND SHOP', '30.00', true);
      const res = await book.post('/api/reconciliation/run', { statement_id: statement.id });
      expect(res.status).toBe(200);
      runBody = res.body;
    });

    it('when the run completes, then it answers its id, status completed, the summary counts and completed_at', () => {
      expect(runBody).toEqual({
        run_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        status: 'completed',
        summary: { total_transactions: 4, auto_accepted: 1, pending_review: 1, unmatched: 2 },
        completed_at: expect.any(String),
      });
      expect(Number.isNaN(Date.parse(runBody.completed_at))).toBe(false);
      const [run] = book.rows<{
        total_transactions: number;
        auto_accepted: number;
        pending_review: number;
        unmatched: number;
      }>('SELECT * FROM reconciliation_runs WHERE id = ?', runBody.run_id);
      expect(run).toMatchObject({ total_transactions: 4, auto_accepted: 1, pending_review: 1, unmatched: 2 });
    });

    it('when a pair is exact, then it is auto_accepted with score 95: every dimension 100 but history (a new payee)', async () => {
      const txns = await book.txns(statement.id);
      const exact = byDescription(txns, 'ACME COFFEE 123');
      expect(exact.reconciliation_status).toBe('auto_accepted');
      const row = book.match(exact.match_id!);
      expect(row).toMatchObject({
        status: 'auto_accepted',
        score: 95,
        score_amount: 100,
        score_date: 100,
        score_description: 100,
        score_business: 100,
        score_history: 0,
      });
      expect(row.accepted_at).toEqual(expect.any(String));
      const stats = await book.stats();
      expect(stats.score_distribution['85_100']).toBe(1);
    });

    it('when a pair is three days off with other wording, then it waits in pending_review with a score from 60 to 84 and an integer breakdown', async () => {
      const txns = await book.txns(statement.id);
      const weaker = byDescription(txns, 'HARDWARE STORE 55');
      expect(weaker.reconciliation_status).toBe('pending_review');
      const pending = await book.pending();
      expect(pending).toHaveLength(1);
      const m = pending[0]!;
      expect(m).toMatchObject({
        id: weaker.match_id,
        status: 'pending_review',
        bank_transaction: {
          id: weaker.id,
          date: '2026-03-12',
          description: 'HARDWARE STORE 55',
          amount: '64.00',
          type: 'debit',
        },
        journal_entries: [
          { id: expect.any(String), entry_date: '2026-03-15', memo: 'Shelves for garage', total_amount: '64.00' },
        ],
        version: 1,
        superseded_by_id: null,
        accepted_at: null,
        rejected_at: null,
        reject_reason: null,
      });
      expectIntegerBreakdown(m.score_breakdown);
      expect(m.score_breakdown).toMatchObject({ amount: 100, date: 90, business: 100, history: 0 });
      expect(m.score_breakdown.description).toBeLessThan(50);
      expect(m.score).toBe(total(m.score_breakdown));
      expect(m.score).toBeGreaterThanOrEqual(60);
      expect(m.score).toBeLessThanOrEqual(84);
    });

    it('when the best pair scores below 60 or has the wrong direction, then the transaction stays unmatched with no match row', async () => {
      const txns = await book.txns(statement.id);
      for (const description of ['MYSTERY CHARGE', 'REFUND SHOP']) {
        const txn = byDescription(txns, description);
        expect(txn).toMatchObject({ reconciliation_status: 'unmatched', match_id: null });
        expect(book.matchesOf(txn.id)).toEqual([]);
      }
      const unmatched = await book.unmatched('&type=bank_transaction');
      expect(unmatched.map((u) => u.transaction.description).sort()).toEqual(['MYSTERY CHARGE', 'REFUND SHOP']);
    });

    it('when the run is repeated, then reconciled transactions are left out and the pending match is kept, not duplicated', async () => {
      const again = await book.run({ statement_id: statement.id });
      expect(again).toEqual({ total_transactions: 3, auto_accepted: 0, pending_review: 1, unmatched: 2 });
      const weaker = byDescription(await book.txns(statement.id), 'HARDWARE STORE 55');
      expect(book.matchesOf(weaker.id).map((m) => m.status)).toEqual(['pending_review']);
    });

    it('when the run is scoped by account and dates, then only that window’s unreconciled transactions count', async () => {
      expect(await book.run({ account_id: bank, start_date: '2026-03-15', end_date: '2026-03-31' })).toEqual({
        total_transactions: 2,
        auto_accepted: 0,
        pending_review: 0,
        unmatched: 2,
      });
      expect(await book.run({ account_id: bank, end_date: '2026-03-12' })).toEqual({
        total_transactions: 1,
        auto_accepted: 0,
        pending_review: 1,
        unmatched: 0,
      });
    });
  });

  it('when the thresholds are overridden by the environment (auto 95, review 40), then the same scores are classified by them', async () => {
    const custom = await startTestServer({
      env: { RECONCILIATION_AUTO_ACCEPT_THRESHOLD: '95', RECONCILIATION_REVIEW_THRESHOLD: '40' },
    });
    try {
      const scenario = async (server: TestServer) => {
        const book = await Book.open(server);
        const bank = await book.account('Checking', 'ASSET');
        const spend = await book.account('Spending', 'EXPENSE');
        const s = await book.statement(bank, [
          { date: '2026-03-10', description: 'EXACT PAYEE', amount: '10.00', type: 'debit' },
          { date: '2026-03-10', description: 'NEXT DAY PAYEE', amount: '220.00', type: 'debit' },
          { date: '2026-03-20', description: 'MYSTERY CHARGE', amount: '900.00', type: 'debit' },
        ]);
        await book.entry(bank, spend, '2026-03-10', 'EXACT PAYEE', '10.00'); // 95
        await book.entry(bank, spend, '2026-03-11', 'NEXT DAY PAYEE', '220.00'); // 94
        await book.entry(bank, spend, '2026-03-30', 'Dinner party', '870.00'); // about 43
        const summary = await book.run({ statement_id: s.id });
        const txns = await book.txns(s.id);
        return { book, summary, statuses: txns.map((x) => [x.description, x.reconciliation_status]) };
      };

      const normal = await scenario(server());
      expect(normal.summary).toEqual({ total_transactions: 3, auto_accepted: 2, pending_review: 0, unmatched: 1 });
      expect(normal.statuses).toEqual([
        ['EXACT PAYEE', 'auto_accepted'],
        ['NEXT DAY PAYEE', 'auto_accepted'],
        ['MYSTERY CHARGE', 'unmatched'],
      ]);

      const strict = await scenario(custom);
      expect(strict.summary).toEqual({ total_transactions: 3, auto_accepted: 1, pending_review: 2, unmatched: 0 });
      expect(strict.statuses).toEqual([
        ['EXACT PAYEE', 'auto_accepted'],
        ['NEXT DAY PAYEE', 'pending_review'],
        ['MYSTERY CHARGE', 'pending_review'],
      ]);
      // the pending band's defaults follow the overrides too: 40..94
      const pending = await strict.book.pending();
      expect(pending.map((m) => [m.bank_transaction.description, m.score])).toEqual([
        ['NEXT DAY PAYEE', 94],
        ['MYSTERY CHARGE', expect.any(Number)],
      ]);
      expect(pending[0]!.score_breakdown).toEqual({
        amount: 100,
        date: 97,
        description: 100,
        business: 100,
        history: 0,
      });
      expect(pending[1]!.score).toBeGreaterThanOrEqual(40);
      expect(pending[1]!.score).toBeLessThan(60);
    } finally {
      await custom.stop();
    }
  });

  it('when two identical bank transactions meet one entry, then one is matched and the other stays unmatched until a second entry comes', async () => {
    const book = await Book.open(server());
    const bank = await book.account('Checking', 'ASSET');
    const gym = await book.account('Gym', 'EXPENSE');
    const s = await book.statement(bank, [
      { date: '2026-04-01', description: 'GYM MEMBERSHIP', amount: '30.00', type: 'debit' },
      { date: '2026-04-01', description: 'GYM MEMBERSHIP', amount: '30.00', type: 'debit' },
    ]);
    const first = await book.entry(bank, gym, '2026-04-01', 'GYM MEMBERSHIP', '30.00');
    expect(await book.run({ statement_id: s.id })).toEqual({
      total_transactions: 2,
      auto_accepted: 1,
      pending_review: 0,
      unmatched: 1,
    });
    const txns = await book.txns(s.id);
    expect(txns.map((x) => x.reconciliation_status).sort()).toEqual(['auto_accepted', 'unmatched']);
    expect(book.rows('SELECT id FROM reconciliation_matches WHERE entry_id = ?', first)).toHaveLength(1);

    await book.entry(bank, gym, '2026-04-01', 'GYM MEMBERSHIP', '30.00');
    expect(await book.run({ statement_id: s.id })).toEqual({
      total_transactions: 1,
      auto_accepted: 1,
      pending_review: 0,
      unmatched: 0,
    });
    expect((await book.txns(s.id)).map((x) => x.reconciliation_status)).toEqual(['auto_accepted', 'auto_accepted']);
  });

  it('when an entry is the best candidate of two transactions, then only the better pair gets it', async () => {
    const book = await Book.open(server());
    const bank = await book.account('Checking', 'ASSET');
    const books = await book.account('Books', 'EXPENSE');
    const s = await book.statement(bank, [
      { date: '2026-04-10', description: 'BOOKSHOP', amount: '20.00', type: 'debit' },
      { date: '2026-04-12', description: 'BOOKSHOP', amount: '20.00', type: 'debit' },
    ]);
    await book.entry(bank, books, '2026-04-12', 'BOOKSHOP', '20.00');
    expect(await book.run({ statement_id: s.id })).toMatchObject({ auto_accepted: 1, unmatched: 1 });
    const txns = await book.txns(s.id);
    expect(txns.map((x) => [x.date, x.reconciliation_status])).toEqual([
      ['2026-04-10', 'unmatched'],
      ['2026-04-12', 'auto_accepted'],
    ]);
  });
});
