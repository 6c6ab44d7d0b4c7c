import { beforeAll, describe, expect, it } from 'vitest';
import { databaseDigest, ledgerFile } from '../../../test/support/server.ts';
import { api, t, token, userId, useAppServer } from '../../../test/support/app-server.ts';

/** Exchanges between currencies in one entry: a line's cost, and the automatic currency trading lines. */

const ids: Record<string, string> = {};

useAppServer();

beforeAll(async () => {
  for (const [name, type, currency] of [
    ['Checking', 'ASSET', 'USD'],
    ['Travel', 'EXPENSE', 'EUR'],
    ['Euro card', 'LIABILITY', 'EUR'],
  ] as const) {
    const res = await api.post('/api/accounts', { name, type, currency }, token);
    ids[name] = res.body.id;
  }
});

const exchange = (amount = '108.50', autoPost = true) => ({
  entry_date: '2026-03-02',
  memo: 'Dinner in Paris',
  auto_post: autoPost,
  lines: [
    { account_id: ids.Travel, direction: 'DEBIT', amount: '100.00', cost: { amount: '108.50', currency: 'USD' } },
    { account_id: ids.Checking, direction: 'CREDIT', amount },
  ],
});

const summary = (
  lines: { account_name: string; direction: string; amount: string; currency: string; automatic: boolean }[],
) => lines.map((l) => `${l.automatic ? 'auto ' : ''}${l.account_name} ${l.direction} ${l.amount} ${l.currency}`);

describe('an exchange between currencies in one entry', () => {
  it('when a EUR line states its cost in USD, then the entry balances by cost and automatic trading lines balance each currency', async () => {
    const res = await api.post('/api/journal-entries', exchange(), token);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(summary(res.body.lines)).toEqual([
      'Travel DEBIT 100.00 EUR',
      'Checking CREDIT 108.50 USD',
      'auto Currency trading EUR CREDIT 100.00 EUR',
      'auto Currency trading USD DEBIT 108.50 USD',
    ]);
    expect(res.body.lines[0].cost).toEqual({ amount: '108.50', currency: 'USD' });
    expect(res.body.lines[2].cost).toEqual({ amount: '108.50', currency: 'USD' });
    expect(res.body.lines[3].cost).toBeNull();
    const trial = await api.get('/api/reports/trial-balance?as_of=2026-03-31', token);
    for (const g of trial.body.currencies) expect(g.total_debit, g.currency).toBe(g.total_credit);
    const trading = await api.get('/api/accounts?type=EQUITY', token);
    expect(trading.body.items.map((a: { name: string; currency: string }) => `${a.name} ${a.currency}`)).toEqual([
      'Currency trading EUR EUR',
      'Currency trading USD USD',
    ]);
  });

  it('when a second exchange is made, then it uses the same trading accounts', async () => {
    expect((await api.post('/api/journal-entries', exchange(), token)).status).toBe(201);
    const equity = await api.get('/api/accounts?type=EQUITY', token);
    expect(equity.body.total).toBe(2);
  });

  it('when the other side does not match the cost, then it is 400 UNBALANCED naming the cost currency, and nothing changes', async () => {
    const before = databaseDigest(ledgerFile(t.dataDir, userId));
    const res = await api.post('/api/journal-entries', exchange('108.00'), token);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('UNBALANCED');
    expect(res.body.detail).toContain('USD debits exceed credits by 0.50');
    expect(databaseDigest(ledgerFile(t.dataDir, userId))).toBe(before);
  });

  it("when the cost is in the line's own currency or has too many digits, then it is 400 VALIDATION_ERROR naming the field", async () => {
    const same = exchange();
    same.lines[0]!.cost = { amount: '100.00', currency: 'EUR' };
    const res = await api.post('/api/journal-entries', same, token);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('lines.0.cost.currency');
    const digits = exchange();
    digits.lines[0]!.cost = { amount: '108.505', currency: 'USD' };
    const res2 = await api.post('/api/journal-entries', digits, token);
    expect(res2.body.errors[0].field).toBe('lines.0.cost.amount');
  });

  it('when a draft exchange is updated, posted and voided, then its trading lines follow and every balance returns to zero', async () => {
    const draft = await api.post('/api/journal-entries', exchange('108.50', false), token);
    expect(draft.status).toBe(201);
    const memoOnly = await api.put(`/api/journal-entries/${draft.body.id}`, { memo: 'Dinner, Paris' }, token);
    expect(summary(memoOnly.body.lines)).toEqual(summary(draft.body.lines));
    const changed = await api.put(
      `/api/journal-entries/${draft.body.id}`,
      {
        lines: [
          { account_id: ids.Travel, direction: 'DEBIT', amount: '80.00', cost: { amount: '90.00', currency: 'USD' } },
          { account_id: ids.Checking, direction: 'CREDIT', amount: '90.00' },
        ],
      },
      token,
    );
    expect(summary(changed.body.lines)).toEqual([
      'Travel DEBIT 80.00 EUR',
      'Checking CREDIT 90.00 USD',
      'auto Currency trading EUR CREDIT 80.00 EUR',
      'auto Currency trading USD DEBIT 90.00 USD',
    ]);
    const before = await api.get('/api/accounts/balances?as_of=2099-12-31', token);
    expect((await api.post(`/api/journal-entries/${draft.body.id}/post`, {}, token)).status).toBe(200);
    const voided = await api.post(`/api/journal-entries/${draft.body.id}/void`, {}, token);
    expect(voided.status).toBe(200);
    expect(summary(voided.body.reversal_entry.lines)).toEqual([
      'Travel CREDIT 80.00 EUR',
      'Checking DEBIT 90.00 USD',
      'auto Currency trading EUR DEBIT 80.00 EUR',
      'auto Currency trading USD CREDIT 90.00 USD',
    ]);
    const after = await api.get('/api/accounts/balances?as_of=2099-12-31', token);
    expect(after.body.balances).toEqual(before.body.balances);
  });

  it('when a EUR card pays in USD terms, then the liability line may carry the cost too', async () => {
    const res = await api.post(
      '/api/journal-entries',
      {
        entry_date: '2026-03-03',
        auto_post: true,
        lines: [
          { account_id: ids.Checking, direction: 'DEBIT', amount: '54.25' },
          {
            account_id: ids['Euro card'],
            direction: 'CREDIT',
            amount: '50.00',
            cost: { amount: '54.25', currency: 'USD' },
          },
        ],
      },
      token,
    );
    expect(res.status).toBe(201);
    const trial = await api.get('/api/reports/trial-balance?as_of=2026-03-31', token);
    for (const g of trial.body.currencies) expect(g.total_debit, g.currency).toBe(g.total_credit);
  });
});
