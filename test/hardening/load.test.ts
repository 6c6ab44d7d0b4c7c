import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkLedgerFile,
  HANG_MS,
  killServer,
  PASSWORD,
  recordResults,
  send,
  spawnServer,
  tempDir,
  type ChildServer,
} from './support.ts';

/**
 * A bounded load test on loopback: the real server (as `npm run serve` starts it) in a child process,
 * autocannon in this one, a fixed number of requests mixing reads and writes across several
 * users. LOAD_REQUESTS changes the number (5,000 in CI).
 */
const REQUESTS = Number(process.env.LOAD_REQUESTS ?? 5000);

/** The part of autocannon this test uses (it ships no types; bench/ declares its own subset). */
interface CannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | undefined;
}
interface CannonOptions {
  url: string;
  amount: number;
  connections: number;
  timeout: number;
  requests: {
    setupRequest: (request: CannonRequest, context: Record<string, unknown>) => CannonRequest;
    onResponse: (status: number, body: string, context: Record<string, unknown>) => void;
  }[];
}
interface CannonResult {
  latency: { p50: number; p90: number; p99: number; max: number; mean: number };
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
}
const loadAutocannon = async () =>
  ((await import('autocannon' as string)) as { default: (options: CannonOptions) => Promise<CannonResult> }).default;
const CONNECTIONS = 8;
const USERS = 4;

let server: ChildServer | undefined;
const dataDir = tempDir('load');
afterAll(async () => {
  if (server) await killServer(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface User {
  id: string;
  token: string;
  bank: string;
  food: string;
  salary: string;
}

describe('load', () => {
  it(`when ${REQUESTS} requests mixing reads and writes of ${USERS} users arrive over ${CONNECTIONS} connections, then every one is a 2xx and the ledgers stay exact`, async () => {
    // Each user registers from an address of their own (TRUST_PROXY): 3 registrations an hour per address.
    server = await spawnServer(dataDir, { TRUST_PROXY: 'true' });
    const url = server.url;
    const json = (token: string, body: unknown) => ({
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const users: User[] = [];
    for (let i = 0; i < USERS; i++) {
      const reg = await send(`${url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i + 1}` },
        body: JSON.stringify({ email: `load${i}@example.com`, name: `Load ${i}`, password: PASSWORD }),
      });
      expect(reg.status, reg.text).toBe(201);
      const token = reg.body.access_token as string;
      const account = async (name: string, type: string) =>
        (await send(`${url}/api/accounts`, json(token, { name, type }))).body.id as string;
      users.push({
        id: reg.body.id,
        token,
        bank: await account('Bank', 'ASSET'),
        food: await account('Food', 'EXPENSE'),
        salary: await account('Salary', 'INCOME'),
      });
    }

    // The mix: 60 % reads (balances, reports, a page of entries, one balance), 40 % writes (posted entries, statement imports).
    const kinds = [
      'balances',
      'trial',
      'entries',
      'post',
      'post',
      'balance',
      'income',
      'post',
      'import',
      'entries',
    ] as const;
    let n = 0;
    const answered: Record<string, Record<number, number>> = {};
    const written = new Map<string, { entries: number; bankRows: number }>(
      users.map((u) => [u.id, { entries: 0, bankRows: 0 }]),
    );
    const autocannon = await loadAutocannon();
    const result = await autocannon({
      url,
      amount: REQUESTS,
      connections: CONNECTIONS,
      timeout: HANG_MS / 1000,
      requests: [
        {
          setupRequest: (request, context) => {
            const i = n++;
            const user = users[i % USERS]!;
            const kind = kinds[Math.floor(i / USERS) % kinds.length]!;
            const day = `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
            const amount = `${1 + (i % 500)}.${String(i % 100).padStart(2, '0')}`;
            context.kind = kind;
            context.user = user.id;
            const auth = { authorization: `Bearer ${user.token}` };
            switch (kind) {
              case 'balances':
                return {
                  ...request,
                  method: 'GET',
                  path: '/api/accounts/balances?as_of=2026-12-31',
                  headers: auth,
                  body: undefined,
                };
              case 'trial':
                return {
                  ...request,
                  method: 'GET',
                  path: '/api/reports/trial-balance?as_of=2026-12-31',
                  headers: auth,
                  body: undefined,
                };
              case 'entries':
                return {
                  ...request,
                  method: 'GET',
                  path: '/api/journal-entries?per_page=20',
                  headers: auth,
                  body: undefined,
                };
              case 'balance':
                return {
                  ...request,
                  method: 'GET',
                  path: `/api/accounts/${user.bank}/balance?as_of=2026-06-30`,
                  headers: auth,
                  body: undefined,
                };
              case 'income':
                return {
                  ...request,
                  method: 'GET',
                  path: '/api/reports/income-statement?start_date=2026-01-01&end_date=2026-12-31',
                  headers: auth,
                  body: undefined,
                };
              case 'post': {
                const [debit, credit] = i % 3 === 0 ? [user.bank, user.salary] : [user.food, user.bank];
                const body = {
                  entry_date: day,
                  memo: `Load ${i}`,
                  auto_post: true,
                  lines: [
                    { account_id: debit, direction: 'DEBIT', amount },
                    { account_id: credit, direction: 'CREDIT', amount },
                  ],
                };
                return { ...request, path: '/api/journal-entries', ...json(user.token, body) };
              }
              case 'import': {
                const body = {
                  account_id: user.bank,
                  transactions: [
                    { date: day, description: `Load row ${i}`, amount, type: 'debit' },
                    { date: day, description: `Load row ${i}b`, amount, type: 'credit' },
                  ],
                };
                return { ...request, path: '/api/statements', ...json(user.token, body) };
              }
            }
          },
          onResponse: (status, _body, context) => {
            const kind = String(context.kind);
            answered[kind] ??= {};
            answered[kind]![status] = (answered[kind]![status] ?? 0) + 1;
            const count = written.get(String(context.user))!;
            if (kind === 'post' && status === 201) count.entries += 1;
            if (kind === 'import' && status === 201) count.bankRows += 2;
          },
        },
      ],
    });

    expect(result.errors, 'connection errors').toBe(0);
    expect(result.timeouts, 'timeouts').toBe(0);
    expect(result.non2xx, JSON.stringify(answered)).toBe(0);
    expect(result['2xx']).toBeGreaterThanOrEqual(REQUESTS);

    // Stopped cleanly, every write is there and every ledger holds its invariants.
    expect(await killServer(server, 'SIGTERM')).toEqual({ code: 0, signal: null });
    server = undefined;
    for (const user of users) {
      const file = path.join(dataDir, 'ledgers', `${user.id}.sqlite`);
      const check = checkLedgerFile(file);
      expect(check.problems).toEqual([]);
      expect(check.entries).toBe(written.get(user.id)!.entries);
      const db = new Database(file, { readonly: true });
      expect(db.prepare('SELECT COUNT(*) FROM bank_transactions').pluck().get()).toBe(written.get(user.id)!.bankRows);
      db.close();
    }

    const writes = Object.entries(answered)
      .filter(([k]) => k === 'post' || k === 'import')
      .reduce((s, [, byStatus]) => s + Object.values(byStatus).reduce((a, b) => a + b, 0), 0);
    await recordResults('load', {
      requests: result['2xx'] + result.non2xx,
      users: USERS,
      connections: CONNECTIONS,
      writes,
      reads: result['2xx'] + result.non2xx - writes,
      non_2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      latency_ms: {
        p50: result.latency.p50,
        p90: result.latency.p90,
        p99: result.latency.p99,
        max: result.latency.max,
        mean: result.latency.mean,
      },
      throughput_requests_per_second: Math.round(((result['2xx'] + result.non2xx) / result.duration) * 10) / 10,
      duration_seconds: Math.round(result.duration * 10) / 10,
    });
  });
});
