import { describe, expect, it } from 'vitest';
import { LedgerUser, useTestServer } from '../../../test/support/ledger-user.ts';

/** Correcting a posted entry in one step: void and repost in one transaction, linked both ways. */

const server = useTestServer();

/** A new user's books: a bank account and two kinds of spending. */
async function books() {
  const u = await LedgerUser.open(server());
  const { accounts } = await u.books(`
account Checking    ; type: ASSET
account Groceries   ; type: EXPENSE
account Eating out  ; type: EXPENSE
`);
  return { u, bank: accounts.Checking!, food: accounts.Groceries!, fun: accounts['Eating out']! };
}

function correction(bank: string, counter: string, amount: string, extra: Record<string, unknown> = {}) {
  return {
    entry_date: '2026-03-11',
    memo: 'Market (corrected)',
    lines: [
      { account_id: counter, direction: 'DEBIT', amount },
      { account_id: bank, direction: 'CREDIT', amount },
    ],
    ...extra,
  };
}

async function balanceOf(u: LedgerUser, id: string): Promise<string> {
  return (await u.get(`/api/accounts/${id}/balance?as_of=2099-12-31`)).body.balance;
}

describe('correcting a posted entry', () => {
  it('when a posted entry is corrected, then it is void with a reversal, the corrected entry is posted, and each points at the other', async () => {
    const { u, bank, food, fun } = await books();
    const original = await u.entry(bank, food, '2026-03-10', 'Market', '82.50');
    const res = await u.post(`/api/journal-entries/${original.id}/correct`, correction(bank, fun, '28.50'));
    expect(res.status, res.text).toBe(201);
    const { voided_entry, reversal_entry, entry } = res.body;
    expect(voided_entry).toMatchObject({
      id: original.id,
      status: 'void',
      void_reason: 'corrected',
      corrects: null,
      corrected_by: entry.id,
      reversal_entry_id: reversal_entry.id,
    });
    // the reversal takes the original's date: March shows the corrected figures only
    expect(reversal_entry).toMatchObject({
      status: 'posted',
      entry_date: '2026-03-10',
      memo: 'Void: Market (corrected)',
      reverses_entry_id: original.id,
    });
    expect(entry).toMatchObject({
      status: 'posted',
      entry_date: '2026-03-11',
      memo: 'Market (corrected)',
      source_type: 'manual',
      corrects: original.id,
      corrected_by: null,
    });
    expect(entry.lines.map((l: { account_id: string; amount: string }) => [l.account_id, l.amount])).toEqual([
      [fun, '28.50'],
      [bank, '28.50'],
    ]);
    // the original counts no more: only the correction moves the balances
    expect(await balanceOf(u, food)).toBe('0.00');
    expect(await balanceOf(u, fun)).toBe('28.50');
    expect(await balanceOf(u, bank)).toBe('-28.50');
    const march = await u.get('/api/reports/income-statement?start_date=2026-03-01&end_date=2026-03-31');
    expect(march.status).toBe(200);
    const usd = march.body.currencies.find((c: { currency: string }) => c.currency === 'USD');
    expect(usd.total_expenses).toBe('28.50');
    const again = await u.get(`/api/journal-entries/${original.id}`);
    expect(again.body.corrected_by).toBe(entry.id);
    await u.expectBalancedBooks();
  });

  it('when a reason is given, then the void carries it and the corrected entry keeps the source of the original', async () => {
    const { u, bank, food } = await books();
    const schedule = await u.post('/api/schedules', {
      name: 'Bakery',
      memo: 'Bakery',
      frequency: 'monthly',
      start_date: '2026-01-03',
      end_date: '2026-01-03',
      auto_post: true,
      lines: correction(bank, food, '4.10').lines,
    });
    expect(schedule.status, schedule.text).toBe(201);
    const run = await u.post('/api/schedules/run');
    const [booked] = run.body.created;
    const res = await u.post(
      `/api/journal-entries/${booked}/correct`,
      correction(bank, food, '4.01', { reason: 'typo in the amount' }),
    );
    expect(res.status).toBe(201);
    expect(res.body.voided_entry.void_reason).toBe('typo in the amount');
    expect(res.body.reversal_entry.memo).toBe('Void: Bakery (typo in the amount)');
    expect(res.body.entry.source_type).toBe('schedule');
  });

  it('when a corrected entry is corrected again, then the correction itself is corrected and the chain links each step', async () => {
    const { u, bank, food, fun } = await books();
    const first = await u.entry(bank, food, '2026-03-10', 'Market', '82.50');
    const second = (await u.post(`/api/journal-entries/${first.id}/correct`, correction(bank, fun, '28.50'))).body
      .entry;
    const third = await u.post(`/api/journal-entries/${second.id}/correct`, correction(bank, food, '28.50'));
    expect(third.status).toBe(201);
    expect(third.body.voided_entry).toMatchObject({
      id: second.id,
      corrects: first.id,
      corrected_by: third.body.entry.id,
    });
    expect(third.body.entry.corrects).toBe(second.id);
    const stale = await u.post(`/api/journal-entries/${first.id}/correct`, correction(bank, fun, '1.00'));
    expect(stale.status).toBe(400);
    expect(stale.body).toMatchObject({ code: 'INVALID_STATUS', detail: expect.stringContaining('void') });
  });
});

describe('corrections refused', () => {
  it('when the entry is a draft, void, or a reversal, then 400 INVALID_STATUS says why and nothing changes', async () => {
    const { u, bank, food } = await books();
    const draft = await u.post('/api/journal-entries', correction(bank, food, '5.00'));
    const posted = await u.entry(bank, food, '2026-03-10', 'Market', '82.50');
    const voided = await u.post(`/api/journal-entries/${posted.id}/void`, {});
    const before = u.digest();
    for (const [id, why] of [
      [draft.body.id, 'draft'],
      [posted.id, 'void'],
      [voided.body.reversal_entry.id, 'reversal'],
    ] as const) {
      const res = await u.post(`/api/journal-entries/${id}/correct`, correction(bank, food, '1.00'));
      expect(res.status, why).toBe(400);
      expect(res.body.code).toBe('INVALID_STATUS');
      expect(res.body.detail).toContain(why);
    }
    expect(u.digest()).toBe(before);
  });

  it.each([
    [
      'unbalanced lines',
      'UNBALANCED',
      (b: string, c: string) => ({
        ...correction(b, c, '5.00'),
        lines: [
          { account_id: c, direction: 'DEBIT', amount: '5.00' },
          { account_id: b, direction: 'CREDIT', amount: '4.00' },
        ],
      }),
    ],
    [
      'one line',
      'TOO_FEW_LINES',
      (b: string, c: string) => ({
        ...correction(b, c, '5.00'),
        lines: [{ account_id: c, direction: 'DEBIT', amount: '5.00' }],
      }),
    ],
    [
      'an unknown account',
      'INVALID_ACCOUNT',
      (b: string) => correction(b, '00000000-0000-4000-8000-000000000000', '5.00'),
    ],
    ['an amount with three decimals', 'VALIDATION_ERROR', (b: string, c: string) => correction(b, c, '5.001')],
    [
      'an unknown field',
      'VALIDATION_ERROR',
      (b: string, c: string) => ({ ...correction(b, c, '5.00'), auto_post: true }),
    ],
  ])(
    'when the correction has %s, then 400 %s and the entry stays posted, nothing changed',
    async (_what, code, body) => {
      const { u, bank, food } = await books();
      const posted = await u.entry(bank, food, '2026-03-10', 'Market', '82.50');
      const before = u.digest();
      const res = await u.post(`/api/journal-entries/${posted.id}/correct`, body(bank, food));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(code);
      expect(u.digest()).toBe(before);
      expect((await u.get(`/api/journal-entries/${posted.id}`)).body).toMatchObject({
        status: 'posted',
        corrected_by: null,
      });
    },
  );

  it('when the entry is matched to a bank line, then 400 INVALID_STATUS names the bank line and nothing changes', async () => {
    const { u, bank, food } = await books();
    const s = await u.statement(bank, [
      { date: '2026-03-02', description: 'TESCO STORES 3021', amount: '41.20', type: 'debit' },
    ]);
    const booked = await u.post(`/api/reconciliation/unmatched/${s.txns[0]!.id}/create-entry`, { account_id: food });
    const before = u.digest();
    const res = await u.post(`/api/journal-entries/${booked.body.entry.id}/correct`, correction(bank, food, '41.20'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'INVALID_STATUS',
      detail: 'The entry is matched to the bank line "TESCO STORES 3021" of 2026-03-02 and cannot be corrected',
    });
    expect(u.digest()).toBe(before);
  });

  it('when a line of the entry is reconciled, then 400 INVALID_STATUS says so and nothing changes', async () => {
    const { u, bank, food } = await books();
    const posted = await u.entry(bank, food, '2026-03-10', 'Market', '82.50');
    const line = posted.lines.find((l: { account_id: string }) => l.account_id === bank).id;
    expect((await u.post(`/api/accounts/${bank}/cleared`, { line_ids: [line], cleared: true })).status).toBe(200);
    const done = await u.post(`/api/accounts/${bank}/reconcile`, {
      statement_date: '2026-03-31',
      statement_balance: '-82.50',
    });
    expect(done.status).toBe(201);
    const before = u.digest();
    const res = await u.post(`/api/journal-entries/${posted.id}/correct`, correction(bank, food, '80.00'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'INVALID_STATUS',
      detail: 'The entry has a line reconciled with a bank statement and cannot be corrected',
    });
    expect(u.digest()).toBe(before);
  });

  it('when the entry does not exist or is malformed, then 404 and nothing changes', async () => {
    const { u, bank, food } = await books();
    const before = u.digest();
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const res = await u.post(`/api/journal-entries/${id}/correct`, correction(bank, food, '1.00'));
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    expect(u.digest()).toBe(before);
  });
});
