import Database from 'better-sqlite3';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOllama } from '../support/fake-ollama.ts';
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
