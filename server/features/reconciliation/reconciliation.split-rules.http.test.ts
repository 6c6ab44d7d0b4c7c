import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../../test/support/ledger-user.ts';
import { ukCurrentBooks, shape } from '../../../test/support/uk-current-books.ts';

/** Rules that split a bank line into parts (a percentage, a fixed amount, the rest), booked over HTTP. */

const server = useTestServer();
const books = () => ukCurrentBooks(server());

describe('rules that split a line', () => {
  it('when a rule splits by a percentage and a fixed amount, then the rule says so, the review list preselects the parts, and booking by rules books them with the rest on the rule’s account', async () => {
    const { u, s, bank, home, food } = await books();
    await u.post('/api/prices', { date: '2024-01-01', from: 'GBP', to: 'USD', rate: '1.25' });
    const groceries = await u.account('Groceries GBP', 'EXPENSE', 'GBP');
    const rule = await u.post('/api/rules', {
      name: 'Tesco split',
      description: { op: 'contains', value: 'tesco' },
      account_id: groceries,
      splits: [
        { account_id: home, percent: '33.3333' },
        { account_id: food, amount: '10.00' },
      ],
    });
    expect(rule.status, rule.text).toBe(201);
    expect(rule.body.splits).toEqual([
      { account_id: home, amount: null, percent: '33.3333' },
      { account_id: food, amount: '10.00', percent: null },
    ]);
    const item = (await u.unmatched()).find((i) => i.transaction.description === 'TESCO STORES');
    expect(item.preselected_splits).toEqual([
      { account_id: home, amount: '33.33' },
      { account_id: food, amount: '10.00' },
      { account_id: groceries, amount: '56.67' },
    ]);
    const booked = await u.post('/api/reconciliation/unmatched/create-entries', { statement_id: s.id });
    expect(booked.status, booked.text).toBe(201);
    const entry = (await u.get(`/api/journal-entries/${booked.body.created[0].entry_id}`)).body;
    expect(shape(entry).filter((l) => l[5] === false)).toEqual([
      [home, 'DEBIT', '33.33', 'GBP', null, false],
      [food, 'DEBIT', '12.50', 'USD', { amount: '10.00', currency: 'GBP' }, false],
      [groceries, 'DEBIT', '56.67', 'GBP', null, false],
      [bank, 'CREDIT', '100.00', 'GBP', null, false],
    ]);
    await u.expectBalancedBooks();
  });

  it('when a rule’s fixed parts leave nothing for its own account on a line, then booking the statement names the rule and books nothing', async () => {
    const { u, s, home } = await books();
    const rest = await u.account('Rest', 'EXPENSE', 'GBP');
    await u.post('/api/rules', {
      name: 'Fee split',
      description: { op: 'contains', value: 'monthly fee' },
      account_id: rest,
      splits: [{ account_id: home, amount: '10.10' }],
    });
    const item = (await u.unmatched()).find((i) => i.transaction.description === 'MONTHLY FEE');
    expect(item.preselected_splits).toBeNull();
    const before = u.digest();
    const res = await u.post('/api/reconciliation/unmatched/create-entries', { statement_id: s.id });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(
      /^The rule "Fee split" cannot book "MONTHLY FEE" \(2024-01-05\): its parts of 10\.10 GBP leave nothing/,
    );
    expect(u.digest()).toBe(before);
  });

  it.each([
    [
      'a split with both an amount and a percentage',
      'VALIDATION_ERROR',
      'splits.0.amount',
      (a: Record<string, string>) => [{ account_id: a.home, amount: '1', percent: '5' }],
    ],
    [
      'a split with neither',
      'VALIDATION_ERROR',
      'splits.0.amount',
      (a: Record<string, string>) => [{ account_id: a.home }],
    ],
    [
      'percentages of 100 in all',
      'VALIDATION_ERROR',
      'splits',
      (a: Record<string, string>) => [
        { account_id: a.home, percent: '60' },
        { account_id: a.food, percent: '40' },
      ],
    ],
    [
      'a percentage of 0',
      'VALIDATION_ERROR',
      'splits.0.percent',
      (a: Record<string, string>) => [{ account_id: a.home, percent: '0.0' }],
    ],
    [
      'a percentage of 100',
      'VALIDATION_ERROR',
      'splits.0.percent',
      (a: Record<string, string>) => [{ account_id: a.home, percent: '100' }],
    ],
    [
      'a split to an unknown account',
      'INVALID_ACCOUNT',
      'splits.0.account_id',
      () => [{ account_id: crypto.randomUUID(), percent: '5' }],
    ],
    [
      '20 splits',
      'VALIDATION_ERROR',
      'splits',
      (a: Record<string, string>) => Array.from({ length: 20 }, () => ({ account_id: a.home, percent: '1' })),
    ],
  ])('when a rule has %s, then 400 %s names %s and nothing changes', async (_what, code, field, splits) => {
    const { u, home, food } = await books();
    const before = u.digest();
    const res = await u.post('/api/rules', {
      name: 'Bad',
      type: 'debit',
      account_id: food,
      splits: splits({ home, food }),
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(u.digest()).toBe(before);
  });

  it('when a split’s account is deactivated the rule books nothing, and when it is deleted the rule goes with it', async () => {
    const { u, s, home } = await books();
    const spare = await u.account('Spare', 'EXPENSE', 'GBP');
    const rule = await u.post('/api/rules', {
      name: 'Tesco',
      description: { op: 'contains', value: 'tesco' },
      account_id: home,
      splits: [{ account_id: spare, percent: '50' }],
    });
    expect((await u.put(`/api/accounts/${spare}`, { is_active: false })).status).toBe(200);
    const skipped = await u.post('/api/reconciliation/unmatched/create-entries', { statement_id: s.id });
    expect(skipped.body.created).toEqual([]);
    expect((await u.delete(`/api/accounts/${spare}`)).status).toBe(204);
    expect((await u.get(`/api/rules/${rule.body.id}`)).status).toBe(404);
  });

  it('when a rule with splits is replaced without them, then it books the whole line to its account', async () => {
    const { u, home, food } = await books();
    const body = { name: 'Tesco', description: { op: 'contains', value: 'tesco' }, account_id: home };
    const rule = await u.post('/api/rules', { ...body, splits: [{ account_id: food, percent: '50' }] });
    const replaced = await u.put(`/api/rules/${rule.body.id}`, body);
    expect(replaced.status).toBe(200);
    expect(replaced.body.splits).toEqual([]);
    const item = (await u.unmatched()).find((i) => i.transaction.description === 'TESCO STORES');
    expect(item).toMatchObject({ preselected_account_id: home, preselected_splits: null });
  });
});
