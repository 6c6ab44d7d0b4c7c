import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAY_PASSWORD, startTestRelay, type TestRelay } from '../support/relay.ts';
import { ledgerFile, registerUser, startTestServer, type TestServer } from '../support/server.ts';
import { syncedBooks } from '../support/sync-books.ts';
import { checkLedgerFile } from './support.ts';
import type { LedgerSchema } from '../../server/db/schema.ts';
import { SqliteDb } from '../../server/db/sqlite.ts';
import { RELAY_FILE } from '../../server/relay/relay-db.ts';
import { decodeSyncResponse, encodeSyncResponse, envelope } from '../../server/sync/messages.ts';

/**
 * What a device does with envelopes that are not what the household sent: one bit flipped in the
 * relay's stored ciphertext, or in flight between the relay and the device, is refused with a clear
 * error and changes nothing in the books; an answer played to the device a second time is applied
 * once. Two app servers and a relay on loopback; the desktop reaches the relay through a proxy that
 * can alter or replay its answers.
 */

const PASSPHRASE = 'our household books 2026';

type Mode = 'pass' | 'flip' | 'replay';

/** An HTTP proxy in front of the relay: passes requests on, or alters or replays the next sync answer that carries envelopes. */
async function relayProxy(relayUrl: string) {
  let mode: Mode = 'pass';
  let recorded: Uint8Array | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        if (req.url === '/relay/sync' && mode === 'replay' && recorded) {
          mode = 'pass';
          res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(recorded);
          return;
        }
        const headers: Record<string, string> = {};
        for (const name of ['authorization', 'content-type']) {
          const value = req.headers[name];
          if (typeof value === 'string') headers[name] = value;
        }
        const answer = await fetch(relayUrl + req.url, {
          method: req.method,
          headers,
          body: req.method === 'GET' ? undefined : body,
        });
        let bytes: Uint8Array = new Uint8Array(await answer.arrayBuffer());
        if (req.url === '/relay/sync' && answer.status === 200) {
          const decoded = decodeSyncResponse(bytes);
          if (decoded.messages.length > 0) {
            recorded = bytes;
            if (mode === 'flip') {
              mode = 'pass';
              const last = decoded.messages.at(-1)!;
              const content = Uint8Array.from(last.content);
              content[content.length - 1]! ^= 1;
              const messages = [...decoded.messages.slice(0, -1), envelope(last.timestamp, last.isEncrypted, content)];
              bytes = encodeSyncResponse(messages, decoded.merkle);
            }
          }
        }
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(bytes);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    next(then: Mode) {
      mode = then;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let relay: TestRelay;
let proxy: Awaited<ReturnType<typeof relayProxy>>;
let laptop: TestServer;
let desktop: TestServer;
const alice = { token: '', id: '' };
const bob = { token: '', id: '' };
const accounts: Record<string, string> = {};

function booksOf(server: TestServer, userId: string): string {
  const db = new SqliteDb<LedgerSchema>(new Database(ledgerFile(server.dataDir, userId), { readonly: true }));
  try {
    return syncedBooks(db);
  } finally {
    db.close();
  }
}

async function post(server: TestServer, token: string, memo: string, amount: string) {
  const res = await server.api.post(
    '/api/journal-entries',
    {
      entry_date: '2026-04-01',
      memo,
      auto_post: true,
      lines: [
        { account_id: accounts.Groceries, direction: 'DEBIT', amount },
        { account_id: accounts.Checking, direction: 'CREDIT', amount },
      ],
    },
    token,
  );
  expect(res.status).toBe(201);
}

beforeAll(async () => {
  relay = await startTestRelay();
  proxy = await relayProxy(relay.url);
  laptop = await startTestServer();
  desktop = await startTestServer();
  const a = await registerUser(laptop.api, 'Alice');
  Object.assign(alice, { token: a.token, id: a.id });
  for (const [name, type] of [
    ['Checking', 'ASSET'],
    ['Groceries', 'EXPENSE'],
  ] as const)
    accounts[name] = (await laptop.api.post('/api/accounts', { name, type }, alice.token)).body.id;
  const login = (username: string) => ({
    relay_username: `${username}-${process.pid}`,
    relay_password: RELAY_PASSWORD,
    register: true,
  });
  const made = await laptop.api.post(
    '/api/sync/group',
    { relay_url: relay.url, ...login('alice'), passphrase: PASSPHRASE },
    alice.token,
  );
  expect(made.status).toBe(201);
  const invite = (await laptop.api.post('/api/sync/invites', {}, alice.token)).body.invite_code as string;
  // the desktop's relay is the proxy: the invite's relay URL replaced by it
  const prefix = invite.slice(0, invite.indexOf('.') + 1);
  const fields = JSON.parse(Buffer.from(invite.slice(prefix.length), 'base64url').toString()) as object;
  const throughProxy = prefix + Buffer.from(JSON.stringify({ ...fields, r: proxy.url })).toString('base64url');
  const b = await registerUser(desktop.api, 'Bob');
  Object.assign(bob, { token: b.token, id: b.id });
  const joined = await desktop.api.post(
    '/api/sync/join',
    { invite_code: throughProxy, ...login('bob'), passphrase: PASSPHRASE },
    bob.token,
  );
  expect(joined.status, JSON.stringify(joined.body)).toBe(200);
  expect(joined.body.last_error).toBeNull();
});

afterAll(async () => {
  await Promise.all([laptop.stop(), desktop.stop()]);
  await proxy.close();
  await relay.stop();
});

describe('envelopes that are not what the household sent', () => {
  it('when one bit of a ciphertext the relay stores is flipped, then the desktop refuses the answer with SYNC_TAMPERED and its books do not change', async () => {
    await post(laptop, alice.token, 'Corner Shop', '12.34');
    expect((await laptop.api.post('/api/sync/now', undefined, alice.token)).status).toBe(200);
    const file = new Database(path.join(relay.dataDir, RELAY_FILE));
    const last = file.prepare('SELECT timestamp, content FROM messages ORDER BY timestamp DESC LIMIT 1').get() as {
      timestamp: string;
      content: Buffer;
    };
    const original = Buffer.from(last.content);
    last.content[last.content.length - 1]! ^= 1;
    file.prepare('UPDATE messages SET content = ? WHERE timestamp = ?').run(last.content, last.timestamp);

    const before = booksOf(desktop, bob.id);
    const refused = await desktop.api.post('/api/sync/now', undefined, bob.token);
    expect([refused.status, refused.body.code]).toEqual([502, 'SYNC_TAMPERED']);
    expect(refused.body.detail).toMatch(/altered|tampered|authentic/i);
    expect(booksOf(desktop, bob.id)).toBe(before);
    const status = (await desktop.api.get('/api/sync/status', bob.token)).body;
    expect(status.last_error).toBe(refused.body.detail);

    // the relay's copy put right, the entry arrives
    file.prepare('UPDATE messages SET content = ? WHERE timestamp = ?').run(original, last.timestamp);
    file.close();
    expect((await desktop.api.post('/api/sync/now', undefined, bob.token)).status).toBe(200);
    expect(booksOf(desktop, bob.id)).toBe(booksOf(laptop, alice.id));
  });

  it('when one bit of an envelope is flipped on its way to the desktop, then the answer is refused and nothing of it applied; the next sync brings it whole', async () => {
    await post(laptop, alice.token, 'Bakery', '5.60');
    await post(laptop, alice.token, 'Market', '20.00');
    expect((await laptop.api.post('/api/sync/now', undefined, alice.token)).status).toBe(200);
    const before = booksOf(desktop, bob.id);
    proxy.next('flip');
    const refused = await desktop.api.post('/api/sync/now', undefined, bob.token);
    expect([refused.status, refused.body.code]).toEqual([502, 'SYNC_TAMPERED']);
    // neither entry of the answer, not even the one whose envelope was intact
    expect(booksOf(desktop, bob.id)).toBe(before);
    const again = await desktop.api.post('/api/sync/now', undefined, bob.token);
    expect(again.status).toBe(200);
    expect(again.body.received).toBe(2);
    expect(booksOf(desktop, bob.id)).toBe(booksOf(laptop, alice.id));
  });

  it('when an answer the desktop already applied is played to it again, then it changes nothing: each entry once, the balances and maintained totals as they were', async () => {
    await post(laptop, alice.token, 'Pharmacy', '7.77');
    expect((await laptop.api.post('/api/sync/now', undefined, alice.token)).status).toBe(200);
    expect((await desktop.api.post('/api/sync/now', undefined, bob.token)).body.received).toBe(1);
    const before = booksOf(desktop, bob.id);
    const balance = (await desktop.api.get(`/api/accounts/${accounts.Groceries}/balance`, bob.token)).body.balance;
    expect(balance).toBe('45.71');

    proxy.next('replay');
    const replayed = await desktop.api.post('/api/sync/now', undefined, bob.token);
    expect(replayed.status, JSON.stringify(replayed.body)).toBe(200);
    // the old answer did reach it: what it received again was logged already
    expect(replayed.body.received).toBeGreaterThanOrEqual(1);
    expect(booksOf(desktop, bob.id)).toBe(before);
    expect((await desktop.api.get(`/api/accounts/${accounts.Groceries}/balance`, bob.token)).body.balance).toBe(
      balance,
    );
    expect(checkLedgerFile(ledgerFile(desktop.dataDir, bob.id)).problems).toEqual([]);
  });
});
