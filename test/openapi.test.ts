import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerFile, registerUser, startTestServer, type TestServer } from './support/server.ts';
import { OpenApiValidator, type Operation } from './support/openapi.ts';
import { RELAY_PASSWORD, startTestRelay, type TestRelay } from './support/relay.ts';

/**
 * The OpenAPI document is the product for scripts, so it is checked with tools nobody here wrote:
 * Redocly's recommended rules, and every documented answer of every operation in the served
 * document (success and each error it lists) produced by a real request and checked against the
 * document with ajv (test/support/openapi.ts). The general answers (401, 403, 400, 404, 413, 415,
 * 503) are produced for every operation from the document alone; the rest come from each
 * operation's scenario below. An operation added to the document without a scenario for each
 * status it lists fails the last test, which names what is missing.
 */

type Json = Record<string, any>;
interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** Statuses no request can be made to produce on purpose: a fault of the server, a full disk. */
const NOT_PRODUCIBLE: Record<number, string> = {
  500: 'a fault of the server (the hardening suite finds none)',
  507: 'a full disk (test/hardening/storage.test.ts fills one under a posting)',
};
/** 503 of the public writes: the identity file made unwritable under the server (storage.test.ts does it for the ledger). */
const PUBLIC_UNAVAILABLE = new Set(['POST /api/auth/register', 'POST /api/auth/login']);

let t: TestServer;
let validator: OpenApiValidator;
const observed = new Map<string, Set<number>>();
const user = { id: '', token: '', email: '' };
const ids: Record<string, string> = {};
const csv = 'Date,Description,Amount\n2026-01-05,CARD 4411,-40.00\n2026-01-09,Unknown payee,-7.77\n';

function record(op: Operation, answer: Answer): Answer {
  const problems = validator.problems(op, answer);
  expect(problems, `${op.key} ${JSON.stringify(problems)}`).toEqual([]);
  let seen = observed.get(op.key);
  if (!seen) observed.set(op.key, (seen = new Set()));
  seen.add(answer.status);
  return answer;
}

interface Send {
  token?: string | null;
  json?: unknown;
  raw?: string | Uint8Array | FormData;
  contentType?: string;
  headers?: Record<string, string>;
  base?: string;
}

/** One request, its answer checked against the document and counted for its operation. */
async function send(method: string, urlPath: string, options: Send = {}): Promise<Answer> {
  const base = options.base ?? t.server.url;
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? user.token : options.token;
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  } else if (options.raw !== undefined) {
    body = options.raw as BodyInit;
    if (options.contentType) headers['content-type'] = options.contentType;
  }
  const res = await fetch(base + urlPath, { method, headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const op = validator.operationOf(method, urlPath.split('?')[0]!);
  if (!op) throw new Error(`${method} ${urlPath} is not an operation of the document`);
  return record(op, { status: res.status, headers: res.headers, text, body: parsed });
}

/** A request whose body is one byte over the operation's documented limit (the server reads it all, then refuses it). */
function oversized(op: Operation, urlPath: string, contentType: string): Promise<Answer> {
  const size = (requestBody(op)!['x-max-body-bytes'] as number) + 1;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: t.server.port,
        method: op.method.toUpperCase(),
        path: urlPath,
        headers: {
          authorization: `Bearer ${user.token}`,
          'content-type': contentType,
          'content-length': String(size),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === 'string') headers.set(name, value);
          req.destroy();
          resolve(record(op, { status: res.statusCode ?? 0, headers, text, body: JSON.parse(text) }));
        });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      // the server may close the connection while the rest of the body is still on its way
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    req.end(Buffer.alloc(size, 0x20));
  });
}

// ---------------------------------------------------------------------------------------------
// The request of an operation that reaches its handler: real ids in the path, the required query

/**
 * The path of `op` with the seed's ids for the parameters that name one thing (a UUID, a backup's
 * name), and the document's example for the others (a month).
 */
function pathOf(op: Operation, idFor: (name: string) => string = seedId(op)): string {
  return op.template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const param = ((op.operation.parameters ?? []) as Json[]).find((p) => p.in === 'path' && p.name === name);
    const schema = (param?.schema ?? {}) as Json;
    const value = schema.format !== 'uuid' && name !== 'name' && schema.example ? String(schema.example) : idFor(name);
    return encodeURIComponent(value);
  });
}

function seedId(op: Operation) {
  return (name: string): string => {
    if (name === 'name') return ids.backup!;
    if (name === 'account_id') return ids.bank!;
    if (name === 'security_id') return ids.security!;
    const byPath: [RegExp, string][] = [
      [/^\/api\/accounts\//, 'bank'],
      [/^\/api\/journal-entries\/\{id\}\/void$/, 'posted'],
      [/^\/api\/journal-entries\//, 'draft'],
      [/^\/api\/statements\//, 'statement'],
      [/^\/api\/reconciliation\/matches\//, 'match'],
      [/^\/api\/reconciliation\/unmatched\//, 'unmatchedTxn'],
      [/^\/api\/chat\/session\//, 'chatSession'],
      [/^\/api\/schedules\//, 'schedule'],
      [/^\/api\/prices\//, 'price'],
      [/^\/api\/rules\//, 'rule'],
      [/^\/api\/securities\//, 'security'],
      [/^\/api\/entries\//, 'posted'],
      [/^\/api\/bank-transactions\//, 'unmatchedTxn'],
      [/^\/api\/attachments\//, 'attachment'],
    ];
    const key = byPath.find(([pattern]) => pattern.test(op.template))?.[1];
    if (!key || !ids[key]) throw new Error(`no seed id for ${op.key}`);
    return ids[key]!;
  };
}

/** The query text of the required parameters: an account id, an enum's first value, or the document's example. */
function requiredQuery(op: Operation): string {
  const params = ((op.operation.parameters ?? []) as Json[]).filter((p) => p.in === 'query' && p.required);
  const pairs = params.map((p) => {
    const schema = p.schema as Json;
    const value = schema.enum
      ? String(schema.enum[0])
      : schema.format === 'uuid'
        ? ids.bank!
        : schema.example !== undefined
          ? String(schema.example)
          : 'x';
    return `${p.name}=${encodeURIComponent(value)}`;
  });
  return pairs.join('&');
}

function withQuery(urlPath: string, ...parts: string[]): string {
  const query = parts.filter(Boolean).join('&');
  return query ? `${urlPath}?${query}` : urlPath;
}

function requestBody(op: Operation): Json | undefined {
  return op.operation.requestBody as Json | undefined;
}

// ---------------------------------------------------------------------------------------------
// Seeds

const spend = (amount: string, memo: string, autoPost: boolean) => ({
  entry_date: '2026-01-05',
  memo,
  auto_post: autoPost,
  lines: [
    { account_id: ids.food, direction: 'DEBIT', amount },
    { account_id: ids.bank, direction: 'CREDIT', amount },
  ],
});

/** The EUR/USD rate of a day. */
const rate = (date: string, value: string) => ({ date, from: 'EUR', to: 'USD', rate: value });

const SECURITY = { symbol: 'VTI', name: 'Vanguard Total Stock Market', currency: 'USD' };

/** A buy of VTI into Bank. */
const buyVti = (units: string) => ({
  kind: 'buy',
  date: '2026-01-06',
  account_id: ids.bank,
  security_id: ids.security,
  cash_account_id: ids.bank,
  units,
  price: '200',
});

/** Rent every month from `start`, as a draft. */
const monthly = (start: string) => ({
  name: 'Rent',
  frequency: 'monthly',
  start_date: start,
  lines: [
    { account_id: ids.food, direction: 'DEBIT', amount: '500.00' },
    { account_id: ids.bank, direction: 'CREDIT', amount: '500.00' },
  ],
});

/** A rule booking lines whose description holds `words` to Food. */
const cornerRule = (words: string) => ({
  name: words,
  description: { op: 'contains', value: words },
  type: 'debit',
  account_id: ids.food,
});

/** A real PNG (test/fixtures/attachments). */
const RECEIPT_PNG = new Uint8Array(
  fs.readFileSync(fileURLToPath(new URL('./fixtures/attachments/receipt.png', import.meta.url))),
);

/** A multipart upload of `bytes` as the part "file". */
function attach(urlPath: string, bytes: Uint8Array<ArrayBuffer>, name: string): Promise<Answer> {
  const form = new FormData();
  form.set('file', new Blob([bytes]), name);
  return send('POST', urlPath, { raw: form });
}

async function made(answer: Promise<Answer>, status: number): Promise<any> {
  const a = await answer;
  if (a.status !== status) throw new Error(`seeding: ${a.status} ${a.text}`);
  return a.body;
}

beforeAll(async () => {
  t = await startTestServer({ env: { OLLAMA_HOST: 'http://127.0.0.1:9' } });
  const doc = (await fetch(`${t.server.url}/api/openapi.json`).then((r) => r.json())) as Json;
  validator = new OpenApiValidator(doc);
  Object.assign(user, await registerUser(t.api));
  ids.bank = (await made(send('POST', '/api/accounts', { json: { name: 'Bank', type: 'ASSET' } }), 201)).id;
  ids.food = (await made(send('POST', '/api/accounts', { json: { name: 'Food', type: 'EXPENSE' } }), 201)).id;
  ids.spare = (await made(send('POST', '/api/accounts', { json: { name: 'Spare', type: 'INCOME' } }), 201)).id;
  ids.posted = (await made(send('POST', '/api/journal-entries', { json: spend('12.34', 'Market', true) }), 201)).id;
  ids.draft = (await made(send('POST', '/api/journal-entries', { json: spend('5.00', 'Draft', false) }), 201)).id;
  await made(send('POST', '/api/journal-entries', { json: spend('40.00', 'Corner shop', true) }), 201);
  const statement = {
    account_id: ids.bank,
    transactions: [
      { date: '2026-01-05', description: 'CARD 4411', amount: '40.00', type: 'debit', external_id: 'a1' },
      { date: '2026-01-09', description: 'Unknown payee', amount: '7.77', type: 'debit', external_id: 'a2' },
    ],
  };
  ids.statement = (await made(send('POST', '/api/statements', { json: statement }), 201)).id;
  await made(send('POST', '/api/reconciliation/run', { json: { statement_id: ids.statement } }), 200);
  ids.match = (await made(send('GET', '/api/reconciliation/pending'), 200)).items[0].id;
  const txns = await made(send('GET', `/api/statements/${ids.statement}/transactions`), 200);
  ids.unmatchedTxn = txns.items.find((x: { description: string }) => x.description === 'Unknown payee').id;
  ids.rule = (await made(send('POST', '/api/rules', { json: cornerRule('OFFICE RENT') }), 201)).id;
  const chat = await send('POST', '/api/chat', { json: { message: 'How much did I spend?' } });
  ids.chatSession = chat.headers.get('x-session-id')!;
  ids.attachment = (await made(attach(`/api/entries/${ids.posted}/attachments`, RECEIPT_PNG, 'receipt.png'), 201)).id;
  // the backup last: restoring it (a scenario) brings back everything seeded
  ids.price = (await made(send('POST', '/api/prices', { json: rate('2026-01-02', '1.08') }), 201)).id;
  ids.security = (await made(send('POST', '/api/securities', { json: SECURITY }), 201)).id;
  ids.schedule = (await made(send('POST', '/api/schedules', { json: monthly('2027-01-05') }), 201)).id;
  ids.backup = (await made(send('POST', '/api/backup'), 201)).name;
});

afterAll(async () => {
  await t?.stop();
  await Promise.all(relays.map((r) => r.stop()));
});

// The sync's relays (docs/sync.md): one that answers, one that takes one registration an hour.
const relays: TestRelay[] = [];
async function relayNamed(limits: { registerPerHour?: number } = {}): Promise<TestRelay> {
  const relay = await startTestRelay({ limits: { registerPerHour: 10_000, ...limits } });
  relays.push(relay);
  if (limits.registerPerHour === 1) {
    // the hour's one registration, spent
    const json = { username: `spent-${process.pid}`, password: RELAY_PASSWORD };
    expect((await relay.api.post('/relay/register', json)).status).toBe(201);
  }
  return relay;
}
let relayNames = 0;
function relayLogin(url: string, register = true) {
  relayNames += 1;
  return { relay_url: url, relay_username: `oa${relayNames}-${process.pid}`, relay_password: RELAY_PASSWORD, register };
}
/** A user of the app of their own, for the sync's scenarios (each changes the user's group). */
async function appUser(): Promise<{ id: string; token: string }> {
  const email = `sync-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const res = await send('POST', '/api/auth/register', {
    json: { email, name: 'Sync', password: 'correct horse battery' },
    token: null,
  });
  return { id: res.body.id, token: res.body.access_token };
}
/** A user whose books are in a group on `relay` (its key random, shown as the recovery code). */
async function grouped(relay: TestRelay): Promise<{ id: string; token: string; recoveryCode: string }> {
  const u = await appUser();
  const made = await send('POST', '/api/sync/group', { json: relayLogin(relay.url), token: u.token });
  expect(made.status).toBe(201);
  return { ...u, recoveryCode: made.body.recovery_code };
}
/** Signs the relay token a user's books keep out on the relay, as an expired one would be. */
async function revokeRelayToken(userId: string): Promise<void> {
  const db = new Database(ledgerFile(t.dataDir, userId), { readonly: true });
  const { sync_group } = db.prepare('SELECT sync_group FROM sync_state').get() as { sync_group: string };
  db.close();
  const { relay_url, token } = JSON.parse(sync_group) as { relay_url: string; token: string };
  const out = await fetch(`${relay_url}/relay/logout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(out.status).toBe(204);
}

// ---------------------------------------------------------------------------------------------

describe('the document, read by Redocly', () => {
  it("when Redocly's recommended rules read the served document, then they find no error and no warning", async () => {
    const source = await (await fetch(`${t.server.url}/api/openapi.json`)).text();
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`)).toEqual(
      [],
    );
  });

  it('when the document names ids, then each is a UUID: every path id and every id field of every schema', () => {
    const loose: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`));
      if (!node || typeof node !== 'object') return;
      const object = node as Json;
      if (object.properties && typeof object.properties === 'object') {
        for (const [name, property] of Object.entries<Json>(object.properties)) {
          if (!/(^|_)id$/.test(name) || name === 'external_id') continue;
          // "given" in a oneOf/anyOf branch (not null) constrains a property the object declares
          if (Object.keys(property).join() === 'not') continue;
          const types = property.anyOf ? property.anyOf.filter((p: Json) => p.type !== 'null') : [property];
          if (!types.every((p: Json) => p.format === 'uuid')) loose.push(`${where}/properties/${name}`);
        }
      }
      for (const [key, value] of Object.entries(object)) walk(value, `${where}/${key}`);
    };
    walk(validator.doc, '#');
    for (const op of validator.operations)
      for (const p of (op.operation.parameters ?? []) as Json[])
        if (p.in === 'path' && p.name === 'id' && p.schema.format !== 'uuid') loose.push(`${op.key} path ${p.name}`);
    expect(loose).toEqual([]);
  });
});

describe('the general answers of every operation, produced from the document alone', () => {
  it('when an operation is called without a token, with a bad one, from a foreign origin, with an unknown query field, with the wrong body type, with a body over the limit, or with an id that names nothing, then each answer is as the document says', async () => {
    for (const op of validator.operations) {
      const method = op.method.toUpperCase();
      const urlPath = pathOf(op);
      const query = requiredQuery(op);
      const secured = (op.operation.security as unknown[]).length > 0;
      if (secured) {
        expect((await send(method, withQuery(urlPath, query), { token: null })).status, op.key).toBe(401);
        expect((await send(method, withQuery(urlPath, query), { token: 'not.a.token' })).status, op.key).toBe(401);
      }
      const foreign = await send(method, withQuery(urlPath, query), { headers: { origin: 'http://evil.example' } });
      expect(foreign.status, op.key).toBe(403);
      const unknown = await send(method, withQuery(urlPath, query, 'no_such_field=1'));
      expect([unknown.status, unknown.body.code], op.key).toEqual([400, 'VALIDATION_ERROR']);
      const body = requestBody(op);
      if (body?.content?.['application/json']) {
        const wrongType = await send(method, withQuery(urlPath, query), { raw: 'x', contentType: 'text/plain' });
        expect([wrongType.status, wrongType.body.code], op.key).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      } else if (body) {
        // a file in a media type the operation does not list
        const wrongType = await send(method, withQuery(urlPath, query), {
          raw: 'x',
          contentType: 'application/x-unlisted',
        });
        expect([wrongType.status, wrongType.body.code], op.key).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      }
      if (body) {
        const type = body.content['application/json'] ? 'application/json' : 'application/octet-stream';
        const tooLarge = await oversized(op, withQuery(urlPath, query), type);
        expect([tooLarge.status, tooLarge.body.code], op.key).toEqual([413, 'PAYLOAD_TOO_LARGE']);
      }
      if ('404' in op.operation.responses && op.template.includes('{') && !body?.required) {
        const nothing = await send(
          method,
          withQuery(
            pathOf(op, () => crypto.randomUUID()),
            query,
          ),
        );
        expect([nothing.status, nothing.body.code], op.key).toEqual([404, 'NOT_FOUND']);
      }
    }
  });

  it('when the ledger cannot be opened by this app (a newer one wrote it), then every operation with a token is 503 LEDGER_UNAVAILABLE', async () => {
    const s = await startTestServer();
    const other = await registerUser(s.api);
    await s.server.close();
    const db = new Database(ledgerFile(s.dataDir, other.id));
    db.prepare(
      "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (99, 'future', 'x', 'now')",
    ).run();
    db.close();
    const again = await startTestServer({ dataDir: s.dataDir });
    try {
      for (const op of validator.operations) {
        if ((op.operation.security as unknown[]).length === 0) continue;
        const urlPath = withQuery(pathOf(op), requiredQuery(op));
        const res = await send(op.method.toUpperCase(), urlPath, { token: other.token, base: again.server.url });
        expect([res.status, res.body.code], op.key).toEqual([503, 'LEDGER_UNAVAILABLE']);
      }
    } finally {
      await again.stop();
    }
  });
});

/** A match under review of its own: a posted entry, and a statement line that mirrors it under another name. */
async function freshMatch(amount: string, description: string): Promise<{ id: string; version: number }> {
  const entry = await made(send('POST', '/api/journal-entries', { json: spend(amount, 'Hardware store', true) }), 201);
  const statement = await made(
    send('POST', '/api/statements', {
      json: { account_id: ids.bank, transactions: [{ date: entry.entry_date, description, amount, type: 'debit' }] },
    }),
    201,
  );
  await made(send('POST', '/api/reconciliation/run', { json: { statement_id: statement.id } }), 200);
  const pending = await made(send('GET', '/api/reconciliation/pending?per_page=100'), 200);
  return pending.items.find(
    (m: { bank_transaction: { description: string } }) => m.bank_transaction.description === description,
  );
}

/** A statement of its own on the bank account, one debit line per description; its id and its lines. */
async function freshStatement(...descriptions: string[]): Promise<{ id: string; txns: { id: string }[] }> {
  const statement = await made(
    send('POST', '/api/statements', {
      json: {
        account_id: ids.bank,
        transactions: descriptions.map((description, i) => ({
          date: '2026-03-10',
          description,
          amount: `${i + 2}.15`,
          type: 'debit',
        })),
      },
    }),
    201,
  );
  const txns = await made(send('GET', `/api/statements/${statement.id}/transactions`), 200);
  return { id: statement.id, txns: txns.items };
}

/** An account of its own with 100.00 in on 2026-04-01 and 30.00 out on 2026-04-02: its id and its lines, oldest first. */
async function freshTill(): Promise<{ id: string; lines: string[] }> {
  const till = await made(
    send('POST', '/api/accounts', { json: { name: `Till ${crypto.randomUUID()}`, type: 'ASSET' } }),
    201,
  );
  const move = (date: string, amount: string, direction: 'DEBIT' | 'CREDIT') => ({
    entry_date: date,
    memo: `Till ${amount}`,
    auto_post: true,
    lines: [
      { account_id: till.id, direction, amount },
      { account_id: ids.spare, direction: direction === 'DEBIT' ? 'CREDIT' : 'DEBIT', amount },
    ],
  });
  await made(send('POST', '/api/journal-entries', { json: move('2026-04-01', '100.00', 'DEBIT') }), 201);
  await made(send('POST', '/api/journal-entries', { json: move('2026-04-02', '30.00', 'CREDIT') }), 201);
  const lines = await made(send('GET', `/api/accounts/${till.id}/unreconciled-lines?statement_date=2026-04-30`), 200);
  return { id: till.id, lines: (lines.items as { line_id: string }[]).map((l) => l.line_id).reverse() };
}

/** Each operation's own answers: success, and the errors that need a state or a body of their own. */
const SCENARIOS: Record<string, () => Promise<void>> = {
  async 'POST /api/auth/register'() {
    const email = `scenario-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const body = { email, name: 'Scenario', password: 'correct horse battery' };
    expect((await send('POST', '/api/auth/register', { json: body, token: null })).status).toBe(201);
    expect((await send('POST', '/api/auth/register', { json: body, token: null })).status).toBe(409);
    const limited = await startTestServer({ limits: {} });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const fresh = { ...body, email: `limit-${i}-${email}` };
        statuses.push(
          (await send('POST', '/api/auth/register', { json: fresh, token: null, base: limited.server.url })).status,
        );
      }
      expect(statuses).toEqual([201, 201, 201, 429]);
    } finally {
      await limited.stop();
    }
  },
  async 'POST /api/auth/login'() {
    const someone = await registerUser(t.api);
    const login = (password: string) =>
      send('POST', '/api/auth/login', { json: { email: someone.email, password }, token: null });
    expect((await login('correct horse battery')).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await login('wrong password')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  },
  async 'GET /api/auth/me'() {
    expect((await send('GET', '/api/auth/me')).status).toBe(200);
  },
  async 'POST /api/auth/logout'() {
    const someone = await registerUser(t.api);
    expect((await send('POST', '/api/auth/logout', { token: someone.token })).status).toBe(204);
  },
  async 'POST /api/auth/password'() {
    const someone = await registerUser(t.api);
    const change = (current: string, next: string) =>
      send('POST', '/api/auth/password', {
        token: someone.token,
        json: { current_password: current, new_password: next },
      });
    expect((await change('correct horse battery', 'short')).status).toBe(400);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await change('wrong password', 'another good password')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const other = await registerUser(t.api);
    const ok = await send('POST', '/api/auth/password', {
      token: other.token,
      json: { current_password: 'correct horse battery', new_password: 'another good password' },
    });
    expect(ok.status).toBe(200);
  },
  async 'GET /api/accounts'() {
    expect((await send('GET', '/api/accounts?per_page=2&is_active=true')).status).toBe(200);
  },
  async 'POST /api/accounts'() {
    expect((await send('POST', '/api/accounts', { json: { name: 'Odd', type: 'THING' } })).body.code).toBe(
      'INVALID_TYPE',
    );
  },
  async 'GET /api/accounts/balances'() {
    expect((await send('GET', '/api/accounts/balances?as_of=2026-01-31')).status).toBe(200);
  },
  async 'GET /api/accounts/{id}'() {
    expect((await send('GET', `/api/accounts/${ids.bank}`)).status).toBe(200);
  },
  async 'PUT /api/accounts/{id}'() {
    expect((await send('PUT', `/api/accounts/${ids.spare}`, { json: { description: 'Spare income' } })).status).toBe(
      200,
    );
  },
  async 'DELETE /api/accounts/{id}'() {
    expect((await send('DELETE', `/api/accounts/${ids.bank}`)).status).toBe(409);
    const gone = await made(send('POST', '/api/accounts', { json: { name: 'Gone', type: 'ASSET' } }), 201);
    expect((await send('DELETE', `/api/accounts/${gone.id}`)).status).toBe(204);
  },
  async 'GET /api/accounts/{id}/balance'() {
    expect((await send('GET', `/api/accounts/${ids.bank}/balance`)).status).toBe(200);
  },
  async 'GET /api/accounts/{id}/register'() {
    expect((await send('GET', `/api/accounts/${ids.bank}/register?page=1&per_page=5`)).status).toBe(200);
  },
  async 'GET /api/journal-entries'() {
    expect((await send('GET', `/api/journal-entries?account_id=${ids.bank}&page=1&per_page=5`)).status).toBe(200);
    expect((await send('GET', '/api/journal-entries?q=shop%2012.50')).status).toBe(200);
  },
  async 'POST /api/journal-entries'() {
    expect((await send('POST', '/api/journal-entries', { json: spend('1.00', 'One', false) })).status).toBe(201);
    const unbalanced = { ...spend('1.00', 'Off', false), lines: [spend('1.00', '', false).lines[0]] };
    expect((await send('POST', '/api/journal-entries', { json: unbalanced })).body.code).toBe('TOO_FEW_LINES');
  },
  async 'POST /api/journal-entries/batch'() {
    const entries = [spend('1.00', 'One', true), spend('2.00', 'Two', true)];
    expect((await send('POST', '/api/journal-entries/batch', { json: { entries } })).status).toBe(201);
    const bad = [entries[0], { ...entries[1], lines: [entries[1]!.lines[0]] }];
    const refused = await send('POST', '/api/journal-entries/batch', { json: { entries: bad } });
    expect([refused.status, refused.body.errors[0].field]).toEqual([400, 'entries.1.lines']);
  },
  async 'GET /api/journal-entries/{id}'() {
    expect((await send('GET', `/api/journal-entries/${ids.posted}`)).status).toBe(200);
  },
  async 'PUT /api/journal-entries/{id}'() {
    expect((await send('PUT', `/api/journal-entries/${ids.draft}`, { json: { memo: 'Renamed' } })).status).toBe(200);
    expect((await send('PUT', `/api/journal-entries/${ids.posted}`, { json: { memo: 'No' } })).body.code).toBe(
      'INVALID_STATUS',
    );
  },
  async 'POST /api/journal-entries/{id}/post'() {
    const draft = await made(send('POST', '/api/journal-entries', { json: spend('3.00', 'To post', false) }), 201);
    expect((await send('POST', `/api/journal-entries/${draft.id}/post`)).status).toBe(200);
    expect((await send('POST', `/api/journal-entries/${draft.id}/post`)).status).toBe(400);
  },
  async 'POST /api/journal-entries/{id}/void'() {
    const entry = await made(send('POST', '/api/journal-entries', { json: spend('3.00', 'To void', true) }), 201);
    expect((await send('POST', `/api/journal-entries/${entry.id}/void`)).status).toBe(200);
    expect((await send('POST', `/api/journal-entries/${entry.id}/void`, { json: { reason: 'again' } })).status).toBe(
      400,
    );
  },
  async 'POST /api/journal-entries/{id}/correct'() {
    const entry = await made(send('POST', '/api/journal-entries', { json: spend('3.00', 'To correct', true) }), 201);
    const { auto_post: _, ...corrected } = spend('3.30', 'Corrected', true);
    const url = (id: string) => `/api/journal-entries/${id}/correct`;
    expect((await send('POST', url(entry.id), { json: corrected })).status).toBe(201);
    expect((await send('POST', url(entry.id), { json: corrected })).status).toBe(400);
    expect((await send('POST', url(crypto.randomUUID()), { json: corrected })).status).toBe(404);
  },
  async 'GET /api/reports/trial-balance'() {
    expect((await send('GET', '/api/reports/trial-balance')).status).toBe(200);
  },
  async 'GET /api/reports/balance-sheet'() {
    expect((await send('GET', '/api/reports/balance-sheet?as_of=2026-12-31')).status).toBe(200);
  },
  async 'GET /api/reports/income-statement'() {
    expect((await send('GET', '/api/reports/income-statement?start_date=2026-01-01&end_date=2026-12-31')).status).toBe(
      200,
    );
  },
  async 'GET /api/reports/net-worth'() {
    expect((await send('GET', '/api/reports/net-worth?start_date=2026-01-01&end_date=2026-03-31')).status).toBe(200);
  },
  async 'GET /api/reports/income-expenses'() {
    expect((await send('GET', '/api/reports/income-expenses?start_date=2026-01-01&end_date=2026-03-31')).status).toBe(
      200,
    );
    expect((await send('GET', '/api/reports/income-expenses?interval=year')).status).toBe(400);
  },
  async 'GET /api/reports/cash-flow'() {
    expect(
      (await send('GET', '/api/reports/cash-flow?start_date=2026-01-01&end_date=2026-03-31&interval=week')).status,
    ).toBe(200);
  },
  async 'GET /api/budgets/{month}'() {
    expect((await send('GET', '/api/budgets/2026-01')).status).toBe(200);
  },
  async 'PUT /api/budgets/{month}'() {
    const line = (accountId: string) => ({ lines: [{ account_id: accountId, amount: '300.00', carry_over: true }] });
    expect((await send('PUT', '/api/budgets/2026-01', { json: line(ids.food!) })).status).toBe(200);
    expect((await send('PUT', '/api/budgets/2026-01', { json: line(crypto.randomUUID()) })).body.code).toBe(
      'INVALID_ACCOUNT',
    );
  },
  async 'POST /api/budgets/{month}/fill'() {
    await made(
      send('PUT', '/api/budgets/2026-01', { json: { lines: [{ account_id: ids.food, amount: '300.00' }] } }),
      200,
    );
    expect((await send('POST', '/api/budgets/2026-02/fill', { json: { from: 'previous_month' } })).status).toBe(200);
  },
  async 'GET /api/reports/budget-vs-actual'() {
    expect((await send('GET', '/api/reports/budget-vs-actual?year=2026')).status).toBe(200);
  },
  async 'GET /api/schedules'() {
    expect((await send('GET', '/api/schedules?per_page=5')).status).toBe(200);
  },
  async 'POST /api/schedules'() {
    expect((await send('POST', '/api/schedules', { json: monthly('2027-03-01') })).status).toBe(201);
    const oneLine = { ...monthly('2027-03-01'), lines: monthly('2027-03-01').lines.slice(0, 1) };
    expect((await send('POST', '/api/schedules', { json: oneLine })).body.code).toBe('TOO_FEW_LINES');
  },
  async 'GET /api/schedules/upcoming'() {
    expect((await send('GET', '/api/schedules/upcoming')).status).toBe(200);
  },
  async 'POST /api/schedules/run'() {
    await made(send('POST', '/api/schedules', { json: monthly('2026-01-31') }), 201);
    const run = await send('POST', '/api/schedules/run');
    expect([run.status, run.body.created.length > 0]).toEqual([200, true]);
  },
  async 'GET /api/schedules/{id}'() {
    expect((await send('GET', `/api/schedules/${ids.schedule}`)).status).toBe(200);
  },
  async 'PUT /api/schedules/{id}'() {
    expect((await send('PUT', `/api/schedules/${ids.schedule}`, { json: monthly('2027-01-05') })).status).toBe(200);
    const nothing = await send('PUT', `/api/schedules/${crypto.randomUUID()}`, { json: monthly('2027-01-05') });
    expect(nothing.status).toBe(404);
  },
  async 'GET /api/history'() {
    expect((await send('GET', '/api/history?limit=5')).status).toBe(200);
    expect((await send('GET', '/api/history?before=now')).status).toBe(400);
  },
  async 'POST /api/history/undo'() {
    const u = await appUser();
    expect((await send('POST', '/api/history/undo', { token: u.token })).status).toBe(409);
    await send('POST', '/api/accounts', { json: { name: 'Undone', type: 'ASSET' }, token: u.token });
    expect((await send('POST', '/api/history/undo', { token: u.token })).status).toBe(200);
  },
  async 'GET /api/sync/status'() {
    expect((await send('GET', '/api/sync/status')).status).toBe(200);
  },
  async 'POST /api/sync/group'() {
    const relay = await relayNamed();
    const u = await appUser();
    const post = (json: unknown) => send('POST', '/api/sync/group', { json, token: u.token });
    expect((await post({ relay_url: 'not a url' })).status).toBe(400);
    expect((await post(relayLogin('http://127.0.0.1:9'))).status).toBe(502);
    expect((await post(relayLogin(relay.url, false))).status).toBe(403);
    const limited = await relayNamed({ registerPerHour: 1 });
    expect((await post(relayLogin(limited.url))).status).toBe(429);
    expect((await post(relayLogin(relay.url))).status).toBe(201);
    expect((await post(relayLogin(relay.url))).status).toBe(409);
  },
  async 'POST /api/sync/join'() {
    const relay = await relayNamed();
    const owner = await grouped(relay);
    const code = (await send('POST', '/api/sync/invites', { json: { uses: 5 }, token: owner.token })).body
      .invite_code as string;
    const { g } = JSON.parse(Buffer.from(code.slice(8), 'base64url').toString()) as { g: string };
    const inviteTo = (r: string, i = 'not the invite') =>
      'PLSYNC1.' + Buffer.from(JSON.stringify({ r, g, i })).toString('base64url');
    const login = () => {
      const { relay_url: _url, ...rest } = relayLogin(relay.url);
      return rest;
    };
    const joiner = await appUser();
    const join = (json: unknown, token = joiner.token) => send('POST', '/api/sync/join', { json, token });
    const passphrase = 'long enough words';
    expect((await join({ invite_code: 'PLSYNC1.garbage-here', ...login(), passphrase })).status).toBe(400);
    expect((await join({ invite_code: inviteTo('http://127.0.0.1:9'), ...login(), passphrase })).status).toBe(502);
    const limited = await relayNamed({ registerPerHour: 1 });
    expect((await join({ invite_code: inviteTo(limited.url), ...login(), passphrase })).status).toBe(429);
    expect((await join({ invite_code: inviteTo(relay.url), ...login(), passphrase })).status).toBe(403);
    const busy = await appUser();
    await send('POST', '/api/accounts', { json: { name: 'Checking', type: 'ASSET' }, token: busy.token });
    expect((await join({ invite_code: code, ...login(), passphrase }, busy.token)).status).toBe(409);
    // the group's key is random: a passphrase is not it
    expect((await join({ invite_code: code, ...login(), passphrase })).status).toBe(400);
    expect((await join({ invite_code: code, ...login(), recovery_code: owner.recoveryCode })).status).toBe(200);
  },
  async 'POST /api/sync/invites'() {
    const post = (token: string, json: unknown = {}) => send('POST', '/api/sync/invites', { json, token });
    expect((await post((await appUser()).token)).status).toBe(409);
    const relay = await relayNamed();
    const owner = await grouped(relay);
    expect((await post(owner.token, { uses: 0 })).status).toBe(400);
    expect((await post(owner.token)).status).toBe(201);
    await revokeRelayToken(owner.id);
    expect((await post(owner.token)).status).toBe(403);
    const gone = await relayNamed();
    const stranded = await grouped(gone);
    await gone.stop();
    relays.splice(relays.indexOf(gone), 1);
    expect((await post(stranded.token)).status).toBe(502);
  },
  async 'POST /api/sync/now'() {
    const now = (token: string) => send('POST', '/api/sync/now', { token });
    expect((await now((await appUser()).token)).status).toBe(409);
    const relay = await relayNamed();
    const owner = await grouped(relay);
    expect((await now(owner.token)).status).toBe(200);
    await revokeRelayToken(owner.id);
    expect((await now(owner.token)).status).toBe(403);
    const gone = await relayNamed();
    const stranded = await grouped(gone);
    await gone.stop();
    relays.splice(relays.indexOf(gone), 1);
    expect((await now(stranded.token)).status).toBe(502);
  },
  async 'DELETE /api/sync/group'() {
    const leave = (token: string) => send('DELETE', '/api/sync/group', { token });
    expect((await leave((await appUser()).token)).status).toBe(409);
    const owner = await grouped(await relayNamed());
    expect((await leave(owner.token)).status).toBe(204);
  },
  async 'DELETE /api/schedules/{id}'() {
    const other = await made(send('POST', '/api/schedules', { json: monthly('2027-06-01') }), 201);
    expect((await send('DELETE', `/api/schedules/${other.id}`)).status).toBe(204);
  },
  async 'POST /api/schedules/{id}/skip'() {
    const url = `/api/schedules/${ids.schedule}/skip`;
    expect((await send('POST', url, { json: { date: '2027-02-05' } })).status).toBe(204);
    expect((await send('POST', url, { json: { date: '2027-02-06' } })).status).toBe(400);
    const nothing = `/api/schedules/${crypto.randomUUID()}/skip`;
    expect((await send('POST', nothing, { json: { date: '2027-02-05' } })).status).toBe(404);
  },
  async 'GET /api/prices'() {
    expect((await send('GET', '/api/prices?from=EUR&per_page=5')).status).toBe(200);
  },
  async 'POST /api/prices'() {
    expect((await send('POST', '/api/prices', { json: rate('2026-01-03', '1.081') })).status).toBe(201);
    expect((await send('POST', '/api/prices', { json: rate('2026-01-03', '1.082') })).status).toBe(200);
  },
  async 'GET /api/prices/latest'() {
    expect((await send('GET', '/api/prices/latest')).status).toBe(200);
  },
  async 'GET /api/prices/convert'() {
    expect([200, 201]).toContain((await send('POST', '/api/prices', { json: rate('2026-01-02', '1.08') })).status);
    const url = (date: string) => `/api/prices/convert?amount=10.00&from=EUR&to=USD&date=${date}`;
    expect((await send('GET', url('2026-01-03'))).status).toBe(200);
    expect((await send('GET', url('1999-01-01'))).status).toBe(400);
  },
  async 'POST /api/prices/import'() {
    const url = '/api/prices/import';
    const file = 'date,from,to,rate\n2026-01-04,EUR,USD,1.083\n2026-01-04,USD,JPY,151.2\n';
    expect((await send('POST', url, { raw: file, contentType: 'text/csv' })).status).toBe(201);
    const broken = await send('POST', url, {
      raw: 'date,from,to,rate\n2026-01-05,EUR,USD,-1\n',
      contentType: 'text/csv',
    });
    expect(broken.status).toBe(400);
  },
  async 'DELETE /api/prices/{id}'() {
    const other = await made(send('POST', '/api/prices', { json: rate('2026-01-09', '1.07') }), 201);
    expect((await send('DELETE', `/api/prices/${other.id}`)).status).toBe(204);
  },
  async 'GET /api/securities'() {
    expect((await send('GET', '/api/securities')).status).toBe(200);
  },
  async 'POST /api/securities'() {
    expect((await send('POST', '/api/securities', { json: { ...SECURITY, symbol: 'AAPL' } })).status).toBe(201);
    expect((await send('POST', '/api/securities', { json: SECURITY })).status).toBe(400);
  },
  async 'PUT /api/securities/{id}/prices'() {
    const url = `/api/securities/${ids.security}/prices`;
    expect((await send('PUT', url, { json: { date: '2026-01-07', price: '201.5' } })).status).toBe(200);
    expect((await send('PUT', url, { json: { date: '2026-01-07', price: '0' } })).status).toBe(400);
    const nothing = `/api/securities/${crypto.randomUUID()}/prices`;
    expect((await send('PUT', nothing, { json: { date: '2026-01-07', price: '1' } })).status).toBe(404);
  },
  async 'POST /api/securities/prices/import'() {
    const url = '/api/securities/prices/import';
    const file = 'date,symbol,price\n2026-01-08,VTI,202\n';
    expect((await send('POST', url, { raw: file, contentType: 'text/csv' })).status).toBe(201);
    const unknown = 'date,symbol,price\n2026-01-08,NOPE,1\n';
    expect((await send('POST', url, { raw: unknown, contentType: 'text/csv' })).status).toBe(400);
  },
  async 'GET /api/investments/accounts/{account_id}'() {
    expect((await send('GET', `/api/investments/accounts/${ids.bank}`)).status).toBe(200);
  },
  async 'PUT /api/investments/accounts/{account_id}'() {
    const url = `/api/investments/accounts/${ids.bank}`;
    expect(
      (await send('PUT', url, { json: { booking_method: 'LIFO', short_term_account_id: ids.spare } })).status,
    ).toBe(200);
    expect((await send('PUT', url, { json: { booking_method: 'LIFO', short_term_account_id: ids.food } })).status).toBe(
      400,
    );
    const nothing = `/api/investments/accounts/${crypto.randomUUID()}`;
    expect(
      (await send('PUT', nothing, { json: { booking_method: 'LIFO', short_term_account_id: ids.spare } })).status,
    ).toBe(404);
  },
  async 'POST /api/investments/trades/preview'() {
    const url = '/api/investments/trades/preview';
    expect((await send('POST', url, { json: buyVti('1') })).status).toBe(200);
    expect((await send('POST', url, { json: { ...buyVti('1'), kind: 'sell', units: '1000' } })).status).toBe(400);
    expect((await send('POST', url, { json: { ...buyVti('1'), security_id: crypto.randomUUID() } })).status).toBe(404);
  },
  async 'POST /api/investments/trades'() {
    const url = '/api/investments/trades';
    expect((await send('POST', url, { json: buyVti('1') })).status).toBe(201);
    expect((await send('POST', url, { json: { ...buyVti('1'), kind: 'sell', units: '1000' } })).status).toBe(400);
    expect((await send('POST', url, { json: { ...buyVti('1'), security_id: crypto.randomUUID() } })).status).toBe(404);
  },
  async 'GET /api/investments/holdings'() {
    expect((await send('GET', '/api/investments/holdings?as_of=2026-02-01')).status).toBe(200);
    expect((await send('GET', '/api/investments/holdings?as_of=2026-02-30')).status).toBe(400);
  },
  async 'GET /api/investments/holdings/{account_id}/{security_id}/lots'() {
    expect((await send('GET', `/api/investments/holdings/${ids.bank}/${ids.security}/lots`)).status).toBe(200);
  },
  async 'GET /api/investments/gains'() {
    expect((await send('GET', '/api/investments/gains?from=2026-01-01&to=2026-12-31')).status).toBe(200);
    expect((await send('GET', '/api/investments/gains?from=2026-12-01&to=2026-01-31')).status).toBe(400);
  },
  async 'GET /api/settings'() {
    expect((await send('GET', '/api/settings')).status).toBe(200);
  },
  async 'PUT /api/settings'() {
    expect((await send('PUT', '/api/settings', { json: { home_currency: 'EUR' } })).status).toBe(200);
    expect((await send('PUT', '/api/settings', { json: { home_currency: 'USD' } })).status).toBe(200);
  },
  async 'GET /api/statements'() {
    expect((await send('GET', `/api/statements?account_id=${ids.bank}`)).status).toBe(200);
  },
  async 'POST /api/statements'() {
    const rows = [{ date: '2026-02-01', description: 'Again', amount: '1.00', type: 'debit', external_id: 'again-1' }];
    expect((await send('POST', '/api/statements', { json: { account_id: ids.bank, transactions: rows } })).status).toBe(
      201,
    );
    const again = await send('POST', '/api/statements', { json: { account_id: ids.bank, transactions: rows } });
    expect([again.status, again.body.id]).toEqual([200, null]);
    const unknown = await send('POST', '/api/statements', {
      json: { account_id: crypto.randomUUID(), transactions: rows },
    });
    expect(unknown.body.code).toBe('INVALID_ACCOUNT');
  },
  async 'POST /api/statements/import'() {
    const file = `Date,Description,Amount\n2026-02-03,Bakery,-3.50\n`;
    const dry = await send('POST', `/api/statements/import?account_id=${ids.bank}&dry_run=true`, {
      raw: file,
      contentType: 'text/csv',
    });
    expect([dry.status, dry.body.transaction_count]).toEqual([200, 1]);
    const form = new FormData();
    form.set('file', new Blob([file], { type: 'text/csv' }), 'bakery.csv');
    form.set('name', 'Bakery statement');
    expect((await send('POST', `/api/statements/import?account_id=${ids.bank}`, { raw: form })).status).toBe(201);
    const again = await send('POST', `/api/statements/import?account_id=${ids.bank}`, {
      raw: file,
      contentType: 'text/csv',
    });
    expect([again.status, again.body.id]).toEqual([200, null]);
    const broken = await send('POST', `/api/statements/import?account_id=${ids.bank}&format=ofx`, {
      raw: 'not a bank file',
      contentType: 'application/x-ofx',
    });
    expect(broken.body.code).toBe('INVALID_STATEMENT_FILE');
  },
  async 'GET /api/statements/{id}'() {
    expect((await send('GET', `/api/statements/${ids.statement}`)).status).toBe(200);
  },
  async 'DELETE /api/statements/{id}'() {
    const other = await made(
      send('POST', '/api/statements', {
        json: {
          account_id: ids.bank,
          transactions: [{ date: '2026-03-01', description: 'X', amount: '1.00', type: 'debit' }],
        },
      }),
      201,
    );
    expect((await send('DELETE', `/api/statements/${other.id}`)).status).toBe(204);
    // the seed statement has an accepted match by the end of the reconciliation scenarios
    const matched = await made(send('GET', `/api/reconciliation/matches/${ids.match}`), 200);
    if (matched.status !== 'accepted') await made(send('POST', `/api/reconciliation/matches/${ids.match}/accept`), 200);
    expect((await send('DELETE', `/api/statements/${ids.statement}`)).status).toBe(409);
  },
  async 'GET /api/statements/{id}/transactions'() {
    expect((await send('GET', `/api/statements/${ids.statement}/transactions?per_page=1`)).status).toBe(200);
  },
  async 'POST /api/reconciliation/run'() {
    expect((await send('POST', '/api/reconciliation/run', { json: { account_id: ids.bank } })).status).toBe(200);
    expect((await send('POST', '/api/reconciliation/run', { json: {} })).status).toBe(400);
  },
  async 'GET /api/reconciliation/pending'() {
    expect((await send('GET', '/api/reconciliation/pending?min_score=0&max_score=100')).status).toBe(200);
  },
  async 'GET /api/reconciliation/matches/{id}'() {
    expect((await send('GET', `/api/reconciliation/matches/${ids.match}`)).status).toBe(200);
  },
  async 'POST /api/reconciliation/matches/{id}/accept'() {
    const match = await freshMatch('63.00', 'POS 7711');
    const url = `/api/reconciliation/matches/${match.id}/accept`;
    expect((await send('POST', url, { json: { version: match.version + 1 } })).status).toBe(409);
    expect((await send('POST', url, { json: { version: match.version } })).status).toBe(200);
    expect((await send('POST', url)).body.code).toBe('ALREADY_PROCESSED');
  },
  async 'POST /api/reconciliation/matches/{id}/reject'() {
    const match = await freshMatch('61.00', 'POS 9911');
    const url = `/api/reconciliation/matches/${match.id}/reject`;
    expect((await send('POST', url, { json: { version: match.version + 1 } })).status).toBe(409);
    expect((await send('POST', url, { json: { reason: 'not this' } })).status).toBe(200);
    expect((await send('POST', url)).status).toBe(400);
  },
  async 'POST /api/reconciliation/batch-accept'() {
    expect((await send('POST', '/api/reconciliation/batch-accept', { json: { min_score: 100 } })).status).toBe(200);
  },
  async 'GET /api/reconciliation/stats'() {
    expect((await send('GET', `/api/reconciliation/stats?account_id=${ids.bank}`)).status).toBe(200);
  },
  async 'GET /api/reconciliation/unmatched'() {
    expect((await send('GET', '/api/reconciliation/unmatched?type=bank_transaction')).status).toBe(200);
  },
  async 'POST /api/reconciliation/unmatched/{id}/create-entry'() {
    const statement = await made(
      send('POST', '/api/statements', {
        json: {
          account_id: ids.bank,
          transactions: [{ date: '2026-03-09', description: 'Lonely payee', amount: '8.88', type: 'debit' }],
        },
      }),
      201,
    );
    const txn = (await made(send('GET', `/api/statements/${statement.id}/transactions`), 200)).items[0];
    const url = (id: string) => `/api/reconciliation/unmatched/${id}/create-entry`;
    expect((await send('POST', url(crypto.randomUUID()), { json: { account_id: ids.food } })).status).toBe(404);
    expect((await send('POST', url(txn.id), { json: { account_id: crypto.randomUUID() } })).status).toBe(400);
    expect((await send('POST', url(txn.id), { json: { account_id: ids.food } })).status).toBe(201);
  },
  async 'POST /api/reconciliation/transfers'() {
    const savings = (await made(send('POST', '/api/accounts', { json: { name: 'Savings', type: 'ASSET' } }), 201)).id;
    const lineOf = async (account_id: string, description: string, type: string) => {
      const transactions = [{ date: '2026-03-10', description, amount: '50.00', type }];
      const statement = await made(send('POST', '/api/statements', { json: { account_id, transactions } }), 201);
      return (await made(send('GET', `/api/statements/${statement.id}/transactions`), 200)).items[0].id;
    };
    const body = {
      from_transaction_id: await lineOf(ids.bank!, 'To savings', 'debit'),
      to_transaction_id: await lineOf(savings, 'From checking', 'credit'),
    };
    expect((await send('POST', '/api/reconciliation/transfers', { json: body })).status).toBe(201);
    expect((await send('POST', '/api/reconciliation/transfers', { json: body })).status).toBe(400);
  },
  async 'PATCH /api/statements/{id}'() {
    const url = `/api/statements/${ids.statement}`;
    const set = await send('PATCH', url, { json: { closing_balance: '-47.77', closing_date: '2026-01-31' } });
    expect([set.status, set.body.closing_balance]).toEqual([200, '-47.77']);
    expect((await send('PATCH', url, { json: { closing_balance: null } })).status).toBe(200);
    const nothing = await send('PATCH', `/api/statements/${crypto.randomUUID()}`, {
      json: { closing_balance: '1.00' },
    });
    expect(nothing.status).toBe(404);
  },
  async 'GET /api/rules'() {
    expect((await send('GET', '/api/rules?per_page=5')).status).toBe(200);
  },
  async 'POST /api/rules'() {
    expect((await send('POST', '/api/rules', { json: cornerRule('BAKERY') })).status).toBe(201);
    const noAccount = { ...cornerRule('BAKERY'), account_id: crypto.randomUUID() };
    expect((await send('POST', '/api/rules', { json: noAccount })).status).toBe(400);
  },
  async 'GET /api/rules/{id}'() {
    expect((await send('GET', `/api/rules/${ids.rule}`)).status).toBe(200);
  },
  async 'PUT /api/rules/{id}'() {
    const again = { ...cornerRule('OFFICE RENT'), priority: 5 };
    expect((await send('PUT', `/api/rules/${ids.rule}`, { json: again })).status).toBe(200);
    expect((await send('PUT', `/api/rules/${crypto.randomUUID()}`, { json: again })).status).toBe(404);
  },
  async 'DELETE /api/rules/{id}'() {
    const other = await made(send('POST', '/api/rules', { json: cornerRule('PARKING') }), 201);
    expect((await send('DELETE', `/api/rules/${other.id}`)).status).toBe(204);
  },
  async 'GET /api/reconciliation/matches'() {
    const url = `/api/reconciliation/matches?status=accepted&account_id=${ids.bank}&statement_id=${ids.statement}`;
    expect((await send('GET', url)).status).toBe(200);
    expect((await send('GET', '/api/reconciliation/matches')).status).toBe(200);
  },
  async 'POST /api/reconciliation/unmatched/create-entries'() {
    const url = '/api/reconciliation/unmatched/create-entries';
    const byRule = await freshStatement('OFFICE RENT MARCH', 'Nobody knows');
    const booked = await send('POST', url, { json: { statement_id: byRule.id } });
    expect([booked.status, booked.body.created.length, booked.body.skipped.length]).toEqual([201, 1, 1]);
    const byHand = await freshStatement('Hand booked');
    const item = { bank_transaction_id: byHand.txns[0]!.id, account_id: ids.food };
    const refused = await send('POST', url, { json: { items: [{ ...item, account_id: crypto.randomUUID() }] } });
    expect([refused.status, refused.body.errors[0].field]).toEqual([400, 'items.0.account_id']);
    expect((await send('POST', url, { json: { items: [item] } })).status).toBe(201);
    expect((await send('POST', url, { json: { statement_id: crypto.randomUUID() } })).status).toBe(404);
  },
  async 'POST /api/accounts/{id}/cleared'() {
    const till = await freshTill();
    const url = `/api/accounts/${till.id}/cleared`;
    const ticked = await send('POST', url, { json: { line_ids: till.lines, cleared: true } });
    expect([ticked.status, ticked.body.lines.map((l: { cleared: string }) => l.cleared)]).toEqual([
      200,
      ['cleared', 'cleared'],
    ]);
    expect((await send('POST', url, { json: { line_ids: [crypto.randomUUID()], cleared: true } })).status).toBe(400);
    const nothing = `/api/accounts/${crypto.randomUUID()}/cleared`;
    expect((await send('POST', nothing, { json: { line_ids: till.lines, cleared: true } })).status).toBe(404);
  },
  async 'GET /api/accounts/{id}/reconcile'() {
    const till = await freshTill();
    const status = await send(
      'GET',
      `/api/accounts/${till.id}/reconcile?statement_date=2026-04-30&statement_balance=70.00`,
    );
    expect([status.status, status.body.difference, status.body.uncleared_count]).toEqual([200, '70.00', 2]);
  },
  async 'POST /api/accounts/{id}/reconcile'() {
    const till = await freshTill();
    const url = `/api/accounts/${till.id}/reconcile`;
    await made(
      send('POST', `/api/accounts/${till.id}/cleared`, { json: { line_ids: [till.lines[0]], cleared: true } }),
      200,
    );
    const off = await send('POST', url, { json: { statement_date: '2026-04-30', statement_balance: '70.00' } });
    expect([off.status, off.body.code]).toEqual([409, 'BALANCE_MISMATCH']);
    const done = await send('POST', url, { json: { statement_date: '2026-04-30', statement_balance: '100.00' } });
    expect([done.status, done.body.line_count]).toEqual([201, 1]);
    const nothing = `/api/accounts/${crypto.randomUUID()}/reconcile`;
    expect(
      (await send('POST', nothing, { json: { statement_date: '2026-04-30', statement_balance: '0' } })).status,
    ).toBe(404);
  },
  async 'POST /api/accounts/{id}/opening-balance'() {
    const till = await freshTill();
    const equity = await made(
      send('POST', '/api/accounts', { json: { name: `Opening ${crypto.randomUUID()}`, type: 'EQUITY' } }),
      201,
    );
    const url = `/api/accounts/${till.id}/opening-balance`;
    const body = { entry_date: '2026-03-31', amount: '5.00', offset_account_id: equity.id };
    const late = await send('POST', url, { json: { ...body, entry_date: '2026-04-01' } });
    expect([late.status, late.body.code]).toEqual([409, 'OPENING_BALANCE_AMBIGUOUS']);
    expect((await send('POST', url, { json: body })).status).toBe(201);
    const again = await send('POST', url, { json: { ...body, entry_date: '2026-03-01' } });
    expect([again.status, again.body.code]).toEqual([409, 'OPENING_BALANCE_EXISTS']);
    const nothing = `/api/accounts/${crypto.randomUUID()}/opening-balance`;
    expect((await send('POST', nothing, { json: body })).status).toBe(404);
  },
  async 'POST /api/accounts/{id}/reconcile-adjustment'() {
    const till = await freshTill();
    const body = { entry_date: '2026-04-30', amount: '-1.00', offset_account_id: ids.food };
    const done = await send('POST', `/api/accounts/${till.id}/reconcile-adjustment`, { json: body });
    expect([done.status, done.body.lines[0].direction]).toEqual([201, 'CREDIT']);
    const nothing = `/api/accounts/${crypto.randomUUID()}/reconcile-adjustment`;
    expect((await send('POST', nothing, { json: body })).status).toBe(404);
  },
  async 'GET /api/accounts/{id}/reconciliations'() {
    expect((await send('GET', `/api/accounts/${ids.bank}/reconciliations?per_page=5`)).status).toBe(200);
  },
  async 'GET /api/accounts/{id}/unreconciled-lines'() {
    const url = `/api/accounts/${ids.bank}/unreconciled-lines?statement_date=2026-01-31&page=1&per_page=5`;
    expect((await send('GET', url)).status).toBe(200);
  },
  async 'POST /api/chat'() {
    expect((await send('POST', '/api/chat', { json: { message: 'What is my net worth?' } })).status).toBe(200);
    expect((await send('POST', '/api/chat', { json: { message: 'Hi', session_id: crypto.randomUUID() } })).status).toBe(
      404,
    );
  },
  async 'GET /api/chat/status'() {
    expect((await send('GET', '/api/chat/status')).status).toBe(200);
  },
  async 'GET /api/chat/history'() {
    expect((await send('GET', `/api/chat/history?session_id=${ids.chatSession}`)).status).toBe(200);
    expect((await send('GET', `/api/chat/history?session_id=${crypto.randomUUID()}`)).status).toBe(404);
  },
  async 'DELETE /api/chat/session/{id}'() {
    expect((await send('DELETE', `/api/chat/session/${ids.chatSession}`)).status).toBe(204);
  },
  async 'GET /api/chat/suggestions'() {
    expect((await send('GET', '/api/chat/suggestions?language=zh')).status).toBe(200);
  },
  async 'GET /api/export'() {
    for (const format of ['hledger', 'csv'])
      expect((await send('GET', `/api/export?format=${format}`)).status).toBe(200);
    expect((await send('GET', '/api/export?format=hledger&start_date=2026-02-01&end_date=2026-01-01')).status).toBe(
      400,
    );
  },
  async 'GET /api/export/archive'() {
    expect((await send('GET', '/api/export/archive?format=beancount')).status).toBe(200);
    expect((await send('GET', '/api/export/archive?format=csv')).status).toBe(400);
  },
  async 'POST /api/import/journal'() {
    const journal = '2026-04-01 Rent\n    Expenses:Rent    500.00 USD\n    Assets:Bank\n';
    expect(
      (await send('POST', '/api/import/journal?format=hledger', { raw: journal, contentType: 'text/plain' })).status,
    ).toBe(201);
    const refused = await send('POST', '/api/import/journal?format=hledger', {
      raw: 'include other.journal\n',
      contentType: 'text/plain',
    });
    expect(refused.status).toBe(400);
  },
  async 'POST /api/backup'() {
    expect((await send('POST', '/api/backup')).status).toBe(201);
  },
  async 'GET /api/backups'() {
    expect((await send('GET', '/api/backups')).status).toBe(200);
  },
  async 'POST /api/backups/{name}/restore'() {
    expect((await send('POST', `/api/backups/${ids.backup}/restore`)).status).toBe(200);
    const newest = (await made(send('POST', '/api/backup'), 201)).name as string;
    const file = path.join(t.dataDir, 'backups', user.id, newest);
    const bytes = fs.readFileSync(file);
    bytes.fill(0x41, 4096, 8192);
    fs.writeFileSync(file, bytes);
    expect((await send('POST', `/api/backups/${newest}/restore`)).body.code).toBe('INVALID_BACKUP');
  },
  async 'POST /api/entries/{id}/attachments'() {
    expect((await attach(`/api/entries/${ids.posted}/attachments`, RECEIPT_PNG, 'again.png')).status).toBe(201);
    const html = new Uint8Array(Buffer.from('<!doctype html><p>hi</p>'));
    expect((await attach(`/api/entries/${ids.posted}/attachments`, html, 'page.png')).status).toBe(415);
    expect((await attach(`/api/entries/${crypto.randomUUID()}/attachments`, RECEIPT_PNG, 'x.png')).status).toBe(404);
    const entry = await made(send('POST', '/api/journal-entries', { json: spend('3.00', 'Ten receipts', true) }), 201);
    for (let i = 0; i < 10; i++) {
      const bytes = new Uint8Array([...RECEIPT_PNG, i]);
      await made(attach(`/api/entries/${entry.id}/attachments`, bytes, `${i}.png`), 201);
    }
    expect((await attach(`/api/entries/${entry.id}/attachments`, RECEIPT_PNG, 'eleven.png')).status).toBe(409);
  },
  async 'GET /api/entries/{id}/attachments'() {
    expect((await send('GET', `/api/entries/${ids.posted}/attachments`)).status).toBe(200);
  },
  async 'POST /api/bank-transactions/{id}/attachments'() {
    const url = `/api/bank-transactions/${ids.unmatchedTxn}/attachments`;
    expect((await attach(url, RECEIPT_PNG, 'line.png')).status).toBe(201);
    expect((await send('POST', url, { raw: 'plain text', contentType: 'text/plain' })).status).toBe(415);
    expect(
      (await attach(`/api/bank-transactions/${crypto.randomUUID()}/attachments`, RECEIPT_PNG, 'x.png')).status,
    ).toBe(404);
    const statement = await freshStatement('Ten receipts line');
    const line = `/api/bank-transactions/${statement.txns[0]!.id}/attachments`;
    for (let i = 0; i < 10; i++) await made(attach(line, new Uint8Array([...RECEIPT_PNG, 20 + i]), `${i}.png`), 201);
    expect((await attach(line, RECEIPT_PNG, 'eleven.png')).status).toBe(409);
  },
  async 'GET /api/bank-transactions/{id}/attachments'() {
    expect((await send('GET', `/api/bank-transactions/${ids.unmatchedTxn}/attachments`)).status).toBe(200);
  },
  async 'GET /api/attachments/counts'() {
    expect((await send('GET', `/api/attachments/counts?entry_ids=${ids.posted}`)).status).toBe(200);
  },
  async 'GET /api/attachments/usage'() {
    expect((await send('GET', '/api/attachments/usage')).status).toBe(200);
  },
  async 'GET /api/attachments/{id}'() {
    expect((await send('GET', `/api/attachments/${ids.attachment}`)).status).toBe(200);
  },
  async 'DELETE /api/attachments/{id}'() {
    const other = await made(attach(`/api/entries/${ids.posted}/attachments`, RECEIPT_PNG, 'gone.png'), 201);
    expect((await send('DELETE', `/api/attachments/${other.id}`)).status).toBe(204);
  },
  async 'GET /api/openapi.json'() {
    expect((await send('GET', '/api/openapi.json', { token: null })).status).toBe(200);
  },
};

describe("each operation's own answers", () => {
  it('when each scenario runs, then every answer is as the document says', async () => {
    const failures: string[] = [];
    for (const op of validator.operations) {
      try {
        await SCENARIOS[op.key]?.();
      } catch (error) {
        failures.push(`${op.key}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('when a job runs past its budget, then every operation that runs one answers 422 JOB_BUDGET_EXCEEDED as documented', async () => {
    // a user with an account and a backup, made within the usual budget
    const before = await startTestServer();
    const someone = await registerUser(before.api);
    const bank = (await before.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, someone.token)).body.id;
    const backup = (await before.api.post('/api/backup', undefined, someone.token)).body.name as string;
    const statement = (
      await before.api.post(
        '/api/statements',
        {
          account_id: bank,
          transactions: [{ date: '2026-01-02', description: 'Shop', amount: '1.00', type: 'debit' }],
        },
        someone.token,
      )
    ).body.id as string;
    await before.server.close();
    const s = await startTestServer({ dataDir: before.dataDir, jobBudget: { ms: 1 } });
    try {
      const base = s.server.url;
      // more than a job small enough to run at once on the server's own thread (INLINE_BYTES)
      const rows = Array.from(
        { length: 5000 },
        (_, i) => `2026-01-${String((i % 28) + 1).padStart(2, '0')},Shop ${i},-${i + 1}.00`,
      );
      const journal = Array.from(
        { length: 2000 },
        (_, i) => `2026-01-02 Shop ${i}\n    Expenses:Food    ${i + 1}.00 USD\n    Assets:Bank\n`,
      ).join('\n');
      const rates = `date,from,to,rate\n${rows.map((r, i) => `${r.slice(0, 10)},EUR,USD,1.${String(i).padStart(4, '0')}`).join('\n')}\n`;
      const asSomeone = { token: someone.token, base };
      const budgeted: [string, string, Send][] = [
        [
          'POST',
          '/api/statements',
          {
            ...asSomeone,
            json: {
              account_id: bank,
              transactions: rows.map((r, i) => ({
                date: r.slice(0, 10),
                description: `Shop ${i}`,
                amount: `${i + 1}.00`,
                type: 'debit',
              })),
            },
          },
        ],
        [
          'POST',
          `/api/statements/import?account_id=${bank}`,
          { ...asSomeone, raw: `Date,Description,Amount\n${rows.join('\n')}\n`, contentType: 'text/csv' },
        ],
        ['POST', '/api/import/journal?format=hledger', { ...asSomeone, raw: journal, contentType: 'text/plain' }],
        ['POST', '/api/prices/import', { ...asSomeone, raw: rates, contentType: 'text/csv' }],
        ['POST', '/api/reconciliation/run', { ...asSomeone, json: { account_id: bank } }],
        ['POST', '/api/reconciliation/unmatched/create-entries', { ...asSomeone, json: { statement_id: statement } }],
        ['GET', '/api/export?format=ledger', asSomeone],
        ['GET', '/api/export/archive?format=ledger', asSomeone],
        ['POST', '/api/backup', asSomeone],
        ['POST', `/api/backups/${backup}/restore`, asSomeone],
      ];
      for (const [method, urlPath, options] of budgeted) {
        const res = await send(method, urlPath, options);
        expect([res.status, res.body?.code], `${method} ${urlPath}`).toEqual([422, 'JOB_BUDGET_EXCEEDED']);
      }
    } finally {
      await s.stop();
    }
  });

  it('when every test above has run, then each operation of the served document has given every answer it documents', () => {
    const missing: string[] = [];
    for (const op of validator.operations) {
      const seen = observed.get(op.key) ?? new Set<number>();
      for (const status of Object.keys(op.operation.responses).map(Number)) {
        if (seen.has(status) || status in NOT_PRODUCIBLE) continue;
        if (status === 503 && PUBLIC_UNAVAILABLE.has(op.key)) continue;
        missing.push(`${op.key} ${status}${SCENARIOS[op.key] ? '' : ' (no scenario: add one to SCENARIOS)'}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
