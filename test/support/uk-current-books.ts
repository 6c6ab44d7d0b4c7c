import { LedgerUser } from './ledger-user.ts';
import type { TestServer } from './server.ts';

/**
 * The books the tests of booking bank lines share (server/features/reconciliation/
 * reconciliation.booking.http.test.ts, reconciliation.split-rules.http.test.ts): a GBP current
 * account with a statement, and categories in USD (the home currency) and GBP.
 */
export async function ukCurrentBooks(server: TestServer) {
  const u = await LedgerUser.open(server);
  const { accounts } = await u.books(`
account UK current  ; type: ASSET, currency: GBP
account Bank fees   ; type: EXPENSE, currency: USD
account Groceries   ; type: EXPENSE, currency: USD
account Household   ; type: EXPENSE, currency: GBP
`);
  const bank = accounts['UK current']!;
  const s = await u.statement(bank, [
    { date: '2024-01-05', description: 'MONTHLY FEE', amount: '10.10', type: 'debit' },
    { date: '2024-01-06', description: 'TESCO STORES', amount: '100.00', type: 'debit' },
    { date: '2024-01-08', description: 'REFUND', amount: '0.30', type: 'credit' },
  ]);
  const line = (description: string) => s.txns.find((x) => x.description === description)!.id;
  return { u, bank, fees: accounts['Bank fees']!, food: accounts.Groceries!, home: accounts.Household!, s, line };
}

type Line = {
  account_id: string;
  direction: string;
  amount: string;
  currency: string;
  cost: unknown;
  automatic: boolean;
};

/** An entry's lines as [account, direction, amount, currency, cost, automatic]. */
export const shape = (entry: { lines: Line[] }) =>
  entry.lines.map((l) => [l.account_id, l.direction, l.amount, l.currency, l.cost, l.automatic]);
