import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LedgerUser, useTestServer } from '../../../test/support/ledger-user.ts';
import { fixture } from '../../../test/support/statement-fixtures.ts';

/** Booking bank lines in bulk, statement balances, cleared lines and reconciling to the bank (CONTRACT §13, §14) over HTTP. */

const server = useTestServer();

/** A new user's books: a bank account, spending and pay. */
async function books() {
  const u = await LedgerUser.open(server());
  const { accounts } = await u.books(`
account Checking   ; type: ASSET
account Groceries  ; type: EXPENSE
account Salary     ; type: INCOME
`);
  return { u, bank: accounts.Checking!, food: accounts.Groceries!, salary: accounts.Salary! };
}

const MARCH = [
  { date: '2026-03-02', description: 'TESCO STORES 3021', amount: '41.20', type: 'debit' as const },
  { date: '2026-03-05', description: 'ACME PAYROLL', amount: '2000.00', type: 'credit' as const },
  { date: '2026-03-09', description: 'TESCO STORES 4410', amount: '12.80', type: 'debit' as const },
];

describe('booking bank lines in bulk (create-entries)', () => {
  it('when items are booked, then each is a posted entry with an accepted match, its bank line cleared, and 201 lists them', async () => {
    const { u, bank, food, salary } = await books();
    const s = await u.statement(bank, MARCH);
    const [tesco1, payroll] = s.txns;
    const res = await u.post('/api/reconciliation/unmatched/create-entries', {
      items: [
        { bank_transaction_id: tesco1!.id, account_id: food },
        { bank_transaction_id: payroll!.id, account_id: salary, memo: 'March salary' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      created: [
        { bank_transaction_id: tesco1!.id, entry_id: expect.any(String), match_id: expect.any(String) },
        { bank_transaction_id: payroll!.id, entry_id: expect.any(String), match_id: expect.any(String) },
      ],
      skipped: [],
    });
    const entry = (await u.get(`/api/journal-entries/${res.body.created[1].entry_id}`)).body;
    expect(entry).toMatchObject({ memo: 'March salary', status: 'posted', source_type: 'reconciliation' });
    expect(entry.lines.find((l: { account_id: string }) => l.account_id === bank).cleared).toBe('cleared');
    expect(entry.lines.find((l: { account_id: string }) => l.account_id === salary).cleared).toBe('uncleared');
    expect((await u.get(`/api/reconciliation/matches/${res.body.created[0].match_id}`)).body.status).toBe('accepted');
    expect((await u.unmatched()).map((i) => i.transaction.description)).toEqual(['TESCO STORES 4410']);
  });

  it('when one item is bad, then 400 names each bad item by its index and nothing is booked', async () => {
    const { u, bank, food } = await books();
    const euros = await u.account('Euro food', 'EXPENSE', 'EUR');
    const s = await u.statement(bank, MARCH);
    const before = u.digest();
    const res = await u.post('/api/reconciliation/unmatched/create-entries', {
      items: [
        { bank_transaction_id: s.txns[0]!.id, account_id: food },
        { bank_transaction_id: s.txns[1]!.id, account_id: crypto.randomUUID() },
        { bank_transaction_id: crypto.randomUUID(), account_id: food },
        { bank_transaction_id: s.txns[2]!.id, account_id: euros },
        { bank_transaction_id: s.txns[0]!.id, account_id: food },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_ACCOUNT');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'items.1.account_id',
      'items.2.bank_transaction_id',
      // no EUR rate for the line's date: MISSING_RATE, named on the amount in EUR that could be given instead
      'items.3.converted_amount',
      'items.4.bank_transaction_id',
    ]);
    expect(u.digest()).toBe(before);
  });

  it('when a statement is booked by its rules, then every unmatched line a rule matches is booked to the rule’s account with the rule’s memo, and the rest are skipped', async () => {
    const { u, bank, food } = await books();
    const s = await u.statement(bank, MARCH);
    await u.post('/api/rules', {
      name: 'Tesco',
      description: { op: 'starts_with', value: 'tesco stores' },
      account_id: food,
      memo: 'Groceries at Tesco',
    });
    const res = await u.post('/api/reconciliation/unmatched/create-entries', { statement_id: s.id });
    expect(res.status).toBe(201);
    expect(res.body.created.map((c: { bank_transaction_id: string }) => c.bank_transaction_id)).toEqual([
      s.txns[0]!.id,
      s.txns[2]!.id,
    ]);
    expect(res.body.skipped).toEqual([s.txns[1]!.id]);
    const entry = (await u.get(`/api/journal-entries/${res.body.created[0].entry_id}`)).body;
    expect(entry.memo).toBe('Groceries at Tesco');
    expect(entry.lines.find((l: { account_id: string }) => l.account_id === food).amount).toBe('41.20');
    // booked once: again, nothing more
    const again = await u.post('/api/reconciliation/unmatched/create-entries', { statement_id: s.id });
    expect(again.body).toEqual({ created: [], skipped: [s.txns[1]!.id] });
  });

  it('when the body gives both or neither, too many items, or an unknown statement, then 400 or 404 and nothing changes', async () => {
    const { u, bank, food } = await books();
    const s = await u.statement(bank, MARCH);
    const before = u.digest();
    for (const body of [
      {},
      { statement_id: s.id, items: [{ bank_transaction_id: s.txns[0]!.id, account_id: food }] },
      { items: [] },
      { items: Array.from({ length: 501 }, () => ({ bank_transaction_id: s.txns[0]!.id, account_id: food })) },
    ]) {
      const res = await u.post('/api/reconciliation/unmatched/create-entries', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    const missing = await u.post('/api/reconciliation/unmatched/create-entries', { statement_id: crypto.randomUUID() });
    expect(missing.status).toBe(404);
    expect(u.digest()).toBe(before);
  });
});

describe('statement balances (CONTRACT §14)', () => {
  it('when an OFX statement states its LEDGERBAL, then the statement keeps it as closing balance at DTASOF', async () => {
    const { u, bank } = await books();
    const res = await u.api.request('POST', `/api/statements/import?account_id=${bank}`, {
      rawBody: fixture('ofx1_ofxparse_checking_usd.ofx'),
      token: u.token,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ opening_balance: null, closing_balance: '100.99', closing_date: '2013-05-25' });
    expect((await u.get(`/api/statements/${res.body.id}`)).body.closing_balance).toBe('100.99');
  });

  it('when a card statement states what is owed as a negative balance, then on the LIABILITY account it is positive', async () => {
    const u = await LedgerUser.open(server());
    const card = await u.account('ANZ card', 'LIABILITY', 'AUD');
    const res = await u.api.request('POST', `/api/statements/import?account_id=${card}`, {
      rawBody: fixture('ofx2_anz_creditcard_unclosed_tags.ofx'),
      token: u.token,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.status, res.text).toBe(201);
    // the file's LEDGERBAL is -123.45
    expect(res.body.closing_balance).toBe('123.45');
  });

  it('when a JSON statement carries a closing balance, or one is set by hand, then it is kept; a bad one is 400 and changes nothing', async () => {
    const { u, bank } = await books();
    const s = await u.statement(bank, MARCH, { closing_balance: '-12.50' });
    expect(s.body).toMatchObject({ closing_balance: '-12.50', closing_date: '2026-03-09' });
    const patched = await u.patch(`/api/statements/${s.id}`, {
      closing_balance: '1946.00',
      closing_date: '2026-03-31',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: s.id, closing_balance: '1946.00', closing_date: '2026-03-31' });
    const before = u.digest();
    for (const body of [{ closing_balance: '1.234' }, { closing_balance: 12 }, { closing_balance: '+5' }, {}]) {
      const res = await u.patch(`/api/statements/${s.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    expect((await u.patch(`/api/statements/${crypto.randomUUID()}`, { closing_balance: '1.00' })).status).toBe(404);
    expect(u.digest()).toBe(before);
    const cleared = await u.patch(`/api/statements/${s.id}`, { closing_balance: null });
    expect(cleared.body).toMatchObject({ closing_balance: null, closing_date: null });
  });
});

describe('reconciling an account to the bank (CONTRACT §14)', () => {
  it('when lines are cleared by matches and by hand, then reconcile-status counts them, and reconcile finishes only at zero difference', async () => {
    const { u, bank, food, salary } = await books();
    await u.entry(bank, salary, '2026-02-27', 'Opening pay', '1000.00', false);
    const s = await u.statement(bank, MARCH);
    const created = await u.post('/api/reconciliation/unmatched/create-entries', {
      items: s.txns.map((x, i) => ({ bank_transaction_id: x.id, account_id: i === 1 ? salary : food })),
    });
    expect(created.status).toBe(201);
    const late = await u.entry(bank, food, '2026-04-02', 'April shop', '9.99');
    const status = async (date: string, balance: string) => {
      const res = await u.get(`/api/accounts/${bank}/reconcile?statement_date=${date}&statement_balance=${balance}`);
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    // the February pay is not on the statement and not cleared: the bank's lines alone
    expect(await status('2026-03-31', '1946.00')).toEqual({
      statement_date: '2026-03-31',
      statement_balance: '1946.00',
      cleared_balance: '1946.00',
      difference: '0.00',
      uncleared_count: 1,
    });
    const lines = await u.get(`/api/accounts/${bank}/unreconciled-lines?statement_date=2026-03-31`);
    expect(lines.body.total).toBe(4);
    expect(lines.body.items.map((l: { amount: string; cleared: string }) => [l.amount, l.cleared])).toEqual([
      ['-12.80', 'cleared'],
      ['2000.00', 'cleared'],
      ['-41.20', 'cleared'],
      ['1000.00', 'uncleared'],
    ]);
    const pay = lines.body.items[3].line_id;
    const tick = await u.post(`/api/accounts/${bank}/cleared`, { line_ids: [pay], cleared: true });
    expect(tick.status).toBe(200);
    expect(tick.body).toEqual({ lines: [{ id: pay, cleared: 'cleared' }] });
    expect(await status('2026-03-31', '1946.00')).toMatchObject({
      cleared_balance: '2946.00',
      difference: '-1000.00',
      uncleared_count: 0,
    });
    // a line its bank line's match clears is not unticked by hand
    const booked = u.digest();
    const refused = await u.post(`/api/accounts/${bank}/cleared`, {
      line_ids: [lines.body.items[0].line_id],
      cleared: false,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: 'line_ids.0', message: expect.stringContaining('matched with a bank line') },
    ]);
    expect(u.digest()).toBe(booked);

    const before = u.digest();
    const mismatch = await u.post(`/api/accounts/${bank}/reconcile`, {
      statement_date: '2026-03-31',
      statement_balance: '1946.00',
    });
    expect(mismatch.status).toBe(409);
    expect(mismatch.body.code).toBe('BALANCE_MISMATCH');
    expect(mismatch.body.detail).toContain('-1000.00');
    expect(u.digest()).toBe(before);

    const done = await u.post(`/api/accounts/${bank}/reconcile`, {
      statement_date: '2026-03-31',
      statement_balance: '2946.00',
    });
    expect(done.status).toBe(201);
    expect(done.body).toEqual({
      id: expect.any(String),
      account_id: bank,
      statement_date: '2026-03-31',
      statement_balance: '2946.00',
      line_count: 4,
      created_at: expect.any(String),
    });
    const list = await u.get(`/api/accounts/${bank}/reconciliations`);
    expect(list.body).toMatchObject({ total: 1, items: [done.body] });
    expect((await u.get(`/api/accounts/${bank}/unreconciled-lines?statement_date=2026-04-30`)).body.items).toEqual([
      expect.objectContaining({ entry_id: late.id, amount: '-9.99', cleared: 'uncleared' }),
    ]);
    // the reconciled lines are locked: not unticked, and their entries not voided
    const untick = await u.post(`/api/accounts/${bank}/cleared`, { line_ids: [pay], cleared: false });
    expect(untick.status).toBe(400);
    expect(untick.body.errors).toEqual([{ field: 'line_ids.0', message: expect.stringContaining('reconciled') }]);
    const entryId = created.body.created[0].entry_id;
    const voided = await u.post(`/api/journal-entries/${entryId}/void`, {});
    expect(voided.status).toBe(400);
    expect(voided.body.code).toBe('INVALID_STATUS');
    expect(voided.body.detail).toMatch(/reconciled/);
    const entry = (await u.get(`/api/journal-entries/${entryId}`)).body;
    expect(entry.lines.find((l: { account_id: string }) => l.account_id === bank).cleared).toBe('reconciled');
    // the next month starts from the reconciled balance
    expect(await status('2026-04-30', '2936.01')).toMatchObject({
      cleared_balance: '2946.00',
      difference: '-9.99',
      uncleared_count: 1,
    });
  });

  it('when a line of another account, a draft’s line or an unknown line is ticked, or the account is unknown, then 400 or 404 and nothing changes', async () => {
    const { u, bank, food } = await books();
    const posted = await u.entry(bank, food, '2026-03-01', 'Shop', '5.00');
    const draft = await u.post('/api/journal-entries', {
      entry_date: '2026-03-02',
      lines: [
        { account_id: food, direction: 'DEBIT', amount: '1.00' },
        { account_id: bank, direction: 'CREDIT', amount: '1.00' },
      ],
    });
    const foodLine = posted.lines.find((l: { account_id: string }) => l.account_id === food).id;
    const draftLine = draft.body.lines.find((l: { account_id: string }) => l.account_id === bank).id;
    const before = u.digest();
    const res = await u.post(`/api/accounts/${bank}/cleared`, {
      line_ids: [foodLine, draftLine, 'nope'],
      cleared: true,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['line_ids.0', 'line_ids.1', 'line_ids.2']);
    for (const path of [
      `/api/accounts/${crypto.randomUUID()}/reconcile?statement_date=2026-03-31&statement_balance=0`,
      `/api/accounts/${crypto.randomUUID()}/reconciliations`,
    ])
      expect((await u.get(path)).status).toBe(404);
    for (const q of [
      'statement_date=2026-02-30&statement_balance=0',
      'statement_date=2026-03-31&statement_balance=1.005',
      'statement_date=2026-03-31',
    ])
      expect((await u.get(`/api/accounts/${bank}/reconcile?${q}`)).status, q).toBe(400);
    expect(u.digest()).toBe(before);
  });

  it('when a run accepts a match on its own, then it is listed, its line cleared, and undoing it unmatches the line and unclears it', async () => {
    const { u, bank, food } = await books();
    const entry = await u.entry(bank, food, '2026-03-02', 'TESCO STORES', '41.20');
    const s = await u.statement(bank, [MARCH[0]!]);
    const run = await u.post('/api/reconciliation/run', { statement_id: s.id });
    expect(run.body.summary.auto_accepted).toBe(1);
    const auto = await u.get(`/api/reconciliation/matches?status=auto_accepted&statement_id=${s.id}`);
    expect(auto.status).toBe(200);
    expect(auto.body.total).toBe(1);
    const match = auto.body.items[0];
    expect(match.bank_transaction).toMatchObject({ account_id: bank, description: 'TESCO STORES 3021' });
    const bankLine = () =>
      u
        .get(`/api/journal-entries/${entry.id}`)
        .then((r) => r.body.lines.find((l: { account_id: string }) => l.account_id === bank));
    expect((await bankLine()).cleared).toBe('cleared');
    const undo = await u.post(`/api/reconciliation/matches/${match.id}/reject`, { reason: 'not this one' });
    expect(undo.status).toBe(200);
    expect(undo.body.status).toBe('rejected');
    expect((await bankLine()).cleared).toBe('uncleared');
    expect((await u.unmatched()).map((i) => i.transaction.id)).toEqual([s.txns[0]!.id]);
    expect((await u.get(`/api/reconciliation/matches?statement_id=${s.id}`)).body.total).toBe(0);
  });

  it('when an automatic match’s line is reconciled, then undoing it is 400 INVALID_STATUS and nothing changes', async () => {
    const { u, bank, food } = await books();
    await u.entry(bank, food, '2026-03-02', 'TESCO STORES', '41.20');
    const s = await u.statement(bank, [MARCH[0]!]);
    await u.post('/api/reconciliation/run', { statement_id: s.id });
    expect(
      (await u.post(`/api/accounts/${bank}/reconcile`, { statement_date: '2026-03-31', statement_balance: '-41.20' }))
        .status,
    ).toBe(201);
    const match = (await u.get('/api/reconciliation/matches')).body.items[0];
    const before = u.digest();
    const res = await u.post(`/api/reconciliation/matches/${match.id}/reject`, {});
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_STATUS');
    expect(u.digest()).toBe(before);
  });
});
