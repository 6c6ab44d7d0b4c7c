import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../../test/support/ledger-user.ts';
import { ukCurrentBooks, shape } from '../../../test/support/uk-current-books.ts';

/**
 * Booking bank lines into an account of another currency (an exchange at the rate table's rate of
 * the line's date) and split across several accounts, one by one and in bulk, over HTTP. Rules
 * that split a line: reconciliation.split-rules.http.test.ts.
 */

const server = useTestServer();
const books = () => ukCurrentBooks(server());

describe('a bank line booked into an account of another currency', () => {
  it('when a GBP line is booked to a USD category, then the entry is an exchange at the rate of its date through the trading accounts', async () => {
    const { u, bank, fees, line } = await books();
    await u.post('/api/prices', { date: '2024-01-02', from: 'GBP', to: 'USD', rate: '1.25' });
    await u.post('/api/prices', { date: '2024-01-09', from: 'GBP', to: 'USD', rate: '2' }); // after the line: not its rate
    const res = await u.post(`/api/reconciliation/unmatched/${line('MONTHLY FEE')}/create-entry`, { account_id: fees });
    expect(res.status, res.text).toBe(201);
    const trading = (await u.get('/api/accounts?per_page=100')).body.items.filter((a: { name: string }) =>
      a.name.startsWith('Currency trading'),
    );
    const tradingOf = (c: string) => trading.find((a: { currency: string }) => a.currency === c).id;
    expect(shape(res.body.entry)).toEqual([
      [fees, 'DEBIT', '12.62', 'USD', { amount: '10.10', currency: 'GBP' }, false], // 12.625 → half to even
      [bank, 'CREDIT', '10.10', 'GBP', null, false],
      [tradingOf('USD'), 'CREDIT', '12.62', 'USD', { amount: '10.10', currency: 'GBP' }, true],
      [tradingOf('GBP'), 'DEBIT', '10.10', 'GBP', null, true],
    ]);
    expect(res.body.entry).toMatchObject({ status: 'posted', source_type: 'reconciliation', entry_date: '2024-01-05' });
    expect(res.body.match).toMatchObject({ status: 'accepted' });
    expect((await u.get(`/api/accounts/${fees}/balance`)).body.balance).toBe('12.62');
    expect((await u.get(`/api/accounts/${bank}/balance`)).body.balance).toBe('-10.10');
    await u.expectBalancedBooks();
  });

  it('when only the opposite pair has a price, then its inverse converts; when the amount in the account’s currency is given, then it is booked as given', async () => {
    const { u, fees, food, line } = await books();
    await u.post('/api/prices', { date: '2024-01-01', from: 'USD', to: 'GBP', rate: '0.8' });
    const inverse = await u.post(`/api/reconciliation/unmatched/${line('TESCO STORES')}/create-entry`, {
      account_id: food,
    });
    expect(inverse.status).toBe(201);
    expect(inverse.body.entry.lines[0]).toMatchObject({
      amount: '125.00',
      cost: { amount: '100.00', currency: 'GBP' },
    });
    const given = await u.post(`/api/reconciliation/unmatched/${line('MONTHLY FEE')}/create-entry`, {
      account_id: fees,
      converted_amount: '12.99',
    });
    expect(given.status).toBe(201);
    expect(given.body.entry.lines[0]).toMatchObject({ amount: '12.99', cost: { amount: '10.10', currency: 'GBP' } });
    await u.expectBalancedBooks();
  });

  it('when there is no rate on or before the line’s date, then 400 MISSING_RATE names the pair and the date and nothing changes', async () => {
    const { u, fees, line } = await books();
    await u.post('/api/prices', { date: '2024-01-06', from: 'GBP', to: 'USD', rate: '1.25' });
    const before = u.digest();
    const res = await u.post(`/api/reconciliation/unmatched/${line('MONTHLY FEE')}/create-entry`, { account_id: fees });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'MISSING_RATE',
      detail:
        'No rate of GBP in USD on or before 2024-01-05 (nor of USD in GBP): add one under Rates, or give the amount in USD',
      errors: [{ field: 'converted_amount', message: 'needs a GBP/USD rate on or before 2024-01-05' }],
    });
    expect(u.digest()).toBe(before);
  });

  it.each([
    [
      'an amount in the account’s own currency',
      'VALIDATION_ERROR',
      'converted_amount',
      (a: Record<string, string>) => ({ account_id: a.home, converted_amount: '1.00' }),
    ],
    [
      'a converted amount with three decimals',
      'VALIDATION_ERROR',
      'converted_amount',
      (a: Record<string, string>) => ({ account_id: a.fees, converted_amount: '1.001' }),
    ],
    [
      'a converted amount of zero',
      'VALIDATION_ERROR',
      'converted_amount',
      (a: Record<string, string>) => ({ account_id: a.fees, converted_amount: '0.00' }),
    ],
    ['a converted amount without an account', 'VALIDATION_ERROR', 'account_id', () => ({ converted_amount: '1.00' })],
  ])('when the booking gives %s, then 400 %s names %s and nothing changes', async (_what, code, field, body) => {
    const { u, bank, fees, home, line } = await books();
    const before = u.digest();
    const res = await u.post(
      `/api/reconciliation/unmatched/${line('MONTHLY FEE')}/create-entry`,
      body({ bank, fees, home }),
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(u.digest()).toBe(before);
  });

  it('when lines are booked in bulk into USD, then each converts at its own date, a given amount wins, and one missing rate books nothing', async () => {
    const { u, fees, food, line } = await books();
    await u.post('/api/prices', { date: '2024-01-05', from: 'GBP', to: 'USD', rate: '1.25' });
    await u.post('/api/prices', { date: '2024-01-06', from: 'GBP', to: 'USD', rate: '1.5' });
    const res = await u.post('/api/reconciliation/unmatched/create-entries', {
      items: [
        { bank_transaction_id: line('MONTHLY FEE'), account_id: fees },
        { bank_transaction_id: line('TESCO STORES'), account_id: food, converted_amount: '149.00' },
        { bank_transaction_id: line('REFUND'), account_id: food },
      ],
    });
    expect(res.status, res.text).toBe(201);
    const amounts = [];
    for (const c of res.body.created)
      amounts.push((await u.get(`/api/journal-entries/${c.entry_id}`)).body.lines[0].amount);
    expect(amounts).toEqual(['12.62', '149.00', '0.45']);
    await u.expectBalancedBooks();

    const other = await books();
    await other.u.post('/api/prices', { date: '2024-01-06', from: 'GBP', to: 'USD', rate: '1.5' });
    const before = other.u.digest();
    const refused = await other.u.post('/api/reconciliation/unmatched/create-entries', {
      items: [
        { bank_transaction_id: other.line('TESCO STORES'), account_id: other.food },
        { bank_transaction_id: other.line('MONTHLY FEE'), account_id: other.fees },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'MISSING_RATE', errors: [{ field: 'items.1.converted_amount' }] });
    expect(other.u.digest()).toBe(before);
  });

  it('when a statement is booked by a rule into USD, then each line converts at its date; without a rate the rule and the rate are named and nothing is booked', async () => {
    const { u, s, fees } = await books();
    await u.post('/api/rules', { name: 'Fees', description: { op: 'contains', value: 'fee' }, account_id: fees });
    const before = u.digest();
    const refused = await u.post('/api/reconciliation/unmatched/create-entries', { statement_id: s.id });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('MISSING_RATE');
    expect(refused.body.detail).toMatch(
      /^The rule "Fees" cannot book "MONTHLY FEE" \(2024-01-05\): No rate of GBP in USD on or before 2024-01-05/,
    );
    expect(u.digest()).toBe(before);
    await u.post('/api/prices', { date: '2024-01-01', from: 'GBP', to: 'USD', rate: '1.25' });
    const booked = await u.post('/api/reconciliation/unmatched/create-entries', { statement_id: s.id });
    expect(booked.status).toBe(201);
    expect(booked.body.created).toHaveLength(1);
    const entry = (await u.get(`/api/journal-entries/${booked.body.created[0].entry_id}`)).body;
    expect(entry.lines[0]).toMatchObject({
      account_id: fees,
      amount: '12.62',
      cost: { amount: '10.10', currency: 'GBP' },
    });
    await u.expectBalancedBooks();
  });
});

describe('a bank line split across accounts', () => {
  it('when a line is split, then one entry has a counter line per split, summing to the line, matched to it; a split in another currency converts', async () => {
    const { u, bank, food, home, line } = await books();
    await u.post('/api/prices', { date: '2024-01-01', from: 'GBP', to: 'USD', rate: '1.25' });
    const res = await u.post(`/api/reconciliation/unmatched/${line('TESCO STORES')}/create-entry`, {
      splits: [
        { account_id: home, amount: '60.00' },
        { account_id: food, amount: '40.00' },
      ],
      memo: 'Tesco: home and food',
    });
    expect(res.status, res.text).toBe(201);
    const lines = shape(res.body.entry).filter((l) => l[5] === false);
    expect(lines).toEqual([
      [home, 'DEBIT', '60.00', 'GBP', null, false],
      [food, 'DEBIT', '50.00', 'USD', { amount: '40.00', currency: 'GBP' }, false],
      [bank, 'CREDIT', '100.00', 'GBP', null, false],
    ]);
    expect(res.body.entry.memo).toBe('Tesco: home and food');
    expect(res.body.match.status).toBe('accepted');
    expect((await u.unmatched()).map((i) => i.transaction.description)).not.toContain('TESCO STORES');
    await u.expectBalancedBooks();
  });

  it('when splits are booked in bulk with a converted amount, then it is used for that split', async () => {
    const { u, food, home, line } = await books();
    const res = await u.post('/api/reconciliation/unmatched/create-entries', {
      items: [
        {
          bank_transaction_id: line('TESCO STORES'),
          splits: [
            { account_id: home, amount: '99.99' },
            { account_id: food, amount: '0.01', converted_amount: '0.02' },
          ],
        },
      ],
    });
    expect(res.status, res.text).toBe(201);
    const entry = (await u.get(`/api/journal-entries/${res.body.created[0].entry_id}`)).body;
    expect(entry.lines[1]).toMatchObject({
      account_id: food,
      amount: '0.02',
      cost: { amount: '0.01', currency: 'GBP' },
    });
    await u.expectBalancedBooks();
  });

  it.each([
    [
      'splits 10.00 short of the line',
      400,
      'UNBALANCED',
      'splits',
      (a: Record<string, string>) => ({
        splits: [
          { account_id: a.home, amount: '60.00' },
          { account_id: a.home, amount: '30.00' },
        ],
      }),
    ],
    [
      'splits 0.01 over the line',
      400,
      'UNBALANCED',
      'splits',
      (a: Record<string, string>) => ({
        splits: [
          { account_id: a.home, amount: '60.01' },
          { account_id: a.home, amount: '40.00' },
        ],
      }),
    ],
    [
      'one split',
      400,
      'VALIDATION_ERROR',
      'splits',
      (a: Record<string, string>) => ({ splits: [{ account_id: a.home, amount: '100.00' }] }),
    ],
    [
      'an account and splits',
      400,
      'VALIDATION_ERROR',
      'account_id',
      (a: Record<string, string>) => ({
        account_id: a.home,
        splits: [
          { account_id: a.home, amount: '50' },
          { account_id: a.home, amount: '50' },
        ],
      }),
    ],
    [
      'a split amount with three decimals',
      400,
      'VALIDATION_ERROR',
      'splits.0.amount',
      (a: Record<string, string>) => ({
        splits: [
          { account_id: a.home, amount: '59.999' },
          { account_id: a.home, amount: '40.001' },
        ],
      }),
    ],
    [
      'a split to an unknown account',
      400,
      'INVALID_ACCOUNT',
      'splits.1.account_id',
      (a: Record<string, string>) => ({
        splits: [
          { account_id: a.home, amount: '60' },
          { account_id: crypto.randomUUID(), amount: '40' },
        ],
      }),
    ],
    [
      'a split to the bank account',
      400,
      'VALIDATION_ERROR',
      'splits.1.account_id',
      (a: Record<string, string>) => ({
        splits: [
          { account_id: a.home, amount: '60' },
          { account_id: a.bank, amount: '40' },
        ],
      }),
    ],
    [
      'a split in USD without a rate',
      400,
      'MISSING_RATE',
      'splits.1.converted_amount',
      (a: Record<string, string>) => ({
        splits: [
          { account_id: a.home, amount: '60' },
          { account_id: a.food, amount: '40' },
        ],
      }),
    ],
    [
      'a split with an unknown field',
      400,
      'VALIDATION_ERROR',
      'splits.0',
      (a: Record<string, string>) => ({
        splits: [
          { account_id: a.home, amount: '60', memo: 'x' },
          { account_id: a.home, amount: '40' },
        ],
      }),
    ],
  ])('when the booking has %s, then %i %s names %s and nothing changes', async (_what, status, code, field, body) => {
    const { u, bank, food, home, line } = await books();
    const before = u.digest();
    const res = await u.post(
      `/api/reconciliation/unmatched/${line('TESCO STORES')}/create-entry`,
      body({ bank, food, home }),
    );
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(res.body.errors.map((e: { field: string }) => e.field).join(' ')).toContain(field);
    expect(u.digest()).toBe(before);
  });

  it('when the splits do not add up, then the detail says by how much', async () => {
    const { u, home, line } = await books();
    const res = await u.post(`/api/reconciliation/unmatched/${line('TESCO STORES')}/create-entry`, {
      splits: [
        { account_id: home, amount: '60.00' },
        { account_id: home, amount: '30.00' },
      ],
    });
    expect(res.body.detail).toBe('The splits add up to 90.00 GBP; the bank line is 100.00 GBP (10.00 left to book)');
  });
});
