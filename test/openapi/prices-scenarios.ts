import crypto from 'node:crypto';
import { expect } from 'vitest';
import { buyVti, ids, made, rate, SECURITY, send } from '../support/openapi-session.ts';

/** The scenarios of the operations of prices, securities, investments and settings (test/openapi.test.ts runs them). */
export const PRICES_SCENARIOS: Record<string, () => Promise<void>> = {
  async 'GET /api/prices'() {
    expect((await send('GET', '/api/prices?from=EUR&per_page=5')).status).toBe(200);
  },
  async 'POST /api/prices'() {
    expect((await send('POST', '/api/prices', { json: rate('2026-01-03', '1.081') })).status).toBe(201);
    expect((await send('POST', '/api/prices', { json: rate('2026-01-03', '1.082') })).status).toBe(200);
  },
  async 'GET /api/prices/latest'() {
    expect((await send('GET', '/api/prices/latest')).status).toBe(200);
  },
  async 'GET /api/prices/convert'() {
    expect([200, 201]).toContain((await send('POST', '/api/prices', { json: rate('2026-01-02', '1.08') })).status);
    const url = (date: string) => `/api/prices/convert?amount=10.00&from=EUR&to=USD&date=${date}`;
    expect((await send('GET', url('2026-01-03'))).status).toBe(200);
    expect((await send('GET', url('1999-01-01'))).status).toBe(400);
  },
  async 'POST /api/prices/import'() {
    const url = '/api/prices/import';
    const file = 'date,from,to,rate\n2026-01-04,EUR,USD,1.083\n2026-01-04,USD,JPY,151.2\n';
    expect((await send('POST', url, { raw: file, contentType: 'text/csv' })).status).toBe(201);
    const broken = await send('POST', url, {
      raw: 'date,from,to,rate\n2026-01-05,EUR,USD,-1\n',
      contentType: 'text/csv',
    });
    expect(broken.status).toBe(400);
  },
  async 'DELETE /api/prices/{id}'() {
    const other = await made(send('POST', '/api/prices', { json: rate('2026-01-09', '1.07') }), 201);
    expect((await send('DELETE', `/api/prices/${other.id}`)).status).toBe(204);
  },
  async 'GET /api/securities'() {
    expect((await send('GET', '/api/securities')).status).toBe(200);
  },
  async 'POST /api/securities'() {
    expect((await send('POST', '/api/securities', { json: { ...SECURITY, symbol: 'AAPL' } })).status).toBe(201);
    expect((await send('POST', '/api/securities', { json: SECURITY })).status).toBe(400);
  },
  async 'PUT /api/securities/{id}/prices'() {
    const url = `/api/securities/${ids.security}/prices`;
    expect((await send('PUT', url, { json: { date: '2026-01-07', price: '201.5' } })).status).toBe(200);
    expect((await send('PUT', url, { json: { date: '2026-01-07', price: '0' } })).status).toBe(400);
    const nothing = `/api/securities/${crypto.randomUUID()}/prices`;
    expect((await send('PUT', nothing, { json: { date: '2026-01-07', price: '1' } })).status).toBe(404);
  },
  async 'POST /api/securities/prices/import'() {
    const url = '/api/securities/prices/import';
    const file = 'date,symbol,price\n2026-01-08,VTI,202\n';
    expect((await send('POST', url, { raw: file, contentType: 'text/csv' })).status).toBe(201);
    const unknown = 'date,symbol,price\n2026-01-08,NOPE,1\n';
    expect((await send('POST', url, { raw: unknown, contentType: 'text/csv' })).status).toBe(400);
  },
  async 'GET /api/investments/accounts/{account_id}'() {
    expect((await send('GET', `/api/investments/accounts/${ids.bank}`)).status).toBe(200);
  },
  async 'PUT /api/investments/accounts/{account_id}'() {
    const url = `/api/investments/accounts/${ids.bank}`;
    expect(
      (await send('PUT', url, { json: { booking_method: 'LIFO', short_term_account_id: ids.spare } })).status,
    ).toBe(200);
    expect((await send('PUT', url, { json: { booking_method: 'LIFO', short_term_account_id: ids.food } })).status).toBe(
      400,
    );
    const nothing = `/api/investments/accounts/${crypto.randomUUID()}`;
    expect(
      (await send('PUT', nothing, { json: { booking_method: 'LIFO', short_term_account_id: ids.spare } })).status,
    ).toBe(404);
  },
  async 'POST /api/investments/trades/preview'() {
    const url = '/api/investments/trades/preview';
    expect((await send('POST', url, { json: buyVti('1') })).status).toBe(200);
    expect((await send('POST', url, { json: { ...buyVti('1'), kind: 'sell', units: '1000' } })).status).toBe(400);
    expect((await send('POST', url, { json: { ...buyVti('1'), security_id: crypto.randomUUID() } })).status).toBe(404);
  },
  async 'POST /api/investments/trades'() {
    const url = '/api/investments/trades';
    expect((await send('POST', url, { json: buyVti('1') })).status).toBe(201);
    expect((await send('POST', url, { json: { ...buyVti('1'), kind: 'sell', units: '1000' } })).status).toBe(400);
    expect((await send('POST', url, { json: { ...buyVti('1'), security_id: crypto.randomUUID() } })).status).toBe(404);
  },
  async 'GET /api/investments/holdings'() {
    expect((await send('GET', '/api/investments/holdings?as_of=2026-02-01')).status).toBe(200);
    expect((await send('GET', '/api/investments/holdings?as_of=2026-02-30')).status).toBe(400);
  },
  async 'GET /api/investments/holdings/{account_id}/{security_id}/lots'() {
    expect((await send('GET', `/api/investments/holdings/${ids.bank}/${ids.security}/lots`)).status).toBe(200);
  },
  async 'GET /api/investments/gains'() {
    expect((await send('GET', '/api/investments/gains?from=2026-01-01&to=2026-12-31')).status).toBe(200);
    expect((await send('GET', '/api/investments/gains?from=2026-12-01&to=2026-01-31')).status).toBe(400);
  },
  async 'GET /api/settings'() {
    expect((await send('GET', '/api/settings')).status).toBe(200);
  },
  async 'PUT /api/settings'() {
    expect((await send('PUT', '/api/settings', { json: { home_currency: 'EUR' } })).status).toBe(200);
    expect((await send('PUT', '/api/settings', { json: { home_currency: 'USD' } })).status).toBe(200);
  },
};
