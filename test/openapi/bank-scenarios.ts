import crypto from 'node:crypto';
import { expect } from 'vitest';
import { cornerRule, freshMatch, freshStatement, freshTill, ids, made, send } from '../support/openapi-session.ts';

/** The scenarios of the operations of statements, reconciliation and rules (test/openapi.test.ts runs them). */
export const BANK_SCENARIOS: Record<string, () => Promise<void>> = {
  async 'GET /api/statements'() {
    expect((await send('GET', `/api/statements?account_id=${ids.bank}`)).status).toBe(200);
  },
  async 'POST /api/statements'() {
    const rows = [{ date: '2026-02-01', description: 'Again', amount: '1.00', type: 'debit', external_id: 'again-1' }];
    expect((await send('POST', '/api/statements', { json: { account_id: ids.bank, transactions: rows } })).status).toBe(
      201,
    );
    const again = await send('POST', '/api/statements', { json: { account_id: ids.bank, transactions: rows } });
    expect([again.status, again.body.id]).toEqual([200, null]);
    const unknown = await send('POST', '/api/statements', {
      json: { account_id: crypto.randomUUID(), transactions: rows },
    });
    expect(unknown.body.code).toBe('INVALID_ACCOUNT');
  },
  async 'POST /api/statements/import'() {
    const file = `Date,Description,Amount\n2026-02-03,Bakery,-3.50\n`;
    const dry = await send('POST', `/api/statements/import?account_id=${ids.bank}&dry_run=true`, {
      raw: file,
      contentType: 'text/csv',
    });
    expect([dry.status, dry.body.transaction_count]).toEqual([200, 1]);
    const form = new FormData();
    form.set('file', new Blob([file], { type: 'text/csv' }), 'bakery.csv');
    form.set('name', 'Bakery statement');
    expect((await send('POST', `/api/statements/import?account_id=${ids.bank}`, { raw: form })).status).toBe(201);
    const again = await send('POST', `/api/statements/import?account_id=${ids.bank}`, {
      raw: file,
      contentType: 'text/csv',
    });
    expect([again.status, again.body.id]).toEqual([200, null]);
    const broken = await send('POST', `/api/statements/import?account_id=${ids.bank}&format=ofx`, {
      raw: 'not a bank file',
      contentType: 'application/x-ofx',
    });
    expect(broken.body.code).toBe('INVALID_STATEMENT_FILE');
  },
  async 'GET /api/statements/{id}'() {
    expect((await send('GET', `/api/statements/${ids.statement}`)).status).toBe(200);
  },
  async 'DELETE /api/statements/{id}'() {
    const other = await made(
      send('POST', '/api/statements', {
        json: {
          account_id: ids.bank,
          transactions: [{ date: '2026-03-01', description: 'X', amount: '1.00', type: 'debit' }],
        },
      }),
      201,
    );
    expect((await send('DELETE', `/api/statements/${other.id}`)).status).toBe(204);
    // the seed statement has an accepted match by the end of the reconciliation scenarios
    const matched = await made(send('GET', `/api/reconciliation/matches/${ids.match}`), 200);
    if (matched.status !== 'accepted') await made(send('POST', `/api/reconciliation/matches/${ids.match}/accept`), 200);
    expect((await send('DELETE', `/api/statements/${ids.statement}`)).status).toBe(409);
  },
  async 'GET /api/statements/{id}/transactions'() {
    expect((await send('GET', `/api/statements/${ids.statement}/transactions?per_page=1`)).status).toBe(200);
  },
  async 'POST /api/reconciliation/run'() {
    expect((await send('POST', '/api/reconciliation/run', { json: { account_id: ids.bank } })).status).toBe(200);
    expect((await send('POST', '/api/reconciliation/run', { json: {} })).status).toBe(400);
  },
  async 'GET /api/reconciliation/pending'() {
    expect((await send('GET', '/api/reconciliation/pending?min_score=0&max_score=100')).status).toBe(200);
  },
  async 'GET /api/reconciliation/matches/{id}'() {
    expect((await send('GET', `/api/reconciliation/matches/${ids.match}`)).status).toBe(200);
  },
  async 'POST /api/reconciliation/matches/{id}/accept'() {
    const match = await freshMatch('63.00', 'POS 7711');
    const url = `/api/reconciliation/matches/${match.id}/accept`;
    expect((await send('POST', url, { json: { version: match.version + 1 } })).status).toBe(409);
    expect((await send('POST', url, { json: { version: match.version } })).status).toBe(200);
    expect((await send('POST', url)).body.code).toBe('ALREADY_PROCESSED');
  },
  async 'POST /api/reconciliation/matches/{id}/reject'() {
    const match = await freshMatch('61.00', 'POS 9911');
    const url = `/api/reconciliation/matches/${match.id}/reject`;
    expect((await send('POST', url, { json: { version: match.version + 1 } })).status).toBe(409);
    expect((await send('POST', url, { json: { reason: 'not this' } })).status).toBe(200);
    expect((await send('POST', url)).status).toBe(400);
  },
  async 'POST /api/reconciliation/batch-accept'() {
    expect((await send('POST', '/api/reconciliation/batch-accept', { json: { min_score: 100 } })).status).toBe(200);
  },
  async 'GET /api/reconciliation/stats'() {
    expect((await send('GET', `/api/reconciliation/stats?account_id=${ids.bank}`)).status).toBe(200);
  },
  async 'GET /api/reconciliation/unmatched'() {
    expect((await send('GET', '/api/reconciliation/unmatched?type=bank_transaction')).status).toBe(200);
  },
  async 'POST /api/reconciliation/unmatched/{id}/create-entry'() {
    const statement = await made(
      send('POST', '/api/statements', {
        json: {
          account_id: ids.bank,
          transactions: [{ date: '2026-03-09', description: 'Lonely payee', amount: '8.88', type: 'debit' }],
        },
      }),
      201,
    );
    const txn = (await made(send('GET', `/api/statements/${statement.id}/transactions`), 200)).items[0];
    const url = (id: string) => `/api/reconciliation/unmatched/${id}/create-entry`;
    expect((await send('POST', url(crypto.randomUUID()), { json: { account_id: ids.food } })).status).toBe(404);
    expect((await send('POST', url(txn.id), { json: { account_id: crypto.randomUUID() } })).status).toBe(400);
    expect((await send('POST', url(txn.id), { json: { account_id: ids.food } })).status).toBe(201);
  },
  async 'POST /api/reconciliation/transfers'() {
    const savings = (await made(send('POST', '/api/accounts', { json: { name: 'Savings', type: 'ASSET' } }), 201)).id;
    const lineOf = async (account_id: string, description: string, type: string) => {
      const transactions = [{ date: '2026-03-10', description, amount: '50.00', type }];
      const statement = await made(send('POST', '/api/statements', { json: { account_id, transactions } }), 201);
      return (await made(send('GET', `/api/statements/${statement.id}/transactions`), 200)).items[0].id;
    };
    const body = {
      from_transaction_id: await lineOf(ids.bank!, 'To savings', 'debit'),
      to_transaction_id: await lineOf(savings, 'From checking', 'credit'),
    };
    expect((await send('POST', '/api/reconciliation/transfers', { json: body })).status).toBe(201);
    expect((await send('POST', '/api/reconciliation/transfers', { json: body })).status).toBe(400);
  },
  async 'PATCH /api/statements/{id}'() {
    const url = `/api/statements/${ids.statement}`;
    const set = await send('PATCH', url, { json: { closing_balance: '-47.77', closing_date: '2026-01-31' } });
    expect([set.status, set.body.closing_balance]).toEqual([200, '-47.77']);
    expect((await send('PATCH', url, { json: { closing_balance: null } })).status).toBe(200);
    const nothing = await send('PATCH', `/api/statements/${crypto.randomUUID()}`, {
      json: { closing_balance: '1.00' },
    });
    expect(nothing.status).toBe(404);
  },
  async 'GET /api/rules'() {
    expect((await send('GET', '/api/rules?per_page=5')).status).toBe(200);
  },
  async 'POST /api/rules'() {
    expect((await send('POST', '/api/rules', { json: cornerRule('BAKERY') })).status).toBe(201);
    const noAccount = { ...cornerRule('BAKERY'), account_id: crypto.randomUUID() };
    expect((await send('POST', '/api/rules', { json: noAccount })).status).toBe(400);
  },
  async 'GET /api/rules/{id}'() {
    expect((await send('GET', `/api/rules/${ids.rule}`)).status).toBe(200);
  },
  async 'PUT /api/rules/{id}'() {
    const again = { ...cornerRule('OFFICE RENT'), priority: 5 };
    expect((await send('PUT', `/api/rules/${ids.rule}`, { json: again })).status).toBe(200);
    expect((await send('PUT', `/api/rules/${crypto.randomUUID()}`, { json: again })).status).toBe(404);
  },
  async 'DELETE /api/rules/{id}'() {
    const other = await made(send('POST', '/api/rules', { json: cornerRule('PARKING') }), 201);
    expect((await send('DELETE', `/api/rules/${other.id}`)).status).toBe(204);
  },
  async 'GET /api/reconciliation/matches'() {
    const url = `/api/reconciliation/matches?status=accepted&account_id=${ids.bank}&statement_id=${ids.statement}`;
    expect((await send('GET', url)).status).toBe(200);
    expect((await send('GET', '/api/reconciliation/matches')).status).toBe(200);
  },
  async 'POST /api/reconciliation/unmatched/create-entries'() {
    const url = '/api/reconciliation/unmatched/create-entries';
    const byRule = await freshStatement('OFFICE RENT MARCH', 'Nobody knows');
    const booked = await send('POST', url, { json: { statement_id: byRule.id } });
    expect([booked.status, booked.body.created.length, booked.body.skipped.length]).toEqual([201, 1, 1]);
    const byHand = await freshStatement('Hand booked');
    const item = { bank_transaction_id: byHand.txns[0]!.id, account_id: ids.food };
    const refused = await send('POST', url, { json: { items: [{ ...item, account_id: crypto.randomUUID() }] } });
    expect([refused.status, refused.body.errors[0].field]).toEqual([400, 'items.0.account_id']);
    expect((await send('POST', url, { json: { items: [item] } })).status).toBe(201);
    expect((await send('POST', url, { json: { statement_id: crypto.randomUUID() } })).status).toBe(404);
  },
  async 'POST /api/accounts/{id}/cleared'() {
    const till = await freshTill();
    const url = `/api/accounts/${till.id}/cleared`;
    const ticked = await send('POST', url, { json: { line_ids: till.lines, cleared: true } });
    expect([ticked.status, ticked.body.lines.map((l: { cleared: string }) => l.cleared)]).toEqual([
      200,
      ['cleared', 'cleared'],
    ]);
    expect((await send('POST', url, { json: { line_ids: [crypto.randomUUID()], cleared: true } })).status).toBe(400);
    const nothing = `/api/accounts/${crypto.randomUUID()}/cleared`;
    expect((await send('POST', nothing, { json: { line_ids: till.lines, cleared: true } })).status).toBe(404);
  },
  async 'GET /api/accounts/{id}/reconcile'() {
    const till = await freshTill();
    const status = await send(
      'GET',
      `/api/accounts/${till.id}/reconcile?statement_date=2026-04-30&statement_balance=70.00`,
    );
    expect([status.status, status.body.difference, status.body.uncleared_count]).toEqual([200, '70.00', 2]);
  },
  async 'POST /api/accounts/{id}/reconcile'() {
    const till = await freshTill();
    const url = `/api/accounts/${till.id}/reconcile`;
    await made(
      send('POST', `/api/accounts/${till.id}/cleared`, { json: { line_ids: [till.lines[0]], cleared: true } }),
      200,
    );
    const off = await send('POST', url, { json: { statement_date: '2026-04-30', statement_balance: '70.00' } });
    expect([off.status, off.body.code]).toEqual([409, 'BALANCE_MISMATCH']);
    const done = await send('POST', url, { json: { statement_date: '2026-04-30', statement_balance: '100.00' } });
    expect([done.status, done.body.line_count]).toEqual([201, 1]);
    const nothing = `/api/accounts/${crypto.randomUUID()}/reconcile`;
    expect(
      (await send('POST', nothing, { json: { statement_date: '2026-04-30', statement_balance: '0' } })).status,
    ).toBe(404);
  },
  async 'POST /api/accounts/{id}/opening-balance'() {
    const till = await freshTill();
    const equity = await made(
      send('POST', '/api/accounts', { json: { name: `Opening ${crypto.randomUUID()}`, type: 'EQUITY' } }),
      201,
    );
    const url = `/api/accounts/${till.id}/opening-balance`;
    const body = { entry_date: '2026-03-31', amount: '5.00', offset_account_id: equity.id };
    const late = await send('POST', url, { json: { ...body, entry_date: '2026-04-01' } });
    expect([late.status, late.body.code]).toEqual([409, 'OPENING_BALANCE_AMBIGUOUS']);
    expect((await send('POST', url, { json: body })).status).toBe(201);
    const again = await send('POST', url, { json: { ...body, entry_date: '2026-03-01' } });
    expect([again.status, again.body.code]).toEqual([409, 'OPENING_BALANCE_EXISTS']);
    const nothing = `/api/accounts/${crypto.randomUUID()}/opening-balance`;
    expect((await send('POST', nothing, { json: body })).status).toBe(404);
  },
  async 'POST /api/accounts/{id}/reconcile-adjustment'() {
    const till = await freshTill();
    const body = { entry_date: '2026-04-30', amount: '-1.00', offset_account_id: ids.food };
    const done = await send('POST', `/api/accounts/${till.id}/reconcile-adjustment`, { json: body });
    expect([done.status, done.body.lines[0].direction]).toEqual([201, 'CREDIT']);
    const nothing = `/api/accounts/${crypto.randomUUID()}/reconcile-adjustment`;
    expect((await send('POST', nothing, { json: body })).status).toBe(404);
  },
  async 'GET /api/accounts/{id}/reconciliations'() {
    expect((await send('GET', `/api/accounts/${ids.bank}/reconciliations?per_page=5`)).status).toBe(200);
  },
  async 'GET /api/accounts/{id}/unreconciled-lines'() {
    const url = `/api/accounts/${ids.bank}/unreconciled-lines?statement_date=2026-01-31&page=1&per_page=5`;
    expect((await send('GET', url)).status).toBe(200);
  },
};
