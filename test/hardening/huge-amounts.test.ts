import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseDigest, ledgerFile, registerUser, startTestServer, type TestServer } from '../support/server.ts';
import { checkLedgerFile, errorShapeProblems, rawHttp } from './support.ts';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

describe('huge amounts', () => {
  it('when entries of the largest amounts are posted until an account total would pass 2^62 minor units, then that posting is 400 VALIDATION_ERROR and changes nothing, and balances and reports still answer', async () => {
    const user = await registerUser(t.api, 'Big spender');
    const account = async (name: string, type: string) =>
      (await t.api.post('/api/accounts', { name, type, currency: 'KWD' }, user.token)).body.id as string;
    const [bank, food] = [await account('Vault', 'ASSET'), await account('Caviar', 'EXPENSE')];
    // 500 debit and 500 credit lines of 999,999,999,999.999 KWD: 5 × 10^17 minor units per account and entry.
    const lines = Array.from({ length: 1000 }, (_, i) => ({
      account_id: i % 2 ? bank : food,
      direction: i % 2 ? 'CREDIT' : 'DEBIT',
      amount: '999999999999.999',
    }));
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const before = databaseDigest(ledgerFile(t.dataDir, user.id));
      const res = await rawHttp(t.server.port, {
        method: 'POST',
        path: '/api/journal-entries',
        headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ entry_date: `2026-0${1 + (i % 9)}-01`, auto_post: true, lines }),
      });
      statuses.push(res.status);
      expect(res.status, res.text).toBeLessThan(500);
      if (res.status !== 201) {
        expect(errorShapeProblems(res)).toEqual([]);
        expect(res.body.code).toBe('VALIDATION_ERROR');
        expect(databaseDigest(ledgerFile(t.dataDir, user.id))).toBe(before);
      }
    }
    // 2^62 / (5 × 10^17) = 9.2: nine postings fit, the tenth and later are refused.
    expect(statuses).toEqual([...Array(9).fill(201), 400, 400, 400]);
    for (const p of [
      '/api/accounts/balances',
      '/api/reports/trial-balance',
      '/api/reports/balance-sheet',
      '/api/reports/income-statement',
      '/api/reports/cash-flow',
      '/api/reports/net-worth',
      '/api/reports/income-expenses',
    ]) {
      const res = await t.api.get(
        `${p}${p.includes('reports/') && !p.includes('trial') && !p.includes('balance-sheet') ? '?start_date=2026-01-01&end_date=2026-12-31' : '?as_of=2026-12-31'}`,
        user.token,
      );
      expect(res.status, `${p}: ${res.text.slice(0, 200)}`).toBe(200);
    }
    const trial = (await t.api.get('/api/reports/trial-balance?as_of=2026-12-31', user.token)).body;
    expect(trial.currencies[0].total_debit).toBe('4499999999999995.500');
    expect(trial.currencies[0].total_debit).toBe(trial.currencies[0].total_credit);
    expect(checkLedgerFile(ledgerFile(t.dataDir, user.id)).problems).toEqual([]);
  });
});
