import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { databaseDigest, ledgerFile, registerUser, type Api, type ApiResponse, type TestServer } from './server.ts';

/** The bank-reconciliation HTTP tests' ledger (reconciliation.*.http.test.ts): one user's calls and the rows they leave. */

export const FIXTURES = fileURLToPath(new URL('../fixtures/statements/', import.meta.url));

export interface BankTxnIn {
  date: string;
  description: string;
  amount: string;
  type: 'debit' | 'credit';
}

export interface BankTxn extends BankTxnIn {
  id: string;
  reconciliation_status: string;
  match_id: string | null;
}

export interface MatchBody {
  id: string;
  status: string;
  score: number;
  score_breakdown: Record<'amount' | 'date' | 'description' | 'business' | 'history', number>;
  bank_transaction: { id: string; date: string; description: string; amount: string; type: string };
  journal_entries: { id: string; entry_date: string; memo: string | null; total_amount: string }[];
  version: number;
  superseded_by_id: string | null;
}

export interface MatchRow {
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
export class Book {
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

export function byDescription<T extends { description: string }>(items: T[], description: string): T {
  const found = items.find((x) => x.description === description);
  expect(found, description).toBeDefined();
  return found!;
}

export function pendingFor(pending: MatchBody[], txnId: string): MatchBody {
  const found = pending.find((m) => m.bank_transaction.id === txnId);
  expect(found, `a pending match for ${txnId}`).toBeDefined();
  return found!;
}

export function expectIntegerBreakdown(b: MatchBody['score_breakdown']): void {
  expect(Object.keys(b).sort()).toEqual(['amount', 'business', 'date', 'description', 'history']);
  for (const v of Object.values(b)) {
    expect(Number.isInteger(v)).toBe(true);
    expect(v).toBeGreaterThanOrEqual(0);
    expect(v).toBeLessThanOrEqual(100);
  }
}

/** The contract's total: round(0.40 amount + 0.25 date + 0.20 description + 0.10 business + 0.05 history). */
export function total(b: MatchBody['score_breakdown']): number {
  return Math.floor((40 * b.amount + 25 * b.date + 20 * b.description + 10 * b.business + 5 * b.history + 50) / 100);
}
