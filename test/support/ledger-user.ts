import { afterAll, beforeAll, expect } from 'vitest';
import { writeBooks, type Books } from './books.ts';
import {
  databaseDigest,
  ledgerFile,
  registerUser,
  startTestServer,
  type Api,
  type ApiResponse,
  type TestServer,
} from './server.ts';

/** A test server for the file's tests, started before them and stopped after: `server()` while they run. */
export function useTestServer(): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.stop());
  return () => {
    if (!server) throw new Error('the test server runs only while the tests do');
    return server;
  };
}

/** One user's ledger on a test server, with the calls the bank-reconciliation scenarios share. */
export class LedgerUser {
  readonly api: Api;
  readonly token: string;
  readonly file: string;

  private constructor(server: TestServer, user: { id: string; token: string }) {
    this.api = server.api;
    this.token = user.token;
    this.file = ledgerFile(server.dataDir, user.id);
  }

  static async open(server: TestServer): Promise<LedgerUser> {
    return new LedgerUser(server, await registerUser(server.api));
  }

  get(path: string): Promise<ApiResponse> {
    return this.api.get(path, this.token);
  }
  post(path: string, body: unknown = {}): Promise<ApiResponse> {
    return this.api.post(path, body, this.token);
  }
  put(path: string, body: unknown): Promise<ApiResponse> {
    return this.api.put(path, body, this.token);
  }
  patch(path: string, body: unknown): Promise<ApiResponse> {
    return this.api.request('PATCH', path, { body, token: this.token });
  }
  delete(path: string): Promise<ApiResponse> {
    return this.api.delete(path, this.token);
  }

  /** A digest of every row of the ledger file: a refused request must leave it as it was. */
  digest(): string {
    return databaseDigest(this.file);
  }

  /** Writes books given as journal text (test/support/books.ts): the ids of their accounts and entries by name. */
  books(journal: string): Promise<Books> {
    return writeBooks(this.api, this.token, journal);
  }

  async account(name: string, type: string, currency = 'USD'): Promise<string> {
    const res = await this.post('/api/accounts', { name, type, currency });
    expect(res.status, res.text).toBe(201);
    return res.body.id;
  }

  /** A JSON statement and its transactions by date. */
  async statement(
    accountId: string,
    transactions: { date: string; description: string; amount: string; type: 'debit' | 'credit' }[],
    extra: Record<string, unknown> = {},
  ): Promise<{ id: string; body: any; txns: { id: string; description: string; match_id: string | null }[] }> {
    const res = await this.post('/api/statements', { account_id: accountId, transactions, ...extra });
    expect(res.status, res.text).toBe(201);
    const txns = await this.get(`/api/statements/${res.body.id}/transactions?per_page=100`);
    return { id: res.body.id, body: res.body, txns: txns.body.items };
  }

  /** A posted entry between a bank account and a counter account; money out credits the bank. */
  async entry(
    bank: string,
    counter: string,
    date: string,
    memo: string,
    amount: string,
    moneyOut = true,
  ): Promise<any> {
    const res = await this.post('/api/journal-entries', {
      entry_date: date,
      memo,
      auto_post: true,
      lines: [
        { account_id: counter, direction: moneyOut ? 'DEBIT' : 'CREDIT', amount },
        { account_id: bank, direction: moneyOut ? 'CREDIT' : 'DEBIT', amount },
      ],
    });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  /** Every currency's posted debits equal its credits (the trial balance, as the API reports it). */
  async expectBalancedBooks(): Promise<void> {
    const trial = await this.get('/api/reports/trial-balance?as_of=2099-12-31');
    expect(trial.status).toBe(200);
    for (const c of trial.body.currencies) expect(c.total_debit, c.currency).toBe(c.total_credit);
  }

  async unmatched(query = ''): Promise<any[]> {
    const res = await this.get(`/api/reconciliation/unmatched?per_page=100&type=bank_transaction${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body.items;
  }
}
