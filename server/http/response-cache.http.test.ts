import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerFile, registerUser, startTestServer, type TestServer } from '../../test/support/server.ts';

/** Kept answers of pure reads are given again only while the ledger is unchanged, whoever changes it. */

let t: TestServer;
let token: string;
let userId: string;
let bank: string;
let food: string;

beforeAll(async () => {
  t = await startTestServer();
  const user = await registerUser(t.api);
  token = user.token;
  userId = user.id;
  bank = (await t.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, token)).body.id;
  food = (await t.api.post('/api/accounts', { name: 'Food', type: 'EXPENSE' }, token)).body.id;
});
afterAll(() => t.stop());

const spend = (amount: string) => ({
  entry_date: '2026-01-10',
  auto_post: true,
  lines: [
    { account_id: food, direction: 'DEBIT', amount },
    { account_id: bank, direction: 'CREDIT', amount },
  ],
});

describe('kept answers of pure reads', () => {
  it('when the same read is asked twice with nothing written, then the answers are identical, headers included', async () => {
    const first = await t.api.get(`/api/accounts/${bank}/balance?as_of=2026-01-31`, token);
    const second = await t.api.get(`/api/accounts/${bank}/balance?as_of=2026-01-31`, token);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(second.headers.get('cache-control')).toBe('no-store');
  });

  it('when a kept answer is asked with HEAD, then it has the GET headers and no body', async () => {
    const get = await t.api.get(`/api/accounts/${bank}/balance?as_of=2026-01-30`, token);
    const head = await t.api.request('HEAD', `/api/accounts/${bank}/balance?as_of=2026-01-30`, { token });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)));
  });

  it('when an entry is posted through the API between two reads, then the second read shows it', async () => {
    const before = await t.api.get('/api/accounts/balances?as_of=2026-01-31', token);
    const page = await t.api.get(`/api/journal-entries?account_id=${bank}`, token);
    expect((await t.api.post('/api/journal-entries', spend('12.50'), token)).status).toBe(201);
    const after = await t.api.get('/api/accounts/balances?as_of=2026-01-31', token);
    const balance = (body: { balances: { account_id: string; balance: string }[] }) =>
      body.balances.find((b) => b.account_id === bank)!.balance;
    expect(Number(balance(after.body)) - Number(balance(before.body))).toBeCloseTo(-12.5);
    expect((await t.api.get(`/api/journal-entries?account_id=${bank}`, token)).body.total).toBe(page.body.total + 1);
  });

  it('when the ledger file is changed by another connection between two reads, then the second read shows it', async () => {
    const before = await t.api.get(`/api/accounts/${bank}`, token);
    expect(before.body.name).toBe('Bank');
    const other = new Database(ledgerFile(t.dataDir, userId));
    other.prepare("UPDATE accounts SET description = 'changed elsewhere' WHERE id = ?").run(bank);
    other.close();
    expect((await t.api.get(`/api/accounts/${bank}`, token)).body.description).toBe('changed elsewhere');
  });

  it('when another user asks the same URL, then they get the answer of their own ledger', async () => {
    const other = await registerUser(t.api);
    const mine = await t.api.get('/api/accounts/balances?as_of=2026-01-31', token);
    const theirs = await t.api.get('/api/accounts/balances?as_of=2026-01-31', other.token);
    expect(mine.body.balances.length).toBeGreaterThan(0);
    expect(theirs.body.balances).toEqual([]);
  });
});
