import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { Book } from '../../../test/support/reconciliation-book.ts';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

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
