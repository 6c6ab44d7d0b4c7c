import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  account,
  allTransactions,
  api,
  count,
  createStatement,
  digest,
  token,
  useStatementsServer,
  type Txn,
} from '../../../test/support/statements-api.ts';

useStatementsServer();

describe('POST /api/statements (JSON)', () => {
  it('when transactions are posted for an ASSET account, then a json statement with counts and its date range is created and listed', async () => {
    const checking = await account('JSON checking', 'ASSET');
    const res = await createStatement({
      account_id: checking,
      name: 'March',
      transactions: [
        { date: '2026-03-05', description: 'Coffee', amount: '3.50', type: 'debit' },
        { date: '2026-03-01', description: 'Salary', amount: '1500', type: 'credit', external_id: 'PAY-1' },
        { date: '2026-03-09', description: 'Books', amount: '12.00', type: 'debit' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      account_id: checking,
      name: 'March',
      source: 'json',
      imported_count: 3,
      duplicate_count: 0,
      start_date: '2026-03-01',
      end_date: '2026-03-09',
      opening_balance: null,
      closing_balance: null,
      closing_date: null,
      created_at: expect.any(String),
      rule_matched_count: 0,
    });
    const { rule_matched_count: _matched, ...stored } = res.body;
    expect((await api.get(`/api/statements/${res.body.id}`, token)).body).toEqual(stored);
    const txns = await allTransactions(res.body.id);
    // by date, amounts printed with the account currency's digits
    expect(
      txns.map((x) => [x.date, x.description, x.amount, x.type, x.external_id, x.reconciliation_status, x.match_id]),
    ).toEqual([
      ['2026-03-01', 'Salary', '1500.00', 'credit', 'PAY-1', 'unmatched', null],
      ['2026-03-05', 'Coffee', '3.50', 'debit', null, 'unmatched', null],
      ['2026-03-09', 'Books', '12.00', 'debit', null, 'unmatched', null],
    ]);
    expect(txns.every((x) => x.statement_id === res.body.id)).toBe(true);
  });

  it('when an account has a statement, then deleting the account is 409 naming the statements, until the statement is deleted', async () => {
    const checking = await account('Checking with a statement', 'ASSET');
    const res = await createStatement({
      account_id: checking,
      name: 'April',
      transactions: [{ date: '2026-04-02', description: 'Coffee', amount: '3.50', type: 'debit' }],
    });
    expect(res.status).toBe(201);
    const refused = await api.delete(`/api/accounts/${checking}`, token);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'HAS_ENTRIES', detail: expect.stringContaining('bank statements') });
    expect((await api.delete(`/api/statements/${res.body.id}`, token)).status).toBe(204);
    // nothing the statement left behind holds the account
    expect((await api.delete(`/api/accounts/${checking}`, token)).status).toBe(204);
  });

  it('when the statement is for a LIABILITY account, then it is accepted too', async () => {
    const card = await account('JSON card', 'LIABILITY');
    const res = await createStatement({
      account_id: card,
      transactions: [{ date: '2026-03-05', description: 'Fuel', amount: '40.00', type: 'debit' }],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ account_id: card, imported_count: 1, name: 'Statement 2026-03-05' });
  });

  for (const type of ['EXPENSE', 'INCOME', 'EQUITY']) {
    it(`when the account is an ${type} account, then 400 INVALID_ACCOUNT and nothing is stored`, async () => {
      const other = await account(`Not a bank ${type}`, type);
      const before = digest();
      const res = await createStatement({
        account_id: other,
        transactions: [{ date: '2026-03-05', description: 'x', amount: '1.00', type: 'debit' }],
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_ACCOUNT');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['account_id']);
      expect(digest()).toBe(before);
    });
  }

  it('when the account does not exist, then 400 INVALID_ACCOUNT; when account_id is absent, then VALIDATION_ERROR naming it', async () => {
    const before = digest();
    const missing = await createStatement({ account_id: crypto.randomUUID(), transactions: [] });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('INVALID_ACCOUNT');
    const absent = await createStatement({ transactions: [] });
    expect(absent.status).toBe(400);
    expect(absent.body.code).toBe('VALIDATION_ERROR');
    expect(absent.body.errors.map((e: { field: string }) => e.field)).toContain('account_id');
    expect(digest()).toBe(before);
  });

  const good: Txn = { date: '2026-03-05', description: 'Coffee', amount: '3.50', type: 'debit' };
  const refusals: [string, Record<string, unknown>, string][] = [
    ['more decimals than USD has', { amount: '1.234' }, 'amount'],
    ['a JSON number amount', { amount: 3.5 }, 'amount'],
    ['a negative amount', { amount: '-3.50' }, 'amount'],
    ['a zero amount', { amount: '0.00' }, 'amount'],
    ['an amount with a thousands separator', { amount: '1,000.00' }, 'amount'],
    ['a date not on the calendar', { date: '2026-02-30' }, 'date'],
    ['a date in another layout', { date: '05/03/2026' }, 'date'],
    ['a type other than debit or credit', { type: 'withdrawal' }, 'type'],
    ['an empty description', { description: '   ' }, 'description'],
    ['an unknown field', { balance: '10.00' }, 'balance'],
  ];
  for (const [what, change, field] of refusals) {
    it(`when the third transaction has ${what}, then 400 VALIDATION_ERROR names transactions.2.${field} and nothing is stored`, async () => {
      const checking = await account(`Refusal ${what}`, 'ASSET');
      const before = digest();
      const res = await createStatement({
        account_id: checking,
        transactions: [good, { ...good, description: 'Tea' }, { ...good, ...change }],
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(`transactions.2.${field}`);
      expect(digest()).toBe(before);
    });
  }

  it('when the same transactions are posted again, then nothing is imported and all count as duplicates', async () => {
    const checking = await account('Dedupe checking', 'ASSET');
    const txns: Txn[] = [
      { date: '2026-04-01', description: 'Rent', amount: '900.00', type: 'debit' },
      { date: '2026-04-02', description: 'Groceries', amount: '45.10', type: 'debit' },
      { date: '2026-04-03', description: 'Refund', amount: '9.99', type: 'credit' },
    ];
    expect((await createStatement({ account_id: checking, transactions: txns })).body).toMatchObject({
      imported_count: 3,
      duplicate_count: 0,
    });
    const statementsBefore = count('statements', 'account_id = ?', checking);
    const again = await createStatement({ account_id: checking, transactions: txns });
    // nothing new: nothing is stored, not even an empty statement
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      id: null,
      created_at: null,
      imported_count: 0,
      duplicate_count: 3,
      start_date: '2026-04-01',
      end_date: '2026-04-03',
    });
    expect(count('statements', 'account_id = ?', checking)).toBe(statementsBefore);
    expect(count('bank_transactions', 'account_id = ?', checking)).toBe(3);

    // an overlapping batch adds only the new ones
    const overlap = await createStatement({
      account_id: checking,
      transactions: [
        txns[1],
        txns[2],
        { date: '2026-04-04', description: 'Phone', amount: '20.00', type: 'debit' },
        { date: '2026-04-05', description: 'Bonus', amount: '100.00', type: 'credit' },
      ],
    });
    expect(overlap.body).toMatchObject({ imported_count: 2, duplicate_count: 2 });
    expect((await allTransactions(overlap.body.id)).map((x) => x.description)).toEqual(['Phone', 'Bonus']);
    expect(count('bank_transactions', 'account_id = ?', checking)).toBe(5);

    // the same transactions on another account are not duplicates there
    const savings = await account('Dedupe savings', 'ASSET');
    expect((await createStatement({ account_id: savings, transactions: txns })).body).toMatchObject({
      imported_count: 3,
      duplicate_count: 0,
    });
  });

  it('when a batch holds two genuinely identical rows, then both are kept, a re-import keeps 2, and a third equal row is new', async () => {
    const checking = await account('Twin checking', 'ASSET');
    const coffee: Txn = { date: '2026-05-01', description: 'Coffee cart', amount: '2.50', type: 'debit' };
    const first = await createStatement({ account_id: checking, transactions: [coffee, coffee] });
    expect(first.body).toMatchObject({ imported_count: 2, duplicate_count: 0 });
    expect(await allTransactions(first.body.id)).toHaveLength(2);
    const again = await createStatement({ account_id: checking, transactions: [coffee, coffee] });
    expect(again.body).toMatchObject({ imported_count: 0, duplicate_count: 2 });
    const one = await createStatement({ account_id: checking, transactions: [coffee] });
    expect(one.body).toMatchObject({ imported_count: 0, duplicate_count: 1 });
    const three = await createStatement({ account_id: checking, transactions: [coffee, coffee, coffee] });
    expect(three.body).toMatchObject({ imported_count: 1, duplicate_count: 2 });
    expect(count('bank_transactions', 'account_id = ?', checking)).toBe(3);
  });

  it('when rows carry an external_id, then it decides duplicates before the content does', async () => {
    const checking = await account('External id checking', 'ASSET');
    const row: Txn = {
      date: '2026-06-01',
      description: 'Transfer',
      amount: '50.00',
      type: 'debit',
      external_id: 'FIT-1',
    };
    expect((await createStatement({ account_id: checking, transactions: [row] })).body.imported_count).toBe(1);
    // same id, different text and amount (the bank corrected the row): still a duplicate
    const corrected = await createStatement({
      account_id: checking,
      transactions: [{ ...row, description: 'TRANSFER TO SAVINGS', amount: '50.01' }],
    });
    expect(corrected.body).toMatchObject({ imported_count: 0, duplicate_count: 1 });
    // same content, another id: a different transaction
    const other = await createStatement({ account_id: checking, transactions: [{ ...row, external_id: 'FIT-2' }] });
    expect(other.body).toMatchObject({ imported_count: 1, duplicate_count: 0 });
    expect(count('bank_transactions', 'account_id = ?', checking)).toBe(2);
  });
});
