import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTypes, CLIENT_TYPES, servedDocument } from '../scripts/generate-client.ts';
import { registerUser, startTestServer, type TestServer } from './support/server.ts';

/**
 * The typed client for scripts (client/) and the worked examples built on it (docs/examples/),
 * each run as a user runs it: `node docs/examples/<example>.ts` in a process of its own, against a
 * real server on loopback over a real ledger file, its results read back over the API and, for
 * the export, by hledger.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
let t: TestServer;
let token = '';
const ids: Record<string, string> = {};
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-examples-'));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `node docs/examples/<name>.ts ...args` with the server's URL and the user's token in its environment. */
async function example(name: string, ...args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [path.join(ROOT, 'docs', 'examples', `${name}.ts`), ...args],
      {
        cwd: dir,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: dir, LEDGER_URL: t.server.url, LEDGER_TOKEN: token },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** An account's balance in minor units (cents), exactly. */
async function balanceOf(account: string): Promise<bigint> {
  const res = await t.api.get(`/api/accounts/${ids[account]}/balance?as_of=2026-12-31`, token);
  return cents(res.body.balance as string);
}

function cents(amount: string): bigint {
  const [whole, fraction = ''] = amount.replace(/,/g, '').split('.');
  const sign = whole!.startsWith('-') ? -1n : 1n;
  return sign * (BigInt(whole!.replace('-', '')) * 100n + BigInt(fraction.padEnd(2, '0')));
}

async function entryCount(): Promise<number> {
  return (await t.api.get('/api/journal-entries?per_page=1', token)).body.total as number;
}

beforeAll(async () => {
  t = await startTestServer();
  token = (await registerUser(t.api)).token;
  for (const [name, type] of [
    ['Checking', 'ASSET'],
    ['Opening balances', 'EQUITY'],
    ['Salary', 'INCOME'],
    ['Rent', 'EXPENSE'],
    ['Groceries', 'EXPENSE'],
  ] as const)
    ids[name] = (await t.api.post('/api/accounts', { name, type }, token)).body.id;
});

afterAll(async () => {
  await t?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the typed client', () => {
  it("when the client's types are generated from the document a server of these sources serves, then they are client/generated/openapi.ts as built", async () => {
    const fresh = await clientTypes(await servedDocument());
    expect(fs.readFileSync(CLIENT_TYPES, 'utf8'), 'client/generated/openapi.ts is stale: run npm run build').toBe(
      fresh,
    );
  });
});

describe('docs/examples, run against a real server', () => {
  it('when post-month posts a month of entries from a CSV file, then every row is a posted entry and the balances are its sums', async () => {
    const rows = [
      'date,description,amount,debit,credit',
      '2026-03-01,Opening balance,2500.00,Checking,Opening balances',
    ];
    rows.push('2026-03-01,Rent March,1200.00,Rent,Checking', '2026-03-25,Salary March,3100.55,Checking,Salary');
    let groceries = 0n;
    for (let day = 2; day <= 28; day++) {
      const amount = `${10 + day}.${String(day * 3).padStart(2, '0')}`;
      groceries += cents(amount);
      rows.push(`2026-03-${String(day).padStart(2, '0')},"Market, day ${day}",${amount},Groceries,Checking`);
    }
    fs.writeFileSync(path.join(dir, 'march.csv'), rows.join('\n') + '\n');
    const before = await entryCount();
    const run = await example('post-month', 'march.csv');
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toBe(`Posted ${rows.length - 1} entries, 2026-03-01 to 2026-03-28\n`);
    expect(await entryCount()).toBe(before + rows.length - 1);
    expect(await balanceOf('Groceries')).toBe(groceries);
    expect(await balanceOf('Checking')).toBe(250000n - 120000n + 310055n - groceries);
  });

  it('when a row of the month is refused, then nothing is posted and the file line of each refused row is named', async () => {
    const rows = [
      'date,description,amount,debit,credit',
      '2026-04-01,Rent April,1200.00,Rent,Checking',
      '2026-04-02,Market,12.345,Groceries,Checking',
      '2026-04-03,Market,8.00,Groceries,Checking',
      '2026-04-04,Market,9.999,Groceries,Checking',
    ];
    fs.writeFileSync(path.join(dir, 'april.csv'), rows.join('\n') + '\n');
    const before = await entryCount();
    const run = await example('post-month', 'april.csv');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Nothing was posted: /);
    expect(run.stderr).toContain('april.csv:3 lines.0.amount: ');
    expect(run.stderr).toContain('april.csv:5 lines.0.amount: ');
    expect(await entryCount()).toBe(before);
  });

  it('when import-statement imports a bank statement, then the rows the books lack are booked, the one they have is matched, and the balance sheet printed is the API’s', async () => {
    const statement = [
      'Date,Description,Amount',
      '2026-03-01,Rent March,-1200.00',
      '2026-03-29,COFFEE HOUSE 114,-4.50',
      '2026-03-30,BAKERY 22,-3.20',
    ];
    fs.writeFileSync(path.join(dir, 'statement.csv'), statement.join('\n') + '\n');
    const checking = await balanceOf('Checking');
    const groceries = await balanceOf('Groceries');
    const run = await example('import-statement', 'statement.csv', 'Checking', 'Groceries');
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain('Imported 3 rows (0 already there)\n');
    expect(run.stdout).toContain('Booked 2 entries against Groceries\n');
    expect(await balanceOf('Groceries')).toBe(groceries + 450n + 320n);
    expect(await balanceOf('Checking')).toBe(checking - 450n - 320n);
    const sheet = (await t.api.get('/api/reports/balance-sheet', token)).body;
    const usd = sheet.currencies.find((c: { currency: string }) => c.currency === 'USD');
    expect(run.stdout).toMatch(new RegExp(`\\nNet worth +${usd.net_worth.replace('.', '\\.')}\\n`));
    expect(run.stdout).toMatch(new RegExp(`\\n  Checking +${usd.assets[0].total.replace('.', '\\.')}\\n`));

    const again = await example('import-statement', 'statement.csv', 'Checking', 'Groceries');
    expect(again.stdout).toContain('Imported 0 rows (3 already there)\nBooked 0 entries against Groceries\n');
    expect(await balanceOf('Groceries')).toBe(groceries + 450n + 320n);
  });

  it("when export-hledger writes the books, then hledger reads them and reports the API's balance of every account", async () => {
    const run = await example('export-hledger', 'books.journal');
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toBe(`Wrote books.journal: ${await entryCount()} transactions\n`);
    const { stdout } = await promisify(execFile)(
      'hledger',
      ['-f', path.join(dir, 'books.journal'), 'balance', '--flat', '-O', 'csv', '--layout=tidy'],
      { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: dir, LANG: 'C.UTF-8' } },
    );
    const hledger = new Map<string, bigint>();
    for (const line of stdout.trim().split('\n').slice(1)) {
      const [account, , , , , value] = [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!);
      if (account !== 'total') hledger.set(account!.split(':').at(-1)!, cents(value!));
    }
    // hledger signs credits negative; the API signs each account in its normal direction
    const credit = new Set(['Opening balances', 'Salary']);
    for (const name of Object.keys(ids)) {
      const api = await balanceOf(name);
      expect(hledger.get(name) ?? 0n, name).toBe(credit.has(name) ? -api : api);
    }
  });
});
