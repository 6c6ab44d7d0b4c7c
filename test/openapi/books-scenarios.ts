import crypto from 'node:crypto';
import { expect } from 'vitest';
import { registerUser, startTestServer } from '../support/server.ts';
import { ids, made, monthly, send, spend, t } from '../support/openapi-session.ts';

/** The scenarios of the operations of accounts, journal, reports, budgets, schedules and sign-in (test/openapi.test.ts runs them). */
export const BOOKS_SCENARIOS: Record<string, () => Promise<void>> = {
  async 'POST /api/auth/register'() {
    const email = `scenario-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const body = { email, name: 'Scenario', password: 'correct horse battery' };
    expect((await send('POST', '/api/auth/register', { json: body, token: null })).status).toBe(201);
    expect((await send('POST', '/api/auth/register', { json: body, token: null })).status).toBe(409);
    const limited = await startTestServer({ limits: {} });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const fresh = { ...body, email: `limit-${i}-${email}` };
        statuses.push(
          (await send('POST', '/api/auth/register', { json: fresh, token: null, base: limited.server.url })).status,
        );
      }
      expect(statuses).toEqual([201, 201, 201, 429]);
    } finally {
      await limited.stop();
    }
  },
  async 'POST /api/auth/login'() {
    const someone = await registerUser(t.api);
    const login = (password: string) =>
      send('POST', '/api/auth/login', { json: { email: someone.email, password }, token: null });
    expect((await login('correct horse battery')).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await login('wrong password')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  },
  async 'GET /api/auth/me'() {
    expect((await send('GET', '/api/auth/me')).status).toBe(200);
  },
  async 'POST /api/auth/logout'() {
    const someone = await registerUser(t.api);
    expect((await send('POST', '/api/auth/logout', { token: someone.token })).status).toBe(204);
  },
  async 'POST /api/auth/password'() {
    const someone = await registerUser(t.api);
    const change = (current: string, next: string) =>
      send('POST', '/api/auth/password', {
        token: someone.token,
        json: { current_password: current, new_password: next },
      });
    expect((await change('correct horse battery', 'short')).status).toBe(400);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await change('wrong password', 'another good password')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const other = await registerUser(t.api);
    const ok = await send('POST', '/api/auth/password', {
      token: other.token,
      json: { current_password: 'correct horse battery', new_password: 'another good password' },
    });
    expect(ok.status).toBe(200);
  },
  async 'GET /api/accounts'() {
    expect((await send('GET', '/api/accounts?per_page=2&is_active=true')).status).toBe(200);
  },
  async 'POST /api/accounts'() {
    expect((await send('POST', '/api/accounts', { json: { name: 'Odd', type: 'THING' } })).body.code).toBe(
      'INVALID_TYPE',
    );
  },
  async 'GET /api/accounts/balances'() {
    expect((await send('GET', '/api/accounts/balances?as_of=2026-01-31')).status).toBe(200);
  },
  async 'GET /api/accounts/{id}'() {
    expect((await send('GET', `/api/accounts/${ids.bank}`)).status).toBe(200);
  },
  async 'PUT /api/accounts/{id}'() {
    expect((await send('PUT', `/api/accounts/${ids.spare}`, { json: { description: 'Spare income' } })).status).toBe(
      200,
    );
  },
  async 'DELETE /api/accounts/{id}'() {
    expect((await send('DELETE', `/api/accounts/${ids.bank}`)).status).toBe(409);
    const gone = await made(send('POST', '/api/accounts', { json: { name: 'Gone', type: 'ASSET' } }), 201);
    expect((await send('DELETE', `/api/accounts/${gone.id}`)).status).toBe(204);
  },
  async 'GET /api/accounts/{id}/balance'() {
    expect((await send('GET', `/api/accounts/${ids.bank}/balance`)).status).toBe(200);
  },
  async 'GET /api/accounts/{id}/register'() {
    expect((await send('GET', `/api/accounts/${ids.bank}/register?page=1&per_page=5`)).status).toBe(200);
  },
  async 'GET /api/journal-entries'() {
    expect((await send('GET', `/api/journal-entries?account_id=${ids.bank}&page=1&per_page=5`)).status).toBe(200);
    expect((await send('GET', '/api/journal-entries?q=shop%2012.50')).status).toBe(200);
  },
  async 'POST /api/journal-entries'() {
    expect((await send('POST', '/api/journal-entries', { json: spend('1.00', 'One', false) })).status).toBe(201);
    const unbalanced = { ...spend('1.00', 'Off', false), lines: [spend('1.00', '', false).lines[0]] };
    expect((await send('POST', '/api/journal-entries', { json: unbalanced })).body.code).toBe('TOO_FEW_LINES');
  },
  async 'POST /api/journal-entries/batch'() {
    const entries = [spend('1.00', 'One', true), spend('2.00', 'Two', true)];
    expect((await send('POST', '/api/journal-entries/batch', { json: { entries } })).status).toBe(201);
    const bad = [entries[0], { ...entries[1], lines: [entries[1]!.lines[0]] }];
    const refused = await send('POST', '/api/journal-entries/batch', { json: { entries: bad } });
    expect([refused.status, refused.body.errors[0].field]).toEqual([400, 'entries.1.lines']);
  },
  async 'GET /api/journal-entries/{id}'() {
    expect((await send('GET', `/api/journal-entries/${ids.posted}`)).status).toBe(200);
  },
  async 'PUT /api/journal-entries/{id}'() {
    expect((await send('PUT', `/api/journal-entries/${ids.draft}`, { json: { memo: 'Renamed' } })).status).toBe(200);
    expect((await send('PUT', `/api/journal-entries/${ids.posted}`, { json: { memo: 'No' } })).body.code).toBe(
      'INVALID_STATUS',
    );
  },
  async 'POST /api/journal-entries/{id}/post'() {
    const draft = await made(send('POST', '/api/journal-entries', { json: spend('3.00', 'To post', false) }), 201);
    expect((await send('POST', `/api/journal-entries/${draft.id}/post`)).status).toBe(200);
    expect((await send('POST', `/api/journal-entries/${draft.id}/post`)).status).toBe(400);
  },
  async 'POST /api/journal-entries/{id}/void'() {
    const entry = await made(send('POST', '/api/journal-entries', { json: spend('3.00', 'To void', true) }), 201);
    expect((await send('POST', `/api/journal-entries/${entry.id}/void`)).status).toBe(200);
    expect((await send('POST', `/api/journal-entries/${entry.id}/void`, { json: { reason: 'again' } })).status).toBe(
      400,
    );
  },
  async 'POST /api/journal-entries/{id}/correct'() {
    const entry = await made(send('POST', '/api/journal-entries', { json: spend('3.00', 'To correct', true) }), 201);
    const { auto_post: _, ...corrected } = spend('3.30', 'Corrected', true);
    const url = (id: string) => `/api/journal-entries/${id}/correct`;
    expect((await send('POST', url(entry.id), { json: corrected })).status).toBe(201);
    expect((await send('POST', url(entry.id), { json: corrected })).status).toBe(400);
    expect((await send('POST', url(crypto.randomUUID()), { json: corrected })).status).toBe(404);
  },
  async 'GET /api/reports/trial-balance'() {
    expect((await send('GET', '/api/reports/trial-balance')).status).toBe(200);
  },
  async 'GET /api/reports/balance-sheet'() {
    expect((await send('GET', '/api/reports/balance-sheet?as_of=2026-12-31')).status).toBe(200);
  },
  async 'GET /api/reports/income-statement'() {
    expect((await send('GET', '/api/reports/income-statement?start_date=2026-01-01&end_date=2026-12-31')).status).toBe(
      200,
    );
  },
  async 'GET /api/reports/net-worth'() {
    expect((await send('GET', '/api/reports/net-worth?start_date=2026-01-01&end_date=2026-03-31')).status).toBe(200);
  },
  async 'GET /api/reports/income-expenses'() {
    expect((await send('GET', '/api/reports/income-expenses?start_date=2026-01-01&end_date=2026-03-31')).status).toBe(
      200,
    );
    expect((await send('GET', '/api/reports/income-expenses?interval=year')).status).toBe(400);
  },
  async 'GET /api/reports/cash-flow'() {
    expect(
      (await send('GET', '/api/reports/cash-flow?start_date=2026-01-01&end_date=2026-03-31&interval=week')).status,
    ).toBe(200);
  },
  async 'GET /api/budgets/{month}'() {
    expect((await send('GET', '/api/budgets/2026-01')).status).toBe(200);
  },
  async 'PUT /api/budgets/{month}'() {
    const line = (accountId: string) => ({ lines: [{ account_id: accountId, amount: '300.00', carry_over: true }] });
    expect((await send('PUT', '/api/budgets/2026-01', { json: line(ids.food!) })).status).toBe(200);
    expect((await send('PUT', '/api/budgets/2026-01', { json: line(crypto.randomUUID()) })).body.code).toBe(
      'INVALID_ACCOUNT',
    );
  },
  async 'POST /api/budgets/{month}/fill'() {
    await made(
      send('PUT', '/api/budgets/2026-01', { json: { lines: [{ account_id: ids.food, amount: '300.00' }] } }),
      200,
    );
    expect((await send('POST', '/api/budgets/2026-02/fill', { json: { from: 'previous_month' } })).status).toBe(200);
  },
  async 'GET /api/reports/budget-vs-actual'() {
    expect((await send('GET', '/api/reports/budget-vs-actual?year=2026')).status).toBe(200);
  },
  async 'GET /api/schedules'() {
    expect((await send('GET', '/api/schedules?per_page=5')).status).toBe(200);
  },
  async 'POST /api/schedules'() {
    expect((await send('POST', '/api/schedules', { json: monthly('2027-03-01') })).status).toBe(201);
    const oneLine = { ...monthly('2027-03-01'), lines: monthly('2027-03-01').lines.slice(0, 1) };
    expect((await send('POST', '/api/schedules', { json: oneLine })).body.code).toBe('TOO_FEW_LINES');
  },
  async 'GET /api/schedules/upcoming'() {
    expect((await send('GET', '/api/schedules/upcoming')).status).toBe(200);
  },
  async 'POST /api/schedules/run'() {
    await made(send('POST', '/api/schedules', { json: monthly('2026-01-31') }), 201);
    const run = await send('POST', '/api/schedules/run');
    expect([run.status, run.body.created.length > 0]).toEqual([200, true]);
  },
  async 'GET /api/schedules/{id}'() {
    expect((await send('GET', `/api/schedules/${ids.schedule}`)).status).toBe(200);
  },
  async 'PUT /api/schedules/{id}'() {
    expect((await send('PUT', `/api/schedules/${ids.schedule}`, { json: monthly('2027-01-05') })).status).toBe(200);
    const nothing = await send('PUT', `/api/schedules/${crypto.randomUUID()}`, { json: monthly('2027-01-05') });
    expect(nothing.status).toBe(404);
  },
  async 'DELETE /api/schedules/{id}'() {
    const other = await made(send('POST', '/api/schedules', { json: monthly('2027-06-01') }), 201);
    expect((await send('DELETE', `/api/schedules/${other.id}`)).status).toBe(204);
  },
  async 'POST /api/schedules/{id}/skip'() {
    const url = `/api/schedules/${ids.schedule}/skip`;
    expect((await send('POST', url, { json: { date: '2027-02-05' } })).status).toBe(204);
    expect((await send('POST', url, { json: { date: '2027-02-06' } })).status).toBe(400);
    const nothing = `/api/schedules/${crypto.randomUUID()}/skip`;
    expect((await send('POST', nothing, { json: { date: '2027-02-05' } })).status).toBe(404);
  },
};
