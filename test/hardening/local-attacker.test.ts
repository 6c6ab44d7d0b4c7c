import Database from 'better-sqlite3';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOllama } from '../support/fake-ollama.ts';
import { resetPassword } from '../support/reset-password.ts';
import {
  databaseDigest,
  ledgerFile,
  registerUser,
  startTestServer,
  type ApiResponse,
  type TestServer,
} from '../support/server.ts';
import { expectErrorShape } from './support.ts';

/**
 * The attacks of a review of the running server by someone trying to break it from loopback, as
 * any local process can (issue 17), each as it was made, each refused. README "Reliability" lists
 * them with these tests' names.
 */

const DEPTH_LIMIT = /at most 16 levels below its root/;

let fake: FakeOllama;
let t: TestServer;

beforeAll(async () => {
  fake = new FakeOllama();
  await fake.start();
  t = await startTestServer({ env: { OLLAMA_HOST: fake.url } });
});
afterAll(async () => {
  await t.stop();
  await fake.stop();
});

/** A refusal in the JSON error shape of CONTRACT §3, with its status and code. */
function expectRefused(res: ApiResponse, status: number, code?: string): void {
  expectErrorShape({ ...res, contentType: res.headers.get('content-type') }, status, code);
}

function importJournal(token: string, text: string) {
  return t.api.request('POST', '/api/import/journal?format=ledger', {
    rawBody: text,
    token,
    headers: { 'content-type': 'text/plain' },
  });
}

describe('account paths and trees', () => {
  it.each([
    ['64 KB', 32_000],
    ['200 KB', 100_000],
  ])(
    'when a %s journal posts to Assets: followed by A: again and again, then it is 400 INVALID_JOURNAL naming the line and the 16-level limit, nothing changes, and another user is answered',
    async (_size, repeats) => {
      const attacker = await registerUser(t.api);
      const other = await registerUser(t.api);
      await t.api.get('/api/accounts', attacker.token);
      const before = databaseDigest(ledgerFile(t.dataDir, attacker.id));
      const text = `2024-01-01 deep\n    Assets:${'A:'.repeat(repeats)}B    1.00 USD\n    Equity:Opening\n`;
      const res = await importJournal(attacker.token, text);
      expectRefused(res, 400, 'INVALID_JOURNAL');
      expect(res.body.detail).toMatch(/^line 2: /);
      expect(res.body.detail).toMatch(DEPTH_LIMIT);
      expect(databaseDigest(ledgerFile(t.dataDir, attacker.id))).toBe(before);
      expect((await t.api.get('/api/auth/me', other.token)).status).toBe(200);
    },
  );

  it('when a 17 KB journal declares an account tree 3,001 levels deep, then it is refused naming the limit and no account is made', async () => {
    const attacker = await registerUser(t.api);
    const path = `Assets:${Array.from({ length: 3_001 }, (_, i) => `L${i}`).join(':')}`;
    const text = `account ${path}\n\n2024-01-01 deep\n    ${path}    1.00 USD\n    Equity:Opening\n`;
    expect(text.length).toBeGreaterThan(17_000);
    const res = await importJournal(attacker.token, text);
    expectRefused(res, 400, 'INVALID_JOURNAL');
    expect(res.body.detail).toMatch(/^line 1: /);
    expect(res.body.detail).toMatch(DEPTH_LIMIT);
    expect((await t.api.get('/api/accounts', attacker.token)).body.total).toBe(0);
  });

  it('when a journal builds a tree exactly 16 levels deep, then it is imported', async () => {
    const user = await registerUser(t.api);
    const path = `Assets:${Array.from({ length: 16 }, (_, i) => `L${i + 1}`).join(':')}`;
    const res = await importJournal(user.token, `2024-01-01 deep\n    ${path}    1.00 USD\n    Equity:Opening\n`);
    expect(res.status).toBe(201);
    expect(res.body.accounts_created).toBe(17);
  });

  it('when a ledger made before the limit holds an account tree 3,001 levels deep, then the balance sheet answers with every total exact, nested 17 levels at most, and the advisor answers from it', async () => {
    const user = await registerUser(t.api);
    await t.api.get('/api/accounts', user.token);
    const ids = Array.from({ length: 3_001 }, () => crypto.randomUUID());
    const db = new Database(ledgerFile(t.dataDir, user.id));
    try {
      const insert = db.prepare(
        `INSERT INTO accounts (id, name, name_key, type, currency, parent_id, created_at, updated_at)
         VALUES (?, ?, ?, 'EXPENSE', 'USD', ?, '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z')`,
      );
      db.transaction(() =>
        ids.forEach((id, i) => insert.run(id, `Level ${i + 1}`, `level ${i + 1}`, ids[i - 1] ?? null)),
      )();
    } finally {
      db.close();
    }
    const bank = (await t.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, user.token)).body.id;
    const today = new Date().toISOString().slice(0, 10);
    const posted = await t.api.post(
      '/api/journal-entries',
      {
        entry_date: today,
        memo: 'Deepest',
        auto_post: true,
        lines: [
          { account_id: ids.at(-1), direction: 'DEBIT', amount: '12.34' },
          { account_id: bank, direction: 'CREDIT', amount: '12.34' },
        ],
      },
      user.token,
    );
    expect(posted.status).toBe(201);

    const statement = await t.api.get('/api/reports/income-statement', user.token);
    expect(statement.status).toBe(200);
    const [usd] = statement.body.currencies;
    expect(usd.total_expenses).toBe('12.34');
    let node = usd.expenses[0];
    let depth = 1;
    for (; node.children.length > 0 && depth < 100; depth++) {
      expect(node.total).toBe('12.34');
      node = node.children.find((c: { total: string }) => c.total === '12.34');
    }
    expect(depth).toBe(17);
    expect(node.name).toBe('Level 3001');
    expect((await t.api.get('/api/reports/balance-sheet', user.token)).status).toBe(200);

    fake.script(
      {
        chunks: [
          { tool_calls: [{ function: { name: 'get_income_and_spending', arguments: { period: 'this_month' } } }] },
        ],
      },
      { chunks: [{ content: 'Spent 12.34 USD.' }] },
    );
    const answer = await fetch(`${t.server.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ message: 'What did I spend this month?' }),
    });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('Spent 12.34 USD.');
    const tool = fake.requests.at(-1)!.messages.find((m) => m.role === 'tool')!;
    expect(tool.content).toContain('Level 1 > Level 2');
    expect(tool.content).not.toMatch(/Maximum call stack/);
  });
});

/** A server with the contract's own rate limits (CONTRACT §8), its clock moved by the test. */
async function withContractLimits(): Promise<TestServer & { advance(ms: number): void }> {
  let clock = Date.parse('2026-03-01T09:00:00Z');
  const s = await startTestServer({ limits: {}, now: () => clock });
  return Object.assign(s, { advance: (ms: number) => void (clock += ms) });
}

const login = (s: TestServer, email: string, password: string) => s.api.post('/api/auth/login', { email, password });

describe('password guessing and the way back in', () => {
  it('when an attacker makes 4 wrong guesses on one account, logs in to their own, and repeats six times, then the guesses meet 429 from the 6th on', async () => {
    const s = await withContractLimits();
    try {
      const victim = await registerUser(s.api);
      const attacker = await registerUser(s.api);
      const guesses: number[] = [];
      for (let round = 0; round < 6; round += 1) {
        for (let i = 0; i < 4; i += 1) guesses.push((await login(s, victim.email, `guess ${round}.${i}`)).status);
        expect((await login(s, attacker.email, 'correct horse battery')).status).toBe(200);
      }
      expect(guesses.filter((status) => status === 401)).toHaveLength(5);
      expect(guesses.filter((status) => status === 429)).toHaveLength(19);
    } finally {
      await s.stop();
    }
  });

  it('when another local process locks the owner out with 5 bad logins, then the owner gets the wait in words and what to do, runs the reset command, and signs in at once', async () => {
    const s = await withContractLimits();
    try {
      const owner = await registerUser(s.api);
      for (let i = 0; i < 5; i += 1) expect((await login(s, owner.email, `bad ${i}`)).status).toBe(401);
      const locked = await login(s, owner.email, 'correct horse battery');
      expectRefused(locked, 429, 'RATE_LIMITED');
      expect(locked.body.detail).toMatch(/^Too many attempts: try again in 15 minutes\..*reset-password/);
      const reset = await resetPassword(s.dataDir, [owner.email], 'the owner is back\n');
      expect(reset.code).toBe(0);
      s.advance(60_000); // still inside the lock-out's window
      expect((await login(s, owner.email, 'the owner is back')).status).toBe(200);
      expect((await s.api.get('/api/accounts', owner.token)).status).toBe(401); // the sessions from before ended
    } finally {
      await s.stop();
    }
  });

  it('when a local process uses up the address’s 20 failures on other emails, then every login is 429, and the owner’s reset lets the owner in again', async () => {
    const s = await withContractLimits();
    try {
      const owner = await registerUser(s.api);
      for (let i = 0; i < 20; i += 1) expect((await login(s, `nobody${i}@example.com`, 'guess')).status).toBe(401);
      expectRefused(await login(s, owner.email, 'correct horse battery'), 429, 'RATE_LIMITED');
      expect((await resetPassword(s.dataDir, [owner.email], 'the owner is back\n')).code).toBe(0);
      expect((await login(s, owner.email, 'the owner is back')).status).toBe(200);
      expectRefused(await login(s, 'nobody0@example.com', 'guess'), 429, 'RATE_LIMITED');
    } finally {
      await s.stop();
    }
  });

  it('when registrations keep coming from one address, then the 4th in an hour is 429 though the first three succeeded', async () => {
    const s = await withContractLimits();
    try {
      for (let i = 0; i < 3; i += 1) await registerUser(s.api);
      const fourth = await s.api.post('/api/auth/register', {
        email: 'fourth@example.com',
        name: 'Fourth',
        password: 'correct horse battery',
      });
      expectRefused(fourth, 429, 'RATE_LIMITED');
    } finally {
      await s.stop();
    }
  });
});

describe('stolen tokens', () => {
  it('when a token is stolen and its owner logs out, then the stolen token and every token refreshed from it are 401, and /me gives it no new one', async () => {
    const owner = await registerUser(t.api);
    const stolen = owner.token;
    const refreshedByThief = (await t.api.get('/api/auth/me', stolen)).body.access_token;
    expect((await t.api.request('POST', '/api/auth/logout', { token: stolen })).status).toBe(204);
    for (const token of [stolen, refreshedByThief]) {
      expect((await t.api.get('/api/auth/me', token)).status).toBe(401);
      expect((await t.api.get('/api/accounts', token)).status).toBe(401);
    }
  });

  it('when the owner changes the password, then every token issued before, the thief’s too, is 401', async () => {
    const owner = await registerUser(t.api);
    const thief = (await t.api.post('/api/auth/login', { email: owner.email, password: 'correct horse battery' })).body
      .access_token;
    const changed = await t.api.post(
      '/api/auth/password',
      { current_password: 'correct horse battery', new_password: 'only the owner knows' },
      owner.token,
    );
    expect(changed.status).toBe(200);
    expect((await t.api.get('/api/accounts', thief)).status).toBe(401);
    expect((await t.api.get('/api/accounts', owner.token)).status).toBe(401);
    expect((await t.api.get('/api/accounts', changed.body.access_token)).status).toBe(200);
  });
});

/** The descriptors this process holds open on files in `dir` (Linux: /proc/self/fd). */
function openFilesIn(dir: string): number {
  let count = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir)) count += 1;
    } catch {
      // the descriptor closed while being looked at
    }
  }
  return count;
}

describe('file handles', () => {
  it('when many users register and use their ledgers, then at most the bound of ledgers stays open, / and backups answer, and every ledger is read again when asked', async () => {
    const s = await startTestServer({ ledgers: { maxOpen: 4 }, rendererDir: null });
    try {
      const users = [];
      for (let i = 0; i < 30; i += 1) {
        const user = await registerUser(s.api);
        const made = await s.api.post('/api/accounts', { name: `Wallet ${i}`, type: 'ASSET' }, user.token);
        expect(made.status).toBe(201);
        users.push(user);
      }
      const ledgers = path.join(s.dataDir, 'ledgers');
      // Per open ledger: the file, its WAL and shared memory, and the file once more when the job
      // worker's connection closed while the server's held it (SQLite closes that descriptor only
      // with the file's last connection). At most 4 ledgers; the old cache kept all 30 (~90).
      const bound = 4 * 4;
      expect(openFilesIn(ledgers)).toBeLessThanOrEqual(bound);
      expect((await s.api.get('/')).status).toBe(200);
      for (const [i, user] of users.entries()) {
        expect((await s.api.post('/api/backup', {}, user.token)).status).toBe(201);
        const accounts = await s.api.get('/api/accounts', user.token);
        expect(accounts.body.items.map((a: { name: string }) => a.name)).toEqual([`Wallet ${i}`]);
      }
      expect(openFilesIn(ledgers)).toBeLessThanOrEqual(bound);
    } finally {
      await s.stop();
    }
  });
});

describe('one user’s heavy file', () => {
  it('when a user imports an 18 MiB camt.053 of empty entries, then it is refused naming the entry limit, and another user’s import meanwhile goes through', async () => {
    const heavy = await registerUser(t.api);
    const other = await registerUser(t.api);
    const heavyBank = (await t.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, heavy.token)).body.id;
    const otherBank = (await t.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, other.token)).body.id;
    const empty = '<Ntry></Ntry>';
    const camt =
      '<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>' +
      '<Acct><Id><IBAN>DE00000000000000000000</IBAN></Id></Acct>' +
      empty.repeat(Math.floor((18 * 1024 * 1024) / empty.length)) +
      '</Stmt></BkToCstmrStmt></Document>';
    const before = databaseDigest(ledgerFile(t.dataDir, heavy.id));
    const [refused, imported] = await Promise.all([
      t.api.request('POST', `/api/statements/import?account_id=${heavyBank}&format=camt053`, {
        rawBody: camt,
        token: heavy.token,
        headers: { 'content-type': 'application/xml' },
      }),
      t.api.post(
        '/api/statements',
        {
          account_id: otherBank,
          transactions: Array.from({ length: 2_000 }, (_, i) => ({
            date: '2026-01-05',
            description: `Shop ${i}`,
            amount: '1.00',
            type: 'debit',
          })),
        },
        other.token,
      ),
    ]);
    expectRefused(refused, 400, 'INVALID_STATEMENT_FILE');
    expect(refused.body.detail).toMatch(/^line 1: more than 100000 entries$/);
    expect(databaseDigest(ledgerFile(t.dataDir, heavy.id))).toBe(before);
    expect(imported.status).toBe(201);
  });
});
