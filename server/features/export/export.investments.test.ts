import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type Api, type TestServer } from '../../../test/support/server.ts';

/**
 * The beancount export of a book with securities (docs/investments.md "Interop"): each security is
 * declared as a commodity and each of its prices is a `price` directive, checked by the real
 * bean-check and read back by bean-query.
 */

const hasTools = ['bean-check', 'bean-query', 'hledger', 'ledger'].every(
  (tool) => spawnSync(tool, ['--version']).status === 0,
);
const inCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
const skip = !hasTools && !inCi;

async function run(tool: string, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(tool, args, {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir(), LANG: 'C.UTF-8' },
  });
  return stdout;
}

let t: TestServer;
let api: Api;
let token: string;
let dir: string;

beforeAll(async () => {
  t = await startTestServer();
  api = t.api;
  ({ token } = await registerUser(api));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-investments-'));
});

afterAll(async () => {
  await t.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skip)(
  `export of securities${skip ? ' (skipped: bean-check, bean-query, hledger or ledger not installed)' : ''}`,
  () => {
    it('when securities have trades and prices, then the exports declare them and write their prices: bean-check, hledger check --strict and ledger --pedantic pass, bean-query and hledger read each price back, and each export imports back', async () => {
      const account = async (name: string, type: string) =>
        (await api.post('/api/accounts', { name, type, currency: 'USD' }, token)).body.id as string;
      const broker = await account('Brokerage', 'ASSET');
      const equity = await account('Opening', 'EQUITY');
      const funded = await api.post(
        '/api/journal-entries',
        {
          entry_date: '2024-01-02',
          auto_post: true,
          lines: [
            { account_id: broker, direction: 'DEBIT', amount: '10000.00' },
            { account_id: equity, direction: 'CREDIT', amount: '10000.00' },
          ],
        },
        token,
      );
      expect(funded.status).toBe(201);
      const vti = await api.post('/api/securities', { symbol: 'VTI', name: 'Total market', currency: 'USD' }, token);
      const bnd = await api.post('/api/securities', { symbol: 'VXUS', name: 'World', currency: 'USD' }, token);
      expect([vti.status, bnd.status]).toEqual([201, 201]);
      const bought = await api.post(
        '/api/investments/trades',
        { kind: 'buy', date: '2024-01-05', account_id: broker, security_id: vti.body.id, units: '10', price: '210.50' },
        token,
      );
      expect(bought.status).toBe(201);
      const prices = await api.request('POST', '/api/securities/prices/import', {
        token,
        rawBody: 'date,symbol,price\n2024-02-01,VTI,250.00\n2024-02-01,VXUS,72.125\n2024-03-01,VTI,260\n',
        headers: { 'content-type': 'text/csv' },
      });
      expect(prices.status).toBe(201);

      const all = await api.get('/api/export?format=beancount', token);
      expect(all.status).toBe(200);
      expect(all.text).toContain('2024-01-02 commodity VTI\n2024-01-02 commodity VXUS\n');
      const file = path.join(dir, 'books.beancount');
      fs.writeFileSync(file, all.text);
      expect(await run('bean-check', [file])).toBe('');
      const price = async (symbol: string, date: string) =>
        (
          await run('bean-query', ['-f', 'csv', file, `SELECT getprice('${symbol}', 'USD', ${date}) AS p LIMIT 1`])
        ).split(/\r?\n/)[1];
      expect(await price('VTI', '2024-02-15')).toBe('250');
      expect(await price('VXUS', '2024-02-15')).toBe('72.125');
      expect(await price('VTI', '2024-03-02')).toBe('260');

      // a dated export writes only the prices up to its date
      const upTo = await api.get('/api/export?format=beancount&as_of=2024-02-15', token);
      expect(upTo.text).toContain('2024-02-01 price VTI 250 USD');
      expect(upTo.text).not.toContain('price VTI 260');

      // hledger: the same prices as P directives, the securities declared (check --strict passes)
      const journal = path.join(dir, 'books.journal');
      fs.writeFileSync(journal, (await api.get('/api/export?format=hledger', token)).text);
      await run('hledger', ['-f', journal, 'check', '--strict']);
      const listed = (await run('hledger', ['-f', journal, 'prices']))
        .split(/\r?\n/)
        .filter((l) => / (VTI|VXUS) /.test(l));
      // the buy's own price is a price of the security too
      expect(listed).toEqual([
        'P 2024-01-05 VTI 210.5 USD',
        'P 2024-02-01 VTI 250 USD',
        'P 2024-02-01 VXUS 72.125 USD',
        'P 2024-03-01 VTI 260 USD',
      ]);
      // ledger: the same directives, read without complaint (ledger lists only prices of held commodities)
      const ledgerText = (await api.get('/api/export?format=ledger', token)).text;
      expect(ledgerText).toContain('commodity VXUS\n');
      expect(ledgerText).toContain('P 2024-02-01 VXUS 72.125 USD\n');
      const ledgerFile = path.join(dir, 'books.ledger');
      fs.writeFileSync(ledgerFile, ledgerText);
      await run('ledger', ['--args-only', '--pedantic', '-f', ledgerFile, 'balance']);

      // each export imports back into empty books: the trades as entries at cost, the securities'
      // prices read and not imported (the investments screen imports those)
      for (const [format, text] of [
        ['beancount', all.text],
        ['hledger', fs.readFileSync(journal, 'utf8')],
        ['ledger', ledgerText],
      ] as const) {
        const other = (await registerUser(api)).token;
        const back = await api.request('POST', `/api/import/journal?format=${format}`, {
          rawBody: text,
          token: other,
          headers: { 'content-type': 'text/plain' },
        });
        expect(back.status, format).toBe(201);
        expect([back.body.entries_imported, back.body.prices_imported], format).toEqual([2, 0]);
      }
    });
  },
);
