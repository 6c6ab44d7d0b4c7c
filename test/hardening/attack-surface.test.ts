import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseDigest,
  identityFile,
  ledgerFile,
  registerUser,
  startTestServer,
  TEST_SECRET,
  type TestServer,
} from '../support/server.ts';
import { expectErrorShape, listTree, PASSWORD, rawHttp, recordResults, send, tempDir } from './support.ts';

/**
 * The local server's attack surface, beyond server/http/app.*.http.test.ts and
 * server/features/auth/auth.*.http.test.ts: properties over any foreign Host or Origin, tokens whose
 * `sub` is crafted to reach a file, and another user's ids and traversal ids on every route. What
 * the process listens on, its file modes and its rate limits: process-surface.test.ts.
 */
const BAD_CREDENTIALS = 'Could not validate credentials';
const figures: Record<string, unknown> = {};

let t: TestServer;
const outer = tempDir('surface');
const alice = { id: '', token: '', email: '' };
const bob = { id: '', token: '' };
const bobIds: Record<string, string> = {};
let port = 0;
let clock = Date.now();

beforeAll(async () => {
  t = await startTestServer({ dataDir: path.join(outer, 'data'), now: () => (clock += 3_600_001) });
  port = t.server.port;
  Object.assign(alice, await registerUser(t.api, 'Alice'));
  Object.assign(bob, await registerUser(t.api, 'Bob'));
  const api = t.api;
  const bank = (await api.post('/api/accounts', { name: 'Bob bank', type: 'ASSET' }, bob.token)).body.id;
  const food = (await api.post('/api/accounts', { name: 'Bob food', type: 'EXPENSE' }, bob.token)).body.id;
  bobIds.account = bank;
  const entry = await api.post(
    '/api/journal-entries',
    {
      entry_date: '2026-01-05',
      memo: 'Bob secret',
      auto_post: true,
      lines: [
        { account_id: food, direction: 'DEBIT', amount: '9.00' },
        { account_id: bank, direction: 'CREDIT', amount: '9.00' },
      ],
    },
    bob.token,
  );
  bobIds.entry = entry.body.id;
  const statement = await api.post(
    '/api/statements',
    {
      account_id: bank,
      transactions: [
        { date: '2026-01-05', description: 'Bob card', amount: '9.00', type: 'debit' },
        { date: '2026-01-06', description: 'Bob other', amount: '1.00', type: 'debit' },
      ],
    },
    bob.token,
  );
  bobIds.statement = statement.body.id;
  await api.post('/api/reconciliation/run', { statement_id: statement.body.id }, bob.token);
  const txns = await api.get(`/api/statements/${statement.body.id}/transactions`, bob.token);
  bobIds.transaction = txns.body.items.find((x: any) => x.description === 'Bob other').id;
  const pending = await api.get('/api/reconciliation/pending?min_score=0&max_score=100', bob.token);
  bobIds.match = pending.body.items[0]?.id ?? txns.body.items[0].match_id ?? '00000000-0000-4000-8000-000000000000';
  const chat = await api.post('/api/chat', { message: 'Bob asks' }, bob.token);
  bobIds.chat = chat.headers.get('x-session-id') ?? '';
});
afterAll(async () => {
  await recordResults('attack_surface', figures);
  await t.stop();
  fs.rmSync(outer, { recursive: true, force: true });
});

describe('DNS rebinding: the Host header', () => {
  it('when the Host is anything but 127.0.0.1:<port> or localhost:<port>, then every path is 403 FORBIDDEN_HOST (property)', async () => {
    const tricky = [
      `127.0.0.1.:${port}`,
      `localhost.:${port}`,
      `[::1]:${port}`,
      `127.1:${port}`,
      `2130706433:${port}`,
      `0x7f000001:${port}`,
      `127.0.0.2:${port}`,
      `localhost:${port}.evil.example`,
      `evil.example:${port}`,
      `127.0.0.1:${port}@evil.example`,
      `127.0.0.1:0${port}`,
      `127.0.0.1:${port} `,
      `127.0.0.1:${port},evil.example`,
      `xn--localhost:${port}`,
      `local\u0127host:${port}`,
      `127.0.0.1:+${port}`,
      `localhost`,
      ' ',
    ];
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom(...tricky),
          fc.domain().map((d) => `${d}:${port}`),
          fc.ipV4().map((ip) => `${ip}:${port}`),
          fc.string({ maxLength: 30 }),
        ),
        fc.constantFrom('/', '/api/openapi.json', '/api/auth/me', '/api/accounts', '/index.html'),
        async (host, urlPath) => {
          const normalised = host.trim().toLowerCase();
          fc.pre(normalised !== `127.0.0.1:${port}` && normalised !== `localhost:${port}`);
          // An empty Host is replaced by Node's client with the real one; it cannot be sent this way.
          fc.pre(host !== '');
          // Node refuses to send a header with control characters; such a Host never reaches anyone.
          fc.pre(/^[\t\x20-\x7e\x80-\xff]*$/.test(host));
          tried += 1;
          const res = await rawHttp(port, { path: urlPath, headers: { host, authorization: `Bearer ${alice.token}` } });
          expect(res.status, `Host ${JSON.stringify(host)}`).toBe(403);
          expectErrorShape(res, 403, 'FORBIDDEN_HOST');
        },
      ),
      { numRuns: 60 },
    );
    figures.foreign_hosts_refused = tried;
  });
});

describe('another web origin: no reading, no writing', () => {
  const foreignOrigins = (): string[] => [
    'null',
    'http://evil.example',
    `https://127.0.0.1:${port}`,
    `http://127.0.0.1:${port + 1}`,
    `http://127.0.0.1:${port}.evil.example`,
    `http://evil.example/http://127.0.0.1:${port}`,
    `http://localhost.evil.example:${port}`,
    `http://127.0.0.1`,
    `http://localhost`,
    `file://`,
    `chrome-extension://abc`,
    `http://[::1]:${port}`,
    `http://127.0.0.1:${port}/`,
  ];

  it('when a request to /api carries any foreign Origin, then GET, POST, PUT, DELETE and OPTIONS are 403 FORBIDDEN_ORIGIN without a CORS header, and nothing changes (property)', async () => {
    const before = {
      alice: databaseDigest(ledgerFile(t.dataDir, alice.id)),
      identity: databaseDigest(identityFile(t.dataDir)),
    };
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom(...foreignOrigins()),
          fc.webUrl().map((u) => new URL(u).origin),
          fc.domain().map((d) => `http://${d}:${port}`),
        ),
        fc.constantFrom(
          ['GET', '/api/auth/me'],
          ['GET', '/api/accounts'],
          ['POST', '/api/accounts'],
          ['PUT', `/api/accounts/${bobIds.account}`],
          ['DELETE', `/api/journal-entries/x`],
          ['POST', '/api/auth/login'],
          ['POST', '/api/statements/import?account_id=x'],
          ['OPTIONS', '/api/accounts'],
          ['POST', '/API/Accounts'],
        ),
        async (origin, [method, urlPath]) => {
          // (HTTP drops the spaces around a header value, so " <own origin>" is the own origin.)
          fc.pre(![`http://127.0.0.1:${port}`, `http://localhost:${port}`].includes(origin.trim().toLowerCase()));
          fc.pre(/^[\t\x20-\x7e]*$/.test(origin));
          tried += 1;
          const res = await rawHttp(port, {
            method,
            path: urlPath!,
            headers: {
              origin,
              authorization: `Bearer ${alice.token}`,
              // a "simple" cross-origin request a browser sends without any preflight
              'content-type': 'text/plain',
              'access-control-request-method': 'POST',
              'access-control-request-headers': 'authorization, content-type',
            },
            body:
              method === 'GET' || method === 'OPTIONS'
                ? undefined
                : JSON.stringify({ name: 'From evil', type: 'ASSET', email: alice.email, password: PASSWORD }),
          });
          expect(res.status, `Origin ${JSON.stringify(origin)} ${method} ${urlPath}`).toBe(403);
          expectErrorShape(res, 403, 'FORBIDDEN_ORIGIN');
          expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
        },
      ),
      { numRuns: 80 },
    );
    expect(databaseDigest(ledgerFile(t.dataDir, alice.id))).toBe(before.alice);
    expect(databaseDigest(identityFile(t.dataDir))).toBe(before.identity);
    figures.foreign_origins_refused = tried;
  });

  it("when the app's own origin sends a preflight or a request, then no Access-Control-* header is sent either (no CORS at all)", async () => {
    for (const method of ['OPTIONS', 'GET']) {
      const res = await rawHttp(port, {
        method,
        path: '/api/accounts',
        headers: {
          origin: t.server.url,
          authorization: `Bearer ${alice.token}`,
          'access-control-request-method': 'DELETE',
        },
      });
      expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
  });
});

describe('tokens that try to reach a file', () => {
  it('when a correctly signed token names a sub that is not a user id (a path, a traversal, another case, a number), then it is 401 and no file is opened or created (property)', async () => {
    const tree = listTree(outer);
    const subs: unknown[] = [
      '../identity',
      '../../identity.sqlite',
      '../secret.key',
      `../ledgers/${bob.id}`,
      `${bob.id}/../${bob.id}`,
      `${alice.id}.sqlite`,
      alice.id.toUpperCase(),
      ` ${alice.id}`,
      `${alice.id}\u0000`,
      '/etc/passwd',
      'C:\\Windows\\win.ini',
      '%2e%2e%2fidentity',
      '00000000-0000-4000-8000-000000000000',
      '',
      'null',
      'x'.repeat(10_000),
      42,
      0,
      true,
      null,
      [alice.id],
      { id: alice.id },
    ];
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom(...subs), fc.string({ unit: 'binary', maxLength: 60 }), fc.uuid()),
        async (sub) => {
          fc.pre(sub !== alice.id && sub !== bob.id);
          tried += 1;
          const token = jwt.sign({ sub, exp: Math.floor(Date.now() / 1000) + 600 } as object, TEST_SECRET, {
            algorithm: 'HS256',
          });
          for (const p of ['/api/auth/me', '/api/accounts', '/api/reports/trial-balance']) {
            const res = await rawHttp(port, { path: p, headers: { authorization: `Bearer ${token}` } });
            expect(res.status, `sub ${JSON.stringify(sub)?.slice(0, 80)}`).toBe(401);
            expect(res.body).toEqual({ detail: BAD_CREDENTIALS });
          }
        },
      ),
      { numRuns: 60 },
    );
    expect(listTree(outer)).toEqual(tree);
    figures.crafted_token_subs_refused = tried;
  });

  it('when a token is signed with another key, uses alg none or HS512, carries a jku/kid pointing elsewhere, or expired a second ago, then it is 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const tokens = [
      jwt.sign({ sub: alice.id }, 'another-secret-that-is-also-long-enough-42', { algorithm: 'HS256', expiresIn: 600 }),
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: alice.id, exp: now + 600 })}.`,
      `${b64({ alg: 'None' })}.${b64({ sub: alice.id, exp: now + 600 })}.`,
      jwt.sign({ sub: alice.id }, TEST_SECRET, { algorithm: 'HS512', expiresIn: 600 }),
      jwt.sign({ sub: alice.id }, 'attacker-key-attacker-key-attacker-key', {
        algorithm: 'HS256',
        expiresIn: 600,
        header: { alg: 'HS256', jku: 'http://evil.example/jwks.json', kid: '../secret.key' },
      }),
      jwt.sign({ sub: alice.id, exp: now - 1 }, TEST_SECRET, { algorithm: 'HS256' }),
      jwt.sign({ sub: alice.id, nbf: now + 3600, exp: now + 7200 }, TEST_SECRET, { algorithm: 'HS256' }),
      `${alice.token}x`,
      alice.token.split('.').slice(0, 2).join('.') + '.',
    ];
    for (const token of tokens) {
      const res = await rawHttp(port, { path: '/api/accounts', headers: { authorization: `Bearer ${token}` } });
      expect(res.status, token.slice(0, 60)).toBe(401);
      expect(res.body).toEqual({ detail: BAD_CREDENTIALS });
    }
  });
});

const BOUNDARY = 'attack-surface-boundary';
const ONE_PIXEL_PNG_PART = Buffer.concat([
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
  ),
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);

describe("another user's ledger", () => {
  it("when Alice sends Bob's ids, or traversal ids aimed at his file, to every route with an id, then each is 404 and Bob's ledger is unchanged", async () => {
    const doc = (await t.api.get('/api/openapi.json')).body;
    const before = databaseDigest(ledgerFile(t.dataDir, bob.id));
    const tree = listTree(outer);
    const traversal = [
      `..%2F..%2Fledgers%2F${bob.id}`,
      `..%2F${bob.id}.sqlite`,
      `%2e%2e%2f%2e%2e%2fledgers%2f${bob.id}.sqlite`,
      `${bob.id}%00`,
      encodeURIComponent(`../${bob.id}`),
    ];
    let tried = 0;
    for (const [template, ops] of Object.entries<any>(doc.paths)) {
      if (!/\{\w+\}/.test(template)) continue;
      const ids = [...Object.values(bobIds), ...traversal];
      for (const method of Object.keys(ops)) {
        for (const id of ids) {
          // a route that takes only files gets a file (a 1×1 PNG), the others an empty JSON object
          const takesFiles = Object.keys(ops[method].requestBody?.content ?? {}).join() === 'multipart/form-data';
          const res = await rawHttp(port, {
            method: method.toUpperCase(),
            path: template.replace(/\{\w+\}/, id),
            headers: {
              authorization: `Bearer ${alice.token}`,
              'content-type': takesFiles ? `multipart/form-data; boundary=${BOUNDARY}` : 'application/json',
            },
            body: method === 'get' || method === 'delete' ? undefined : takesFiles ? ONE_PIXEL_PNG_PART : '{}',
          });
          tried += 1;
          // 404 for an id; 400 VALIDATION_ERROR when the empty body lacks a required field.
          expect([404, 400], `${method} ${template} ${id}: ${res.text}`).toContain(res.status);
          expectErrorShape(res);
          if (res.status === 400) expect(res.body.code).toBe('VALIDATION_ERROR');
        }
      }
    }
    expect(databaseDigest(ledgerFile(t.dataDir, bob.id))).toBe(before);
    // Nothing new but Alice's own (empty) backup and attachment folders, which asking for a backup of
    // hers and sending a file create: no file of hers is kept for an entry that is not hers.
    for (const f of listTree(outer).filter((x) => !tree.includes(x)))
      expect([
        'data/backups/',
        `data/backups/${alice.id}/`,
        'data/attachments/',
        `data/attachments/${alice.id}/`,
      ]).toContain(f);
    figures.cross_user_and_traversal_ids_refused = tried;
  });
});
