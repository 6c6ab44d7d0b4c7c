import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseDigest,
  ledgerFile,
  registerUser,
  startTestServer,
  type Api,
  type ApiResponse,
  type TestServer,
} from '../../../test/support/server.ts';

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/statements/', import.meta.url));

interface BankTxnIn {
  date: string;
  description: string;
  amount: string;
  type: 'debit' | 'credit';
}

interface BankTxn extends BankTxnIn {
  id: string;
  reconciliation_status: string;
  match_id: string | null;
}

interface MatchBody {
  id: string;
  status: string;
  score: number;
  score_breakdown: Record<'amount' | 'date' | 'description' | 'business' | 'history', number>;
  bank_transaction: { id: string; date: string; description: string; amount: string; type: string };
  journal_entries: { id: string; entry_date: string; memo: string | null; total_amount: string }[];
  version: number;
  superseded_by_id: string | null;
}

interface MatchRow {
  id: string;
  status: string;
  score: number;
  version: number;
  superseded_by_id: string | null;
  reject_reason: string | null;
  rejected_at: string | null;
  accepted_at: string | null;
  bank_transaction_id: string;
  entry_id: string;
}

/** One user's ledger on a test server, with the few calls the scenarios need. */
class Book {
  api: Api;
  token: string;
  userId: string;
  dataDir: string;

  constructor(server: TestServer, user: { id: string; token: string }) {
    this.api = server.api;
    this.token = user.token;
    this.userId = user.id;
    this.dataDir = server.dataDir;
  }

  static async open(server: TestServer): Promise<Book> {
    return new Book(server, await registerUser(server.api));
  }

  async account(name: string, type: string, currency = 'USD'): Promise<string> {
    const res = await this.api.post('/api/accounts', { name, type, currency }, this.token);
    expect(res.status).toBe(201);
    return res.body.id;
  }

  /** A JSON statement; answers its id and its transactions as listed (by date). */
  async statement(accountId: string, transactions: BankTxnIn[]): Promise<{ id: string; txns: BankTxn[] }> {
    const res = await this.api.post('/api/statements', { account_id: accountId, transactions }, this.token);
    expect(res.status).toBe(201);
    return { id: res.body.id, txns: await this.txns(res.body.id) };
  }

  async txns(statementId: string): Promise<BankTxn[]> {
    const res = await this.api.get(`/api/statements/${statementId}/transactions?per_page=100`, this.token);
    expect(res.status).toBe(200);
    return res.body.items;
  }

  /** A posted entry between the bank account and a counter account; money out credits the bank. */
  async entry(
    bank: string,
    counter: string,
    date: string,
    memo: string,
    amount: string,
    moneyOut = true,
  ): Promise<string> {
    const res = await this.api.post(
      '/api/journal-entries',
      {
        entry_date: date,
        memo,
        auto_post: true,
        lines: [
          { account_id: counter, direction: moneyOut ? 'DEBIT' : 'CREDIT', amount },
          { account_id: bank, direction: moneyOut ? 'CREDIT' : 'DEBIT', amount },
        ],
      },
      this.token,
    );
    expect(res.status).toBe(201);
    return res.body.id;
  }

  post(urlPath: string, body: unknown = {}): Promise<ApiResponse> {
    return this.api.post(urlPath, body, this.token);
  }

  get(urlPath: string): Promise<ApiResponse> {
    return this.api.get(urlPath, this.token);
  }

  async run(
    body: Record<string, unknown>,
  ): Promise<{ total_transactions: number; auto_accepted: number; pending_review: number; unmatched: number }> {
    const res = await this.post('/api/reconciliation/run', body);
    expect(res.status).toBe(200);
    return res.body.summary;
  }

  async pending(query = ''): Promise<MatchBody[]> {
    const res = await this.get(`/api/reconciliation/pending?per_page=100${query}`);
    expect(res.status).toBe(200);
    return res.body.items;
  }

  accept(id: string, body: unknown = {}): Promise<ApiResponse> {
    return this.post(`/api/reconciliation/matches/${id}/accept`, body);
  }

  reject(id: string, body: unknown = {}): Promise<ApiResponse> {
    return this.post(`/api/reconciliation/matches/${id}/reject`, body);
  }

  async stats(query = ''): Promise<any> {
    const res = await this.get(`/api/reconciliation/stats${query}`);
    expect(res.status).toBe(200);
    return res.body;
  }

  async unmatched(query = ''): Promise<any[]> {
    const res = await this.get(`/api/reconciliation/unmatched?per_page=100${query}`);
    expect(res.status).toBe(200);
    return res.body.items;
  }

  file(): string {
    return ledgerFile(this.dataDir, this.userId);
  }

  digest(): string {
    return databaseDigest(this.file());
  }

  /** Rows read through a separate connection: what the requests left behind. */
  rows<T>(sql: string, ...params: unknown[]): T[] {
    const db = new Database(this.file(), { readonly: true });
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  }

  match(id: string): MatchRow {
    const [row] = this.rows<MatchRow>('SELECT * FROM reconciliation_matches WHERE id = ?', id);
    expect(row).toBeDefined();
    return row!;
  }

  matchesOf(txnId: string): MatchRow[] {
    return this.rows<MatchRow>(
      'SELECT * FROM reconciliation_matches WHERE bank_transaction_id = ? ORDER BY created_at, rowid',
      txnId,
    );
  }
}

function byDescription<T extends { description: string }>(items: T[], description: string): T {
  const found = items.find((x) => x.description === description);
  expect(found, description).toBeDefined();
  return found!;
}

function pendingFor(pending: MatchBody[], txnId: string): MatchBody {
  const found = pending.find((m) => m.bank_transaction.id === txnId);
  expect(found, `a pending match for ${txnId}`).toBeDefined();
  return found!;
}

function expectIntegerBreakdown(b: MatchBody['score_breakdown']): void {
  expect(Object.keys(b).sort()).toEqual(['amount', 'business', 'date', 'description', 'history']);
  for (const v of Object.values(b)) {
    expect(Number.isInteger(v)).toBe(true);
    expect(v).toBeGreaterThanOrEqual(0);
    expect(v).toBeLessThanOrEqual(100);
  }
}

/** The contract's total: round(0.40 amount + 0.25 date + 0.20 description + 0.10 business + 0.05 history). */
function total(b: MatchBody['score_breakdown']): number {
  return Math.floor((40 * b.amount + 25 * b.date + 20 * b.description + 10 * b.business + 5 * b.history + 50) / 100);
}

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

describe('POST /api/reconciliation/run', () => {
  it('when neither statement_id nor account_id is given, then 400 VALIDATION_ERROR and nothing is stored', async () => {
    const book = await Book.open(t);
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
    const book = await Book.open(t);
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
      book = await Book.open(t);
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

      const normal = await scenario(t);
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
    const book = await Book.open(t);
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
    const book = await Book.open(t);
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

describe('stats and unmatched items', () => {
  let book: Book;
  let bank: string;
  let card: string;
  let coffee: string;
  let fuel: string;
  let pendingScore: number;
  let cardStatement: string;
  let checkingStatement: string;

  beforeAll(async () => {
    book = await Book.open(t);
    bank = await book.account('Checking', 'ASSET');
    card = await book.account('Card', 'LIABILITY');
    coffee = await book.account('Coffee', 'EXPENSE');
    fuel = await book.account('Fuel', 'EXPENSE');
    await book.account('Salary', 'INCOME');
    const s1 = await book.statement(bank, [
      { date: '2026-03-01', description: 'ACME COFFEE 123', amount: '3.80', type: 'debit' },
      { date: '2026-03-05', description: 'PETROL STATION', amount: '55.00', type: 'debit' },
      { date: '2026-03-28', description: 'UNKNOWN THING', amount: '999.00', type: 'debit' },
    ]);
    await book.entry(bank, coffee, '2026-03-01', 'ACME COFFEE 123', '3.80');
    await book.entry(bank, fuel, '2026-03-08', 'Filled the tank', '55.00');
    await book.run({ statement_id: s1.id });
    pendingScore = (await book.pending())[0]!.score;
    cardStatement = (
      await book.statement(card, [
        { date: '2026-04-02', description: 'ACME COFFEE 456', amount: '4.10', type: 'debit' },
      ])
    ).id;
    checkingStatement = s1.id;
    // a posted entry on a statement account that no bank line matches
    await book.entry(card, fuel, '2026-04-20', 'Cash fuel on card', '20.00');
  });

  it('when stats are asked for, then they count transactions, matched, pending and unmatched, with rate, average and distribution, per account', async () => {
    const stats = await book.stats();
    expect(stats).toEqual({
      total_transactions: 4,
      matched: 1,
      reconciled: 1,
      pending_review: 1,
      unmatched: 2,
      match_rate: 25,
      reconciliation_rate: 25,
      average_score: (95 + pendingScore) / 2,
      score_distribution: { '85_100': 1, '60_84': 1, '0_59': 0 },
      by_account: [
        {
          account_id: card,
          account_name: 'Card',
          matched: 0,
          reconciled: 0,
          pending: 0,
          unmatched: 1,
          reconciled_through: null,
        },
        {
          account_id: bank,
          account_name: 'Checking',
          matched: 1,
          reconciled: 1,
          pending: 1,
          unmatched: 1,
          reconciled_through: null,
        },
      ],
    });
  });

  it('when an account is reconciled to the bank’s balance, then its reconciled_through is that statement date and the matched counts do not move', async () => {
    const other = await Book.open(t);
    const savings = await other.account('Savings', 'ASSET');
    const interest = await other.account('Interest', 'INCOME');
    await other.statement(savings, [{ date: '2026-05-03', description: 'INTEREST', amount: '1.00', type: 'credit' }]);
    await other.entry(savings, interest, '2026-05-03', 'Interest', '1.00', false);
    const before = await other.stats();
    expect(before.by_account[0]).toMatchObject({ matched: 0, reconciled_through: null });
    const done = await other.post(`/api/accounts/${savings}/reconcile`, {
      statement_date: '2026-05-31',
      statement_balance: '0.00',
    });
    expect(done.status, done.text).toBe(201);
    const after = await other.stats();
    expect(after.by_account[0]).toMatchObject({ matched: 0, reconciled: 0, reconciled_through: '2026-05-31' });
    expect(after.matched).toBe(before.matched);
  });

  it('when the unmatched list is filtered by statement, then only that statement’s bank lines are listed, each naming its account', async () => {
    const all = await book.get('/api/reconciliation/unmatched?per_page=100');
    expect(all.status).toBe(200);
    expect(all.body.items.map((i: any) => [i.type, i.account_name, i.transaction.description])).toEqual([
      ['bank_transaction', 'Card', 'ACME COFFEE 456'],
      ['bank_transaction', 'Checking', 'UNKNOWN THING'],
      ['journal_entry', 'Card', 'Cash fuel on card'],
    ]);
    const one = await book.get(`/api/reconciliation/unmatched?statement_id=${checkingStatement}`);
    expect(one.body).toMatchObject({ total: 1, page: 1 });
    expect(one.body.items.map((i: any) => [i.account_name, i.transaction.description])).toEqual([
      ['Checking', 'UNKNOWN THING'],
    ]);
    const paged = await book.get(`/api/reconciliation/unmatched?statement_id=${cardStatement}&page=2&per_page=1`);
    expect(paged.body).toMatchObject({ total: 1, items: [] });
    const elsewhere = await book.get(`/api/reconciliation/unmatched?statement_id=${cardStatement}&account_id=${bank}`);
    expect(elsewhere.body).toMatchObject({ total: 0, items: [] });
    const unknown = await book.get(`/api/reconciliation/unmatched?statement_id=${crypto.randomUUID()}`);
    expect(unknown.body).toMatchObject({ total: 0, items: [] });
    for (const bad of ['statement_id=checking', 'account_id=checking']) {
      const res = await book.get(`/api/reconciliation/unmatched?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('when stats are filtered by account or dates, then only those transactions count', async () => {
    expect(await book.stats(`?account_id=${card}`)).toMatchObject({
      total_transactions: 1,
      matched: 0,
      unmatched: 1,
      match_rate: 0,
      average_score: 0,
      by_account: [{ account_id: card }],
    });
    expect(await book.stats('?start_date=2026-03-02&end_date=2026-03-31')).toMatchObject({
      total_transactions: 2,
      reconciled: 0,
      pending_review: 1,
      unmatched: 1,
    });
    expect(await book.stats('?start_date=2030-01-01')).toMatchObject({
      total_transactions: 0,
      reconciliation_rate: 0,
      average_score: 0,
      by_account: [],
    });
    const bad = await book.get('/api/reconciliation/stats?start_date=2026-04-01&end_date=2026-03-01');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
  });

  it('when a payee was reconciled to Coffee before, then an unmatched "ACME COFFEE 456" suggests Coffee first with a confidence in (0, 1]', async () => {
    const items = await book.unmatched('&type=bank_transaction');
    const acme = items.find((i) => i.transaction.description === 'ACME COFFEE 456');
    expect(acme).toMatchObject({
      type: 'bank_transaction',
      suggested_action: 'create_entry',
      transaction: { id: expect.any(String), date: '2026-04-02', amount: '4.10', type: 'debit' },
    });
    expect(acme.suggested_accounts[0]).toMatchObject({ id: coffee, name: 'Coffee' });
    expect(acme.suggested_accounts[0].confidence).toBeGreaterThan(0);
    expect(acme.suggested_accounts[0].confidence).toBeLessThanOrEqual(1);
    for (const s of acme.suggested_accounts) {
      expect(s.id).not.toBe(card); // never the statement's own account
      expect(s.confidence).toBeGreaterThanOrEqual(0);
      expect(s.confidence).toBeLessThanOrEqual(1);
    }
    // a payee never seen is not attributed to Coffee with the learnt confidence
    const unknown = items.find((i) => i.transaction.description === 'UNKNOWN THING');
    expect(unknown.suggested_accounts.find((s: { id: string }) => s.id === coffee)?.confidence ?? 0).toBeLessThan(
      acme.suggested_accounts[0].confidence,
    );
  });

  it('when a payee is known only from money going out, then money coming in from it (a refund) is offered that account, but nothing is chosen', async () => {
    const b = await Book.open(t);
    const savings = await b.account('Savings', 'ASSET');
    const fees = await b.account('Bank fees', 'EXPENSE');
    await b.account('Interest', 'INCOME');
    await b.account('Opening balances', 'EQUITY');
    const s = await b.statement(savings, [
      { date: '2026-05-01', description: 'ACME BANK FEE', amount: '2.00', type: 'debit' },
      { date: '2026-05-31', description: 'ACME BANK FEE REFUND', amount: '2.00', type: 'credit' },
    ]);
    const [fee] = (await b.txns(s.id)).filter((x) => x.description === 'ACME BANK FEE');
    expect((await b.post(`/api/reconciliation/unmatched/${fee!.id}/create-entry`, { account_id: fees })).status).toBe(
      201,
    );
    const items = await b.unmatched('&type=bank_transaction');
    const refund = items.find((i) => i.transaction.description === 'ACME BANK FEE REFUND');
    expect(refund.suggested_accounts.map((x: { id: string }) => x.id)).toEqual([fees]);
    expect(refund.preselected_account_id).toBeNull();
  });

  it('when unmatched items are filtered by type, then bank transactions and journal entries come apart; no type gives both', async () => {
    const bankItems = await book.unmatched('&type=bank_transaction');
    expect(bankItems.map((i) => i.transaction.description)).toEqual(['ACME COFFEE 456', 'UNKNOWN THING']);
    expect(bankItems.every((i) => i.type === 'bank_transaction')).toBe(true);
    const entryItems = await book.unmatched('&type=journal_entry');
    expect(entryItems).toEqual([
      {
        type: 'journal_entry',
        transaction: {
          id: expect.any(String),
          account_id: card,
          date: '2026-04-20',
          description: 'Cash fuel on card',
          amount: '20.00',
          currency: 'USD',
          type: 'debit',
        },
        account_name: 'Card',
        suggested_action: 'find_bank_transaction',
        suggested_accounts: [],
        preselected_account_id: null,
        preselected_splits: null,
        transfer: null,
      },
    ]);
    const all = await book.get('/api/reconciliation/unmatched?per_page=2');
    expect(all.body).toMatchObject({ total: 3, page: 1, per_page: 2 });
    const page2 = await book.get('/api/reconciliation/unmatched?per_page=2&page=2');
    expect(page2.body.items.map((i: { type: string }) => i.type)).toEqual(['journal_entry']);
    expect((await book.unmatched(`&account_id=${card}`)).map((i) => i.transaction.description)).toEqual([
      'ACME COFFEE 456',
      'Cash fuel on card',
    ]);
    const bad = await book.get('/api/reconciliation/unmatched?type=entry');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('creating an entry for an unmatched bank transaction', () => {
  let book: Book;
  let bank: string;
  let transport: string;
  let interest: string;
  let txns: BankTxn[];

  beforeAll(async () => {
    book = await Book.open(t);
    bank = await book.account('Checking', 'ASSET');
    transport = await book.account('Transport', 'EXPENSE');
    interest = await book.account('Interest', 'INCOME');
    ({ txns } = await book.statement(bank, [
      { date: '2026-03-03', description: 'PARKING METER', amount: '3.00', type: 'debit' },
      { date: '2026-03-31', description: 'INTEREST PAID', amount: '1.25', type: 'credit' },
      { date: '2026-03-15', description: 'TRAIN TICKET', amount: '12.00', type: 'debit' },
    ]));
  });

  it('when an entry is created for a bank debit, then 201 with a posted reconciliation entry crediting the bank, and an accepted match', async () => {
    const parking = byDescription(txns, 'PARKING METER');
    const res = await book.post(`/api/reconciliation/unmatched/${parking.id}/create-entry`, { account_id: transport });
    expect(res.status).toBe(201);
    expect(res.body.entry).toMatchObject({
      status: 'posted',
      source_type: 'reconciliation',
      entry_date: '2026-03-03',
      memo: 'PARKING METER',
      posted_at: expect.any(String),
    });
    expect(
      res.body.entry.lines
        .map((l: { account_id: string; direction: string; amount: string }) => [l.account_id, l.direction, l.amount])
        .sort(),
    ).toEqual(
      [
        [transport, 'DEBIT', '3.00'],
        [bank, 'CREDIT', '3.00'],
      ].sort(),
    );
    expect(res.body.match).toMatchObject({
      status: 'accepted',
      accepted_at: expect.any(String),
      bank_transaction: { id: parking.id, amount: '3.00', type: 'debit' },
      journal_entries: [{ id: res.body.entry.id, total_amount: '3.00' }],
    });
    expectIntegerBreakdown(res.body.match.score_breakdown);
    const balance = await book.get(`/api/accounts/${bank}/balance?as_of=2026-12-31`);
    expect(balance.body.balance).toBe('-3.00');
    expect((await book.unmatched('&type=bank_transaction')).map((i) => i.transaction.id)).not.toContain(parking.id);
    expect(
      byDescription(await book.txns((await book.get('/api/statements')).body.items[0].id), 'PARKING METER')
        .reconciliation_status,
    ).toBe('accepted');

    const before = book.digest();
    const again = await book.post(`/api/reconciliation/unmatched/${parking.id}/create-entry`, {
      account_id: transport,
    });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('ALREADY_PROCESSED');
    expect(book.digest()).toBe(before);
  });

  it('when an entry is created for a bank credit with a memo, then it debits the bank and credits the income account', async () => {
    const paid = byDescription(txns, 'INTEREST PAID');
    const res = await book.post(`/api/reconciliation/unmatched/${paid.id}/create-entry`, {
      account_id: interest,
      memo: 'March interest',
    });
    expect(res.status).toBe(201);
    expect(res.body.entry.memo).toBe('March interest');
    const lines = Object.fromEntries(
      res.body.entry.lines.map((l: { account_id: string; direction: string }) => [l.account_id, l.direction]),
    );
    expect(lines).toEqual({ [bank]: 'DEBIT', [interest]: 'CREDIT' });
  });

  it('when the request is wrong, then it is refused and nothing is stored', async () => {
    const train = byDescription(txns, 'TRAIN TICKET');
    const euros = await book.account('Euro trips', 'EXPENSE', 'EUR');
    const retired = await book.account('Retired', 'EXPENSE');
    expect((await book.api.put(`/api/accounts/${retired}`, { is_active: false }, book.token)).status).toBe(200);
    const before = book.digest();
    const cases: [string, unknown, number, string][] = [
      [crypto.randomUUID(), { account_id: transport }, 404, 'NOT_FOUND'],
      ['not-an-id', { account_id: transport }, 404, 'NOT_FOUND'],
      [train.id, {}, 400, 'VALIDATION_ERROR'],
      [train.id, { account_id: crypto.randomUUID() }, 400, 'INVALID_ACCOUNT'],
      [train.id, { account_id: bank }, 400, 'VALIDATION_ERROR'],
      // an account in another currency needs the rate of the line's date, and there is none
      [train.id, { account_id: euros }, 400, 'MISSING_RATE'],
      [train.id, { account_id: retired }, 400, 'INACTIVE_ACCOUNT'],
    ];
    for (const [id, body, status, code] of cases) {
      const res = await book.post(`/api/reconciliation/unmatched/${id}/create-entry`, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.code).toBe(code);
    }
    expect(book.digest()).toBe(before);
  });
});

describe('voiding entries that take part in matches', () => {
  it('when the entry is in an accepted or auto-accepted match, then voiding it is refused with INVALID_STATUS', async () => {
    const book = await Book.open(t);
    const bank = await book.account('Checking', 'ASSET');
    const spend = await book.account('Spending', 'EXPENSE');
    const s = await book.statement(bank, [
      { date: '2026-03-01', description: 'EXACT ONE', amount: '9.00', type: 'debit' },
      { date: '2026-03-01', description: 'LOOSE ONE', amount: '19.00', type: 'debit' },
    ]);
    const exact = await book.entry(bank, spend, '2026-03-01', 'EXACT ONE', '9.00');
    const loose = await book.entry(bank, spend, '2026-03-04', 'Something else', '19.00');
    await book.run({ statement_id: s.id });
    const [m] = await book.pending();
    expect((await book.accept(m!.id)).status).toBe(200);
    const before = book.digest();
    for (const id of [exact, loose]) {
      const res = await book.post(`/api/journal-entries/${id}/void`, { reason: 'oops' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_STATUS');
      expect(res.body.detail).toMatch(/matched to the bank line|reconciled/);
    }
    expect(book.digest()).toBe(before);
  });

  it('when the entry is only in a pending_review match, then voiding it rejects that match and frees the transaction', async () => {
    const book = await Book.open(t);
    const bank = await book.account('Checking', 'ASSET');
    const spend = await book.account('Spending', 'EXPENSE');
    const s = await book.statement(bank, [
      { date: '2026-03-01', description: 'LOOSE TWO', amount: '29.00', type: 'debit' },
    ]);
    const loose = await book.entry(bank, spend, '2026-03-04', 'Something else', '29.00');
    await book.run({ statement_id: s.id });
    const [m] = await book.pending();
    const res = await book.post(`/api/journal-entries/${loose}/void`, { reason: 'duplicate' });
    expect(res.status).toBe(200);
    expect(book.match(m!.id)).toMatchObject({
      status: 'rejected',
      reject_reason: 'the entry was voided',
      rejected_at: expect.any(String),
      version: 2,
    });
    expect((await book.txns(s.id))[0]).toMatchObject({ reconciliation_status: 'unmatched', match_id: null });
    expect(await book.pending()).toEqual([]);
    const decide = await book.accept(m!.id);
    expect(decide.body.code).toBe('ALREADY_PROCESSED');
    // neither the voided entry nor its reversal is proposed again
    expect(await book.run({ statement_id: s.id })).toEqual({
      total_transactions: 1,
      auto_accepted: 0,
      pending_review: 0,
      unmatched: 1,
    });
  });
});

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

describe('end to end: a Lloyds CSV statement reconciled to 100%', () => {
  it('when a real statement is imported, matched, reviewed and completed, then the rate reaches 100 and a re-import changes nothing', async () => {
    const book = await Book.open(t);
    const bank = await book.account('Lloyds current', 'ASSET', 'GBP');
    const groceries = await book.account('Groceries', 'EXPENSE', 'GBP');
    const travel = await book.account('Travel', 'EXPENSE', 'GBP');
    const taxes = await book.account('Taxes', 'EXPENSE', 'GBP');
    const charges = await book.account('Bank charges', 'EXPENSE', 'GBP');
    const consulting = await book.account('Consulting', 'INCOME', 'GBP');
    const file: Uint8Array<ArrayBuffer> = new Uint8Array(
      fs.readFileSync(path.join(FIXTURES, 'csv_lloyds_uk_debit_credit_ddmmyyyy.csv')),
    );

    const form = new FormData();
    form.append('file', new Blob([file]), 'lloyds.csv');
    const encoded = new Response(form);
    const imported = await book.api.request('POST', `/api/statements/import?account_id=${bank}`, {
      rawBody: new Uint8Array(await encoded.arrayBuffer()),
      token: book.token,
      headers: { 'content-type': encoded.headers.get('content-type')! },
    });
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({
      imported_count: 12,
      duplicate_count: 0,
      start_date: '2023-12-01',
      end_date: '2024-01-15',
    });
    const statementId: string = imported.body.id;
    const txn = async (start: string) => (await book.txns(statementId)).find((x) => x.description.startsWith(start))!;

    // exact matches
    await book.entry(bank, groceries, '2024-01-15', 'ACME STORE CD 1417 14JAN24', '8.99');
    await book.entry(
      bank,
      consulting,
      '2023-12-01',
      'CLIENT CO LTD 400000005566778899 306364 10 01DEC23 09:15',
      '500.00',
      false,
    );
    // loose matches: a few days off, in other words
    await book.entry(bank, travel, '2024-01-15', 'Dollars for the US trip', '5975.12');
    await book.entry(bank, consulting, '2023-12-04', 'Invoice 17 settled', '2000.00', false);
    await book.entry(bank, taxes, '2023-11-28', 'Self assessment', '250.00');

    expect(await book.run({ statement_id: statementId })).toEqual({
      total_transactions: 12,
      auto_accepted: 2,
      pending_review: 3,
      unmatched: 7,
    });
    expect((await txn('ACME STORE')).reconciliation_status).toBe('auto_accepted');
    expect((await txn('CLIENT CO')).reconciliation_status).toBe('auto_accepted');
    const queue = await book.pending();
    expect(queue.map((m) => m.bank_transaction.description.split(' ')[0]).sort()).toEqual(['HHHHH', 'HMRC', 'OUiog']);

    const dollars = queue.find((m) => m.bank_transaction.description.startsWith('OUiog'))!;
    const invoice = queue.find((m) => m.bank_transaction.description.startsWith('HHHHH'))!;
    expect((await book.accept(dollars.id)).status).toBe(200);
    expect((await book.reject(invoice.id, { reason: 'a different invoice' })).status).toBe(200);
    const batch = await book.post('/api/reconciliation/batch-accept', { min_score: 60 });
    expect(batch.body).toMatchObject({
      accepted_count: 1,
      match_ids: [queue.find((m) => m.bank_transaction.description.startsWith('HMRC'))!.id],
    });

    const mid = await book.stats(`?account_id=${bank}`);
    expect(mid).toMatchObject({ total_transactions: 12, reconciled: 4, pending_review: 0, unmatched: 8 });

    const open = await book.unmatched('&type=bank_transaction');
    expect(open).toHaveLength(8);
    for (const item of open) {
      const counter =
        item.transaction.type === 'credit'
          ? consulting
          : item.transaction.description.startsWith('HOTEL')
            ? travel
            : charges;
      const res = await book.post(`/api/reconciliation/unmatched/${item.transaction.id}/create-entry`, {
        account_id: counter,
      });
      expect(res.status, item.transaction.description).toBe(201);
    }

    const done = await book.stats();
    expect(done).toMatchObject({
      total_transactions: 12,
      matched: 12,
      pending_review: 0,
      unmatched: 0,
      match_rate: 100,
    });
    expect(done.by_account).toEqual([
      {
        account_id: bank,
        account_name: 'Lloyds current',
        matched: 12,
        reconciled: 12,
        pending: 0,
        unmatched: 0,
        reconciled_through: null,
      },
    ]);
    expect(
      (await book.txns(statementId)).every(
        (x) => x.reconciliation_status === 'accepted' || x.reconciliation_status === 'auto_accepted',
      ),
    ).toBe(true);
    expect(await book.unmatched('&type=bank_transaction')).toEqual([]);
    // the rejected pair's entry is the one entry left without a bank line
    expect((await book.unmatched('&type=journal_entry')).map((i) => i.transaction.description)).toEqual([
      'Invoice 17 settled',
    ]);
    // every bank line is booked the right way round: the statement's net movement (2500.00 in,
    // 6381.99 out) plus the rejected entry's 2000.00 that no bank line confirms
    expect((await book.get(`/api/accounts/${bank}/balance?as_of=2024-12-31`)).body.balance).toBe('-1881.99');

    // re-importing the same file changes nothing at all
    const digestBefore = databaseDigest(book.file());
    const again = await book.api.request('POST', `/api/statements/import?account_id=${bank}`, {
      rawBody: file,
      token: book.token,
      headers: { 'content-type': 'text/csv' },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: null, imported_count: 0, duplicate_count: 12 });
    expect(databaseDigest(book.file())).toBe(digestBefore);
    expect(await book.stats()).toEqual(done);
    expect(await book.run({ account_id: bank })).toEqual({
      total_transactions: 0,
      auto_accepted: 0,
      pending_review: 0,
      unmatched: 0,
    });
  });
});
