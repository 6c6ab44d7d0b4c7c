import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerUser } from '../../../test/support/ledger-user.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

/** Transfers between the user's own accounts: two bank lines proposed and booked as one entry matched to both. */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.stop();
});

type Txn = { date: string; description: string; amount: string; type: 'debit' | 'credit' };

/** A checking and a savings account, each with a statement. */
async function books(checkingLines: Txn[], savingsLines: Txn[], savingsCurrency = 'USD') {
  const u = await LedgerUser.open(t);
  const checking = await u.account('Checking', 'ASSET');
  const savings = await u.account('Savings', 'ASSET', savingsCurrency);
  const food = await u.account('Groceries', 'EXPENSE');
  const c = await u.statement(checking, checkingLines);
  const s = await u.statement(savings, savingsLines);
  const id = (description: string) => [...c.txns, ...s.txns].find((x) => x.description === description)!.id;
  return { u, checking, savings, food, id };
}

const OUT: Txn = { date: '2026-03-10', description: 'To savings', amount: '500.00', type: 'debit' };
const IN: Txn = { date: '2026-03-12', description: 'From checking', amount: '500.00', type: 'credit' };

describe('transfers proposed', () => {
  it('when money goes out of one account and the same amount comes into another two days later, then each line proposes the other, with no account preselected', async () => {
    const { u, checking, savings, id } = await books(
      [OUT, { date: '2026-03-11', description: 'TESCO', amount: '500.00', type: 'debit' }],
      [IN],
    );
    const items = await u.unmatched();
    const out = items.find((i) => i.transaction.description === 'To savings');
    const into = items.find((i) => i.transaction.description === 'From checking');
    // the nearer in date of the two equal debits is proposed to the money in
    expect(into.transfer).toEqual({
      transaction: {
        id: id('TESCO'),
        account_id: checking,
        date: '2026-03-11',
        description: 'TESCO',
        amount: '500.00',
        currency: 'USD',
        type: 'debit',
      },
      account_name: 'Checking',
    });
    expect(out.transfer).toEqual({
      transaction: { ...into.transaction, id: id('From checking') },
      account_name: 'Savings',
    });
    expect(out.transaction.account_id).toBe(checking);
    expect(into.transaction.account_id).toBe(savings);
    expect(out.preselected_account_id).toBeNull();
    expect(out.preselected_splits).toBeNull();
  });

  it.each([
    ['the amounts differ', { ...IN, amount: '499.99' }],
    ['they are 6 days apart', { ...IN, date: '2026-03-16' }],
    ['both are money out', { ...IN, type: 'debit' as const }],
  ])('when %s, then no transfer is proposed', async (_what, into) => {
    const { u } = await books([OUT], [into]);
    for (const item of await u.unmatched()) expect(item.transfer).toBeNull();
  });

  it('when the accounts are in different currencies, or the other line is already matched, then no transfer is proposed', async () => {
    const fx = await books([OUT], [IN], 'EUR');
    for (const item of await fx.u.unmatched()) expect(item.transfer).toBeNull();
    const { u, food, id } = await books([OUT], [IN]);
    expect(
      (await u.post(`/api/reconciliation/unmatched/${id('From checking')}/create-entry`, { account_id: food })).status,
    ).toBe(201);
    const [out] = await u.unmatched();
    expect(out.transfer).toBeNull();
  });
});

describe('transfers booked', () => {
  it('when a proposed transfer is booked, then one entry moves the money between the accounts, matched to both lines, which are cleared and leave the unmatched list', async () => {
    const { u, checking, savings, id } = await books([OUT], [IN]);
    const res = await u.post('/api/reconciliation/transfers', {
      from_transaction_id: id('To savings'),
      to_transaction_id: id('From checking'),
    });
    expect(res.status, res.text).toBe(201);
    const { entry, matches } = res.body;
    expect(entry).toMatchObject({
      entry_date: '2026-03-10',
      memo: 'To savings',
      status: 'posted',
      source_type: 'reconciliation',
    });
    expect(
      entry.lines.map((l: { account_id: string; direction: string; amount: string; cleared: string }) => [
        l.account_id,
        l.direction,
        l.amount,
        l.cleared,
      ]),
    ).toEqual([
      [savings, 'DEBIT', '500.00', 'cleared'],
      [checking, 'CREDIT', '500.00', 'cleared'],
    ]);
    expect(
      matches.map((m: { status: string; bank_transaction: { id: string }; journal_entries: { id: string }[] }) => [
        m.status,
        m.bank_transaction.id,
        m.journal_entries[0]!.id,
      ]),
    ).toEqual([
      ['accepted', id('To savings'), entry.id],
      ['accepted', id('From checking'), entry.id],
    ]);
    expect(await u.unmatched()).toEqual([]);
    expect((await u.get('/api/reconciliation/unmatched?type=journal_entry')).body.total).toBe(0);
    expect((await u.get(`/api/accounts/${checking}/balance?as_of=2026-12-31`)).body.balance).toBe('-500.00');
    expect((await u.get(`/api/accounts/${savings}/balance?as_of=2026-12-31`)).body.balance).toBe('500.00');
    // matched to the bank on both sides: it cannot be voided
    const voided = await u.post(`/api/journal-entries/${entry.id}/void`, {});
    expect(voided.status).toBe(400);
    expect(voided.body.code).toBe('INVALID_STATUS');
  });

  it('when the next month’s "To savings" comes in, then Savings is learnt for it', async () => {
    const { u, savings, id } = await books([OUT], [IN]);
    await u.post('/api/reconciliation/transfers', {
      from_transaction_id: id('To savings'),
      to_transaction_id: id('From checking'),
      memo: 'Saving',
    });
    const checking2 = (await u.get('/api/accounts?per_page=100')).body.items.find(
      (a: { name: string }) => a.name === 'Checking',
    ).id;
    await u.statement(checking2, [{ ...OUT, date: '2026-04-10', amount: '250.00' }]);
    const [next] = await u.unmatched();
    expect(next.suggested_accounts[0].id).toBe(savings);
  });

  it('when the accounts are in two currencies, then the transfer is an exchange at the two lines’ own amounts', async () => {
    const { u, checking, savings, id } = await books([OUT], [{ ...IN, amount: '460.00' }], 'EUR');
    const res = await u.post('/api/reconciliation/transfers', {
      from_transaction_id: id('To savings'),
      to_transaction_id: id('From checking'),
    });
    expect(res.status, res.text).toBe(201);
    const typed = res.body.entry.lines.filter((l: { automatic: boolean }) => !l.automatic);
    expect(
      typed.map((l: { account_id: string; amount: string; currency: string; cost: unknown }) => [
        l.account_id,
        l.amount,
        l.currency,
        l.cost,
      ]),
    ).toEqual([
      [savings, '460.00', 'EUR', { amount: '500.00', currency: 'USD' }],
      [checking, '500.00', 'USD', null],
    ]);
    await u.expectBalancedBooks();
  });

  it('when the request is wrong, then 400 names the field and nothing changes', async () => {
    const { u, food, id } = await books(
      [OUT, { date: '2026-03-10', description: 'Refund', amount: '500.00', type: 'credit' }],
      [IN, { ...IN, description: 'Small', amount: '5.00' }, { ...IN, description: 'Booked' }],
    );
    expect(
      (await u.post(`/api/reconciliation/unmatched/${id('Booked')}/create-entry`, { account_id: food })).status,
    ).toBe(201);
    const before = u.digest();
    const cases: [Record<string, string>, string, string][] = [
      [
        { from_transaction_id: crypto.randomUUID(), to_transaction_id: id('From checking') },
        'VALIDATION_ERROR',
        'from_transaction_id',
      ],
      [{ from_transaction_id: id('To savings'), to_transaction_id: 'nope' }, 'VALIDATION_ERROR', 'to_transaction_id'],
      [
        { from_transaction_id: id('From checking'), to_transaction_id: id('To savings') },
        'VALIDATION_ERROR',
        'from_transaction_id',
      ],
      [
        { from_transaction_id: id('To savings'), to_transaction_id: id('Refund') },
        'VALIDATION_ERROR',
        'to_transaction_id',
      ],
      [
        { from_transaction_id: id('To savings'), to_transaction_id: id('Small') },
        'VALIDATION_ERROR',
        'to_transaction_id',
      ],
      [
        { from_transaction_id: id('To savings'), to_transaction_id: id('Booked') },
        'ALREADY_PROCESSED',
        'to_transaction_id',
      ],
      [{ from_transaction_id: id('To savings') }, 'VALIDATION_ERROR', 'to_transaction_id'],
      [
        { from_transaction_id: id('To savings'), to_transaction_id: id('From checking'), extra: 'x' },
        'VALIDATION_ERROR',
        'extra',
      ],
    ];
    for (const [body, code, field] of cases) {
      const res = await u.post('/api/reconciliation/transfers', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code, JSON.stringify(body)).toBe(code);
      expect(res.body.errors.map((e: { field: string }) => e.field).join(' ')).toContain(field);
    }
    expect(u.digest()).toBe(before);
  });
});
