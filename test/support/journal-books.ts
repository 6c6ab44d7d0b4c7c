import { beforeAll, expect } from 'vitest';
import { api, token, useAppServer } from './app-server.ts';
import { writeBooks } from './books.ts';

/**
 * The books the journal's HTTP tests (server/features/journal/journal.*.http.test.ts) start from:
 * one user's accounts in three currencies, written as a ledger, and the calls the tests share.
 */
const ACCOUNTS = `
account Checking      ; type: ASSET
account Credit card   ; type: LIABILITY
account Groceries     ; type: EXPENSE
account Salary        ; type: INCOME
account Yen wallet    ; type: ASSET, currency: JPY
account Yen food      ; type: EXPENSE, currency: JPY
account Dinar         ; type: ASSET, currency: KWD
account Dinar income  ; type: INCOME, currency: KWD
`;

/** The accounts' ids by name. */
export let acct: Record<string, string>;

/** Starts the server and writes the books before the file's tests (app-server.ts's user), and stops it after. */
export function useJournalBooks(): void {
  useAppServer();
  beforeAll(async () => {
    ({ accounts: acct } = await writeBooks(api, token, ACCOUNTS));
  });
}

/** A request body of an entry on 2026-03-10, its lines as [account id, direction, amount]. */
export function entry(lines: [string, 'DEBIT' | 'CREDIT', string][], extra: Record<string, unknown> = {}) {
  return {
    entry_date: '2026-03-10',
    memo: 'Groceries at market',
    lines: lines.map(([account_id, direction, amount]) => ({ account_id, direction, amount })),
    ...extra,
  };
}

/** The groceries bought from the checking account: `amount` on each side. */
export function shopping(amount: string, extra: Record<string, unknown> = {}) {
  return entry(
    [
      [acct.Groceries!, 'DEBIT', amount],
      [acct.Checking!, 'CREDIT', amount],
    ],
    extra,
  );
}

export function create(body: unknown) {
  return api.post('/api/journal-entries', body, token);
}

export async function balance(id: string, asOf = '2099-12-31'): Promise<string> {
  const res = await api.get(`/api/accounts/${id}/balance?as_of=${asOf}`, token);
  expect(res.status).toBe(200);
  return res.body.balance;
}

export async function account(name: string, type: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await api.post('/api/accounts', { name, type, ...extra }, token);
  expect(res.status).toBe(201);
  return res.body.id;
}
