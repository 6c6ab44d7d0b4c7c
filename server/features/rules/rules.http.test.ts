import { describe, expect, it } from 'vitest';
import { LedgerUser, useTestServer } from '../../../test/support/ledger-user.ts';
import { fixture } from '../../../test/support/statement-fixtures.ts';

const server = useTestServer();

/** A new user's books: a bank account and two kinds of spending. */
async function books() {
  const u = await LedgerUser.open(server());
  const { accounts } = await u.books(`
account Checking   ; type: ASSET
account Groceries  ; type: EXPENSE
account Fuel       ; type: EXPENSE
`);
  return { u, bank: accounts.Checking!, food: accounts.Groceries!, fuel: accounts.Fuel! };
}

describe('rules (CONTRACT §13)', () => {
  it('when rules are created, read, replaced and deleted, then each answers its status and the rule, listed by priority then age', async () => {
    const { u, food, fuel } = await books();
    const first = await u.post('/api/rules', {
      name: "Trader Joe's",
      description: { op: 'contains', value: "trader joe's" },
      account_id: food,
    });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.any(String),
      name: "Trader Joe's",
      description: { op: 'contains', value: "trader joe's" },
      type: null,
      amount_min: null,
      amount_max: null,
      account_id: food,
      memo: null,
      priority: 0,
      splits: [],
      created_at: expect.any(String),
    });
    const second = await u.post('/api/rules', {
      name: 'Fuel',
      type: 'debit',
      amount_min: '20',
      amount_max: '80.00',
      account_id: fuel,
      memo: 'Fuel',
      priority: 5,
    });
    expect(second.status).toBe(201);
    const third = await u.post('/api/rules', {
      name: 'Later',
      description: { op: 'regex', value: '^x' },
      account_id: food,
    });
    const list = await u.get('/api/rules');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 3, page: 1, per_page: 20 });
    expect(list.body.items.map((r: { id: string }) => r.id)).toEqual([second.body.id, first.body.id, third.body.id]);
    expect((await u.get(`/api/rules/${first.body.id}`)).body).toEqual(first.body);
    const replaced = await u.put(`/api/rules/${first.body.id}`, {
      name: 'TJ',
      description: { op: 'starts_with', value: 'trader' },
      account_id: fuel,
      priority: 9,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      id: first.body.id,
      name: 'TJ',
      priority: 9,
      account_id: fuel,
      created_at: first.body.created_at,
    });
    expect((await u.get('/api/rules')).body.items[0].id).toBe(first.body.id);
    expect((await u.delete(`/api/rules/${first.body.id}`)).status).toBe(204);
    for (const res of [
      await u.get(`/api/rules/${first.body.id}`),
      await u.delete(`/api/rules/${first.body.id}`),
      await u.put(`/api/rules/${first.body.id}`, { name: 'x', type: 'debit', account_id: food }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
  });

  it('when a rule has no condition, a regex RE2 cannot read, bounds the wrong way, a float amount or an account not the user’s active one, then 400 names it and nothing is written', async () => {
    const { u, food } = await books();
    const other = await books();
    const gone = await u.account('Old', 'EXPENSE');
    expect((await u.put(`/api/accounts/${gone}`, { is_active: false })).status).toBe(200);
    const before = u.digest();
    for (const [body, code, field] of [
      [{ name: 'none', account_id: food }, 'VALIDATION_ERROR', 'description'],
      [
        { name: 'bad', description: { op: 'regex', value: '(open' }, account_id: food },
        'VALIDATION_ERROR',
        'description.value',
      ],
      [
        { name: 'backref', description: { op: 'regex', value: '(a)\\1' }, account_id: food },
        'VALIDATION_ERROR',
        'description.value',
      ],
      [{ name: 'b', amount_min: '10.00', amount_max: '9.99', account_id: food }, 'VALIDATION_ERROR', 'amount_min'],
      [{ name: 'f', amount_min: 10.5, account_id: food }, 'VALIDATION_ERROR', 'amount_min'],
      [{ name: 'op', description: { op: 'like', value: 'x' }, account_id: food }, 'VALIDATION_ERROR', 'description.op'],
      [{ name: 'x', type: 'debit', account_id: other.food }, 'INVALID_ACCOUNT', 'account_id'],
      [{ name: 'x', type: 'debit', account_id: gone }, 'INVALID_ACCOUNT', 'account_id'],
    ] as const) {
      const res = await u.post('/api/rules', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe(code);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect(u.digest()).toBe(before);
  });

  it('when a rule matches an unmatched bank line, then its account is suggested first with confidence 1 and preselected', async () => {
    const { u, bank, food } = await books();
    await u.statement(bank, [
      { date: '2026-03-02', description: "POS 4411 TRADER JOE'S #552", amount: '41.20', type: 'debit' },
      { date: '2026-03-03', description: 'SHELL OIL 5521', amount: '55.00', type: 'debit' },
      { date: '2026-03-04', description: 'REFUND TRADER JOES', amount: '3.00', type: 'credit' },
    ]);
    const rule = await u.post('/api/rules', {
      name: 'TJ',
      description: { op: 'contains', value: 'trader joe' },
      type: 'debit',
      account_id: food,
    });
    const items = await u.unmatched();
    const tj = items.find((i) => i.transaction.description.includes("TRADER JOE'S"));
    expect(tj.suggested_accounts[0]).toEqual({ id: food, name: 'Groceries', confidence: 1, rule_id: rule.body.id });
    expect(tj.preselected_account_id).toBe(food);
    // a type condition holds only its direction; no other line has a rule, and nothing is sure of them
    for (const other of items.filter((i) => i !== tj)) {
      expect(other.suggested_accounts.every((s: { rule_id: string | null }) => s.rule_id === null)).toBe(true);
      expect(other.preselected_account_id).toBeNull();
    }
  });

  it('when a statement is imported, then the rules are applied to its rows: the preview names each row’s rule and the import counts them', async () => {
    const { u, bank, food } = await books();
    const rule = await u.post('/api/rules', {
      name: 'Fees',
      description: { op: 'contains', value: 'fee' },
      account_id: food,
    });
    const json = await u.statement(bank, [
      { date: '2026-03-02', description: 'MONTHLY FEE', amount: '5.00', type: 'debit' },
      { date: '2026-03-03', description: 'SALARY', amount: '500.00', type: 'credit' },
    ]);
    expect(json.body.rule_matched_count).toBe(1);
    const preview = await u.api.request('POST', `/api/statements/import?account_id=${bank}&dry_run=true`, {
      rawBody: fixture('ofx1_ofxparse_checking_usd.ofx'),
      token: u.token,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(preview.status).toBe(200);
    const feeRows = preview.body.transactions.filter((x: { description: string }) => /fee/i.test(x.description));
    expect(feeRows.length).toBeGreaterThan(0);
    expect(feeRows.every((x: { rule_id: string }) => x.rule_id === rule.body.id)).toBe(true);
    expect(preview.body.rule_matched_count).toBe(feeRows.length);
    expect(preview.body.closing_balance).toBe('100.99');
  });

  it('when the account a rule books to is deleted, then the rule goes with it', async () => {
    const { u } = await books();
    const unused = await u.account('Unused', 'EXPENSE');
    const rule = await u.post('/api/rules', { name: 'u', type: 'debit', account_id: unused });
    expect((await u.delete(`/api/accounts/${unused}`)).status).toBe(204);
    expect((await u.get(`/api/rules/${rule.body.id}`)).status).toBe(404);
  });
});
