import type { Api } from '../../test/support/server.ts';
import { PASSWORD, newEmail } from './people.ts';

/**
 * Data a test needs but is not about, put in through the HTTP API (the same one the renderer
 * uses), so that the test drives the screens only for what it checks.
 */
export class Seed {
  private readonly api: Api;
  readonly token: string;
  readonly email: string;

  private constructor(api: Api, token: string, email: string) {
    this.api = api;
    this.token = token;
    this.email = email;
  }

  static async user(api: Api, name = 'Grace Hopper'): Promise<Seed> {
    const email = newEmail('grace');
    const res = await api.post('/api/auth/register', { email, name, password: PASSWORD });
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
    return new Seed(api, res.body.access_token as string, email);
  }

  async account(
    name: string,
    type: 'ASSET' | 'LIABILITY' | 'EQUITY' | 'INCOME' | 'EXPENSE',
    currency = 'USD',
  ): Promise<string> {
    const res = await this.api.post('/api/accounts', { name, type, currency }, this.token);
    if (res.status !== 201) throw new Error(`account ${name}: ${res.status} ${res.text}`);
    return res.body.id as string;
  }

  /** A month's budget: an amount per account (`YYYY-MM`), replacing the month's lines. */
  async budget(month: string, amounts: Record<string, string>): Promise<void> {
    const lines = Object.entries(amounts).map(([account_id, amount]) => ({ account_id, amount, carry_over: false }));
    const res = await this.api.request('PUT', `/api/budgets/${month}`, { body: { lines }, token: this.token });
    if (res.status !== 200) throw new Error(`budget ${month}: ${res.status} ${res.text}`);
  }

  /** A bank statement of the account's lines (`-` for money out), reconciled against the entries at once. */
  async statement(
    accountId: string,
    lines: { date: string; description: string; amount: string }[],
    closingBalance?: string,
  ): Promise<string> {
    const transactions = lines.map(({ date, description, amount }) => ({
      date,
      description,
      amount: amount.replace('-', ''),
      type: amount.startsWith('-') ? 'debit' : 'credit',
    }));
    const body = { account_id: accountId, transactions, ...(closingBalance && { closing_balance: closingBalance }) };
    const res = await this.api.post('/api/statements', body, this.token);
    if (res.status !== 201) throw new Error(`statement: ${res.status} ${res.text}`);
    const run = await this.api.post('/api/reconciliation/run', { statement_id: res.body.id }, this.token);
    if (run.status !== 200) throw new Error(`reconciliation run: ${run.status} ${run.text}`);
    return res.body.id as string;
  }

  /** A posted entry: `debit` account receives, `credit` account gives. */
  async posted(date: string, memo: string, debit: string, credit: string, amount: string): Promise<string> {
    const res = await this.api.post(
      '/api/journal-entries',
      {
        entry_date: date,
        memo,
        auto_post: true,
        lines: [
          { account_id: debit, direction: 'DEBIT', amount },
          { account_id: credit, direction: 'CREDIT', amount },
        ],
      },
      this.token,
    );
    if (res.status !== 201) throw new Error(`entry ${memo}: ${res.status} ${res.text}`);
    return res.body.id as string;
  }

  /** A statement of bank lines on an account, not reconciled; the lines' ids by description. */
  async bankLines(
    accountId: string,
    transactions: { date: string; description: string; amount: string; type: 'debit' | 'credit' }[],
  ): Promise<Record<string, string>> {
    const res = await this.api.post('/api/statements', { account_id: accountId, transactions }, this.token);
    if (res.status !== 201) throw new Error(`statement: ${res.status} ${res.text}`);
    const lines = await this.api.get(`/api/statements/${res.body.id}/transactions?per_page=100`, this.token);
    return Object.fromEntries(lines.body.items.map((l: { id: string; description: string }) => [l.description, l.id]));
  }

  /** An exchange rate: one `from` is worth `rate` of `to` on `date`. */
  async price(date: string, from: string, to: string, rate: string): Promise<void> {
    const res = await this.api.post('/api/prices', { date, from, to, rate }, this.token);
    if (res.status !== 201 && res.status !== 200) throw new Error(`price: ${res.status} ${res.text}`);
  }

  /** An entry as the API answers it. */
  async entry(id: string): Promise<any> {
    return (await this.api.get(`/api/journal-entries/${id}`, this.token)).body;
  }

  /** Entries of an account, newest first, as the API answers them. */
  async entriesOf(accountId: string): Promise<any[]> {
    return (await this.api.get(`/api/journal-entries?account_id=${accountId}&per_page=100`, this.token)).body.items;
  }
}
