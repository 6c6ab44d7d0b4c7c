import crypto from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOllama } from '../support/fake-ollama.ts';
import {
  expectErrorShape,
  killServer,
  recordResults,
  send,
  signUpWithAccounts,
  spawnServer,
  tempDir,
  type Answer,
  type ChildServer,
} from './support.ts';

/**
 * Issue 32: six requests that any local account could send stalled or killed the server for every
 * user. Each is sent here to the real server process, as it was found, while another user (the
 * victim) reads one request after another: the attack is refused or answered within its limit, the
 * victim keeps being answered, and the process lives on. Where the attack's work runs off the
 * server's thread, the victim's answers while it runs are counted (no read would be answered
 * between its start and its end on the server's thread); where it is refused or bounded, what the
 * server did is read from the answer.
 */

let fake: FakeOllama;
let server: ChildServer;
let url = '';
let dataDir = '';
const victim = { token: '' };
const attacker = { token: '', userId: '', accounts: {} as Record<string, string> };
const figures: Record<string, number> = {};

const auth = (token: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...extra });
const get = (token: string, route: string) => send(`${url}${route}`, { headers: auth(token) });
const sendJson = (token: string, method: string, route: string, body: unknown) =>
  send(`${url}${route}`, {
    method,
    headers: auth(token, { 'content-type': 'application/json' }),
    body: JSON.stringify(body),
  });
const sendText = (token: string, route: string, text: string, contentType = 'text/plain') =>
  send(`${url}${route}`, { method: 'POST', headers: auth(token, { 'content-type': contentType }), body: text });

/**
 * Runs `attack` while the victim reads its accounts one request after another, until the attack is
 * answered: the attack's answer and how many of the victim's reads were answered meanwhile.
 */
async function whileVictimReads<T>(attack: () => Promise<T>): Promise<{ result: T; victimAnswers: number }> {
  let done = false;
  const running = attack().finally(() => (done = true));
  let victimAnswers = 0;
  while (!done) {
    const res = await get(victim.token, '/api/accounts');
    expect(res.status).toBe(200);
    victimAnswers += 1;
  }
  return { result: await running, victimAnswers };
}

/** The server process is alive and answers the victim. */
async function expectServerAnswers(): Promise<void> {
  expect(server.child.exitCode, server.stderr()).toBeNull();
  expect((await get(victim.token, '/api/auth/me')).status).toBe(200);
}

function refused(res: Answer, status: number, code: string): void {
  expectErrorShape(res, status, code);
}

beforeAll(async () => {
  fake = new FakeOllama();
  await fake.start();
  dataDir = tempDir('one-request');
  server = await spawnServer(dataDir, { OLLAMA_HOST: fake.url });
  url = server.url;
  Object.assign(victim, await signUpWithAccounts(url, { email: 'victim@example.com', name: 'Victim' }, []));
  Object.assign(
    attacker,
    await signUpWithAccounts(url, { email: 'attacker@example.com', name: 'Attacker' }, [
      ['Bank', 'ASSET'],
      ['Shopping', 'EXPENSE'],
      ...Array.from({ length: 40 }, (_, i) => [`Budgeted ${i}`, 'EXPENSE'] as const),
    ]),
  );
});

afterAll(async () => {
  await recordResults('one_request', figures);
  await killServer(server);
  await fake.stop();
});

describe('1. reports ending far in the future', () => {
  it.each(['net-worth', 'cash-flow'])(
    'when the %s report is asked for 9999-12-31 by day, then it is 400 naming the dates the ledger keeps, and the victim is answered',
    async (report) => {
      const { result, victimAnswers } = await whileVictimReads(() =>
        get(attacker.token, `/api/reports/${report}?start_date=9999-12-31&end_date=9999-12-31&interval=day`),
      );
      refused(result, 400, 'VALIDATION_ERROR');
      expect(result.body.detail).toMatch(/must be a date from 1900-01-01 to 2199-12-31/);
      figures[`${report}_9999_victim_answers`] = victimAnswers;
      await expectServerAnswers();
    },
  );

  it('when the whole range the ledger keeps is asked for by day, then it is 400 naming the 5000-period limit, and by month the answer holds its 3,600 periods', async () => {
    const byDay = await get(
      attacker.token,
      '/api/reports/net-worth?start_date=1900-01-01&end_date=2199-12-31&interval=day',
    );
    refused(byDay, 400, 'VALIDATION_ERROR');
    expect(byDay.body.detail).toMatch(/more than 5000 days/);
    const byMonth = await get(
      attacker.token,
      '/api/reports/cash-flow?start_date=1900-01-01&end_date=2199-12-31&interval=month',
    );
    expect(byMonth.status).toBe(200);
    expect(byMonth.body.end_date).toBe('2199-12-31');
    await expectServerAnswers();
  });
});

describe('2. budget against actual for 9999-12', () => {
  it('when 40 budget lines are put on 9999-12 and its report is asked, then both are 400 naming the months the ledger keeps; on its last month, 2199-12, both are answered', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => ({
      account_id: attacker.accounts[`Budgeted ${i}`],
      amount: '10.00',
      carry_over: true,
    }));
    const put = await sendJson(attacker.token, 'PUT', '/api/budgets/9999-12', { lines });
    refused(put, 400, 'VALIDATION_ERROR');
    expect(put.body.detail).toMatch(/month YYYY-MM from 1900-01 to 2199-12/);
    for (const query of ['month=9999-12', 'year=9999']) {
      const report = await get(attacker.token, `/api/reports/budget-vs-actual?${query}`);
      refused(report, 400, 'VALIDATION_ERROR');
    }
    expect((await sendJson(attacker.token, 'PUT', '/api/budgets/2199-12', { lines })).status).toBe(200);
    const report = await get(attacker.token, '/api/reports/budget-vs-actual?month=2199-12');
    expect(report.status).toBe(200);
    expect(report.body.rows).toHaveLength(40);
    expect(report.body.rows.every((r: { months: unknown[] }) => r.months.length === 1)).toBe(true);
    await expectServerAnswers();
  });
});

describe('3. a costly regex rule', () => {
  const REVIEW_PATTERN = `${'(.?){1000}'.repeat(45)}Z`;
  let bank = '';

  beforeAll(async () => {
    bank = attacker.accounts.Bank!;
    const statement = await sendJson(attacker.token, 'POST', '/api/statements', {
      account_id: bank,
      transactions: Array.from({ length: 20 }, (_, i) => ({
        date: '2026-01-05',
        description: `SHOP ${i} ZED`,
        amount: '1.00',
        type: 'debit',
      })),
    });
    expect(statement.status).toBe(201);
  });

  it('when the review’s rule is created, then it is 400 naming its cost, and no rule is stored', async () => {
    const res = await sendJson(attacker.token, 'POST', '/api/rules', {
      name: 'costly',
      description: { op: 'regex', value: REVIEW_PATTERN },
      account_id: attacker.accounts.Shopping,
    });
    refused(res, 400, 'VALIDATION_ERROR');
    expect(res.body.errors).toEqual([
      { field: 'description.value', message: 'is too costly to match: its repeats add up to 45000, more than 500' },
    ]);
    expect((await get(attacker.token, '/api/rules')).body.total).toBe(0);
  });

  describe('stored before the limits', () => {
    beforeAll(() => {
      // a ledger written before the limits: 100 such rules, each ~37 MB compiled
      const db = new Database(path.join(dataDir, 'ledgers', `${attacker.userId}.sqlite`));
      try {
        const insert = db.prepare(
          `INSERT INTO rules (id, seq, name, description_op, description_value, account_id, priority, created_at, updated_at)
           VALUES (?, ?, ?, 'regex', ?, ?, 0, '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z')`,
        );
        db.transaction(() => {
          for (let i = 0; i < 100; i++)
            insert.run(crypto.randomUUID(), i + 1, `costly ${i}`, REVIEW_PATTERN, attacker.accounts.Shopping);
        })();
      } finally {
        db.close();
      }
    });

    it('when the unmatched list is read, then it is answered with no suggestion from those rules (none is compiled on the server’s thread), and the victim is answered', async () => {
      const { result } = await whileVictimReads(() =>
        get(attacker.token, '/api/reconciliation/unmatched?type=bank_transaction&per_page=100'),
      );
      expect(result.status).toBe(200);
      expect(result.body.items).toHaveLength(20);
      const ruleSuggestions = result.body.items.flatMap((item: { suggested_accounts: { rule_id: string | null }[] }) =>
        item.suggested_accounts.filter((s) => s.rule_id !== null),
      );
      expect(ruleSuggestions).toEqual([]);
      await expectServerAnswers();
    });

    it('when a 3 KB CSV is previewed, then it is answered with no row booked by those rules (none is compiled), and the victim is answered', async () => {
      const rows = Array.from(
        { length: 60 },
        (_, i) => `2026-02-${String((i % 28) + 1).padStart(2, '0')},SHOP ${i} ZED ${'X'.repeat(20)},-1.00`,
      );
      const csv = `Date,Description,Amount\n${rows.join('\n')}\n`;
      expect(csv.length).toBeGreaterThan(3_000);
      const { result } = await whileVictimReads(() =>
        sendText(attacker.token, `/api/statements/import?account_id=${bank}&format=csv&dry_run=true`, csv, 'text/csv'),
      );
      expect(result.status, result.text.slice(0, 300)).toBe(200);
      expect(result.body.rule_matched_count).toBe(0);
      await expectServerAnswers();
    });
  });
});

describe('4. accounts per ledger', () => {
  let other = { token: '', userId: '' };

  beforeAll(async () => {
    other = await signUpWithAccounts(url, { email: 'other@example.com', name: 'Other' }, []);
  });

  it('when a 3.9 MB journal declares 320,000 accounts, then it is 400 naming the 10,000-account limit, no account is made, and the victim is answered', async () => {
    const text = Array.from({ length: 320_000 }, (_, i) => `account Expenses:A${i}\n`).join('');
    expect(text.length).toBeGreaterThan(3_900_000);
    const { result, victimAnswers } = await whileVictimReads(() =>
      sendText(other.token, '/api/import/journal?format=ledger', text),
    );
    refused(result, 400, 'INVALID_JOURNAL');
    expect(result.body.detail).toMatch(/^line 10001: a ledger holds at most 10000 accounts/);
    figures.accounts_journal_victim_answers = victimAnswers;
    expect((await get(other.token, '/api/accounts')).body.total).toBe(0);
    await expectServerAnswers();
  });

  it('when a ledger holds 10,000 accounts, then creating one more is 400 naming the limit, and its balance sheet is answered', async () => {
    const db = new Database(path.join(dataDir, 'ledgers', `${other.userId}.sqlite`));
    try {
      const insert = db.prepare(
        `INSERT INTO accounts (id, name, name_key, type, currency, parent_id, created_at, updated_at)
         VALUES (?, ?, ?, 'EXPENSE', 'USD', NULL, '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z')`,
      );
      db.transaction(() => {
        for (let i = 0; i < 9_999; i++) insert.run(crypto.randomUUID(), `Made ${i}`, `made ${i}`);
      })();
    } finally {
      db.close();
    }
    expect((await sendJson(other.token, 'POST', '/api/accounts', { name: 'Last', type: 'ASSET' })).status).toBe(201);
    const more = await sendJson(other.token, 'POST', '/api/accounts', { name: 'One more', type: 'ASSET' });
    refused(more, 400, 'VALIDATION_ERROR');
    expect(more.body.detail).toBe('A ledger holds at most 10000 accounts');
    expect((await get(other.token, '/api/reports/balance-sheet?as_of=2026-01-31')).status).toBe(200);
    await expectServerAnswers();
  });
});

describe('5. tool calls of one model turn', () => {
  it('when the model answers with 2,000 tool calls, then 8 are run, the answer ends, and the victim is answered', async () => {
    const call = { function: { name: 'get_recent_entries', arguments: {} } };
    fake.script({ chunks: [{ tool_calls: new Array(2_000).fill(call) }] }, { chunks: [{ content: 'Nothing new.' }] });
    const before = fake.requests.length;
    const { result } = await whileVictimReads(() =>
      sendJson(attacker.token, 'POST', '/api/chat', { message: 'What is new?' }),
    );
    expect(result.status).toBe(200);
    expect(result.text).toMatch(/^Nothing new\./);
    const second = fake.requests[before + 1]!;
    expect(second.messages.filter((m) => m.role === 'tool')).toHaveLength(8);
    await expectServerAnswers();
  });
});

describe('6. the job worker’s memory', () => {
  it('when a 12 MB journal of 60,000 paths 16 levels deep is imported, then it is refused with a 4xx while the victim is answered all along, and the server lives', async () => {
    const text = Array.from({ length: 60_000 }, (_, i) => {
      const path = Array.from({ length: 15 }, (_, level) => `N${level}x${i}`).join(':');
      return `2024-01-01 t${i}\n    Assets:${path}    1.00 USD\n    Equity:Opening\n\n`;
    }).join('');
    expect(text.length).toBeGreaterThan(11_000_000);
    const { result, victimAnswers } = await whileVictimReads(() =>
      sendText(attacker.token, '/api/import/journal?format=ledger', text),
    );
    expect(result.status, result.text.slice(0, 300)).toBeGreaterThanOrEqual(400);
    expect(result.status).toBeLessThan(500);
    expectErrorShape(result);
    figures.journal_12mb_victim_answers = victimAnswers;
    // the import runs on the job worker: reads go on meanwhile
    expect(victimAnswers).toBeGreaterThan(20);
    await expectServerAnswers();
  });
});
