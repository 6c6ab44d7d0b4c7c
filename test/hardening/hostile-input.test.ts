import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseDigest,
  identityFile,
  ledgerFile,
  registerUser,
  startTestServer,
  type TestServer,
  watchDigest,
} from '../support/server.ts';
import {
  CLOSED_OLLAMA,
  checkLedgerFile,
  errorShapeProblems,
  HANG_MS,
  listTree,
  rawHttp,
  recordResults,
  tempDir,
  type RawRequest,
} from './support.ts';

/**
 * Property-based hostile input over every operation of the OpenAPI document: wrong types, huge and
 * tiny numbers, 1e309, -0, NaN-like strings, unicode, RTL and NUL, deep nesting, duplicate and
 * prototype keys, overlong strings and arrays, malformed path ids. The oracle, for every request:
 * - never a 5xx and never a hang;
 * - a 4xx is the JSON error shape and leaves the user's ledger file and the identity file
 *   byte-for-byte unchanged (a digest of every row of every table);
 * - a 2xx only for input the OpenAPI schemas allow (checked with ajv), and its JSON answer matches
 *   the documented response schema;
 * - another user's ledger never changes, Object.prototype is never polluted.
 * FUZZ_RUNS raises the number of generated requests per operation (8 in CI).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 8);

// ---------------------------------------------------------------------------------------------
// JSON text with what JSON.stringify cannot write: raw number tokens, duplicate keys, deep nesting

class Raw {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}
const DUPLICATES = Symbol('duplicate keys');
type Json = unknown;

function toJson(value: Json): string {
  if (value instanceof Raw) return value.text;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  const parts = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`);
  for (const [k, v] of (value as Record<symbol, [string, Json][]>)[DUPLICATES] ?? [])
    parts.push(`${JSON.stringify(k)}:${toJson(v)}`);
  return `{${parts.join(',')}}`;
}

const deepArrays = (n: number) => new Raw('['.repeat(n) + ']'.repeat(n));
const deepObjects = (n: number) => new Raw('{"a":'.repeat(n) + '1' + '}'.repeat(n));
const PROTO = new Raw(
  '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"}}',
);

const SPECIAL_STRINGS = [
  '',
  ' ',
  '\t',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '0',
  '-1',
  '1e309',
  '1e-400',
  '0x10',
  '1_000',
  '1,00',
  '١٢٣',
  '１２３',
  '12.345',
  '.5',
  '5.',
  '99999999999999999999999999',
  '999999999999.99',
  '1000000000000',
  'null',
  'true',
  'undefined',
  '{}',
  '[]',
  '\u0000',
  'a\u0000b',
  'USD\u0000',
  '\u202eRTL override',
  '\u200f\u200e',
  'مرحبا',
  '𝟘𝟙',
  '\ud800',
  '\udfff',
  '\uffff',
  '\ufeff',
  '../../identity',
  '..\\..\\identity',
  '%2e%2e%2f',
  '/etc/passwd',
  'file:///etc/passwd',
  "' OR 1=1 --",
  '"; DROP TABLE accounts; --',
  '<script>alert(1)</script>',
  '2026-02-30',
  '2026-13-01',
  '0000-01-01',
  '9999-12-31',
  '2026-1-1',
  '2026-01-01T00:00:00Z',
  '20260101',
  'ASSET',
  'asset',
  'DEBIT',
  'debit',
  'credit',
  'USD',
  'usd',
  'XXX',
  'KWD',
  'JPY',
  'draft',
  'posted',
  'month',
  'zh',
  'csv',
  'x'.repeat(101),
  'x'.repeat(1001),
  'x'.repeat(5000),
];
const RAW_NUMBERS = [
  '1e309',
  '-1e309',
  '-0',
  '0',
  '-1',
  '1e-400',
  '5e-324',
  '9007199254740993',
  '123456789012345678901234567890',
  '0.1',
  '1.005',
  '100',
  '101',
  '1',
  '1.5',
];

const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.string({ minLength: 1, maxLength: 8 }).map((s) => s.repeat(Math.ceil(20_000 / s.length))),
  },
);

const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom(...RAW_NUMBERS).map((t) => new Raw(t)) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom<Json>(true, false, null, [], {}, [null], [''], { '': '' }) },
  { weight: 1, arbitrary: fc.constantFrom(deepArrays(1000), deepObjects(1000), PROTO) },
  { weight: 1, arbitrary: fc.array(fc.oneof(hostileString, fc.integer()), { maxLength: 5 }) },
);

// ---------------------------------------------------------------------------------------------
// The server, two users and their seed data

interface Operation {
  method: string;
  path: string;
  operationId: string;
  auth: boolean;
  pathParams: string[];
  queryParams: { name: string; required: boolean }[];
  jsonBody: boolean;
  rawBody: boolean;
}

let t: TestServer;
/** The data folder sits alone in its own folder, so that a file written beside it would show. */
const outer = tempDir('fuzz');
let doc: any;
let ajv: InstanceType<typeof Ajv2020>;
/** The same document, reading query text as the numbers and booleans its parameters document. */
let queryAjv: InstanceType<typeof Ajv2020>;
let operations: Operation[] = [];
const main = { id: '', token: '', email: '' };
const other = { id: '', token: '' };
/** The account whose sessions the session routes (logout, password change) end: each request gets a fresh one. */
const sessions = { email: '' };
const SESSION_ROUTES = new Set(['/api/auth/logout', '/api/auth/password']);
const seeds: Record<string, string> = {};
let clock = Date.now();
const stats = { requests: 0, byStatus: {} as Record<string, number>, byOperation: {} as Record<string, number> };
let dataFilesBefore: string[] = [];
const prototypeKeysBefore = Object.getOwnPropertyNames(Object.prototype).sort();

beforeAll(async () => {
  // The rate-limit clock jumps an hour per attempt, so that register and login are validated, not limited.
  t = await startTestServer({
    dataDir: path.join(outer, 'data'),
    env: { OLLAMA_HOST: CLOSED_OLLAMA },
    now: () => (clock += 3_600_001),
  });
  ({ id: main.id, token: main.token, email: main.email } = await registerUser(t.api, 'Fuzz Target'));
  ({ id: other.id, token: other.token } = await registerUser(t.api, 'Bystander'));
  ({ email: sessions.email } = await registerUser(t.api, 'Session Owner'));
  const api = t.api;
  const made = async (res: Promise<{ status: number; body: any; text: string }>, status = 201) => {
    const r = await res;
    if (r.status !== status) throw new Error(`seeding failed: ${r.status} ${r.text}`);
    return r.body;
  };
  seeds.bank = (await made(api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, main.token))).id;
  seeds.food = (await made(api.post('/api/accounts', { name: 'Food', type: 'EXPENSE' }, main.token))).id;
  seeds.spare = (await made(api.post('/api/accounts', { name: 'Spare', type: 'INCOME' }, main.token))).id;
  const spend = (amount: string, memo: string, autoPost: boolean) => ({
    entry_date: '2026-01-05',
    memo,
    auto_post: autoPost,
    lines: [
      { account_id: seeds.food, direction: 'DEBIT', amount },
      { account_id: seeds.bank, direction: 'CREDIT', amount },
    ],
  });
  seeds.posted = (await made(api.post('/api/journal-entries', spend('12.34', 'Market', true), main.token))).id;
  seeds.draft = (await made(api.post('/api/journal-entries', spend('5.00', 'Draft', false), main.token))).id;
  seeds.matched = (await made(api.post('/api/journal-entries', spend('40.00', 'Corner shop', true), main.token))).id;
  const statement = await made(
    api.post(
      '/api/statements',
      {
        account_id: seeds.bank,
        transactions: [
          { date: '2026-01-05', description: 'CARD 4411', amount: '40.00', type: 'debit' },
          { date: '2026-01-09', description: 'Unknown payee', amount: '7.77', type: 'debit' },
        ],
      },
      main.token,
    ),
  );
  seeds.statement = statement.id;
  await made(api.post('/api/reconciliation/run', { statement_id: seeds.statement }, main.token), 200);
  const pending = await made(api.get('/api/reconciliation/pending', main.token), 200);
  seeds.match = pending.items[0].id;
  const txns = await made(api.get(`/api/statements/${seeds.statement}/transactions`, main.token), 200);
  seeds.unmatchedTxn = txns.items.find((x: { description: string }) => x.description === 'Unknown payee').id;
  const chat = await api.post('/api/chat', { message: 'How much did I spend?' }, main.token);
  seeds.chatSession = chat.headers.get('x-session-id')!;
  seeds.otherAccount = (await made(api.post('/api/accounts', { name: 'Other bank', type: 'ASSET' }, other.token))).id;

  doc = (await api.get('/api/openapi.json')).body;
  if (doc.paths['/api/backup']?.post) seeds.backup = (await made(api.post('/api/backup', undefined, main.token))).name;
  ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
  ajv.addSchema({ ...doc, $id: 'openapi' });
  queryAjv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false, coerceTypes: true });
  queryAjv.addSchema({ ...doc, $id: 'openapi' });
  for (const [p, ops] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      if (p === '/api/openapi.json') continue;
      operations.push({
        method: method.toUpperCase(),
        path: p,
        operationId: op.operationId,
        auth: op.security.length > 0,
        pathParams: (op.parameters ?? []).filter((x: any) => x.in === 'path').map((x: any) => x.name),
        queryParams: (op.parameters ?? [])
          .filter((x: any) => x.in === 'query')
          .map((x: any) => ({ name: x.name, required: x.required })),
        jsonBody: op.requestBody?.content?.['application/json'] !== undefined,
        rawBody: op.requestBody !== undefined && op.requestBody.content['application/json'] === undefined,
      });
    }
  }
  dataFilesBefore = listTree(t.dataDir);
});

afterAll(async () => {
  if (watched) for (const w of Object.values(watched)) w.close();
  await t?.stop();
  fs.rmSync(outer, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// Valid requests to mutate, per operation

function validIds(op: Operation): string[] {
  if (op.pathParams.length === 0) return [];
  const byPrefix: [string, string[]][] = [
    ['/api/accounts/{id}/balance', [seeds.bank!]],
    ['/api/accounts/{id}', [seeds.bank!, seeds.food!, seeds.spare!]],
    ['/api/journal-entries/{id}/post', [seeds.draft!]],
    ['/api/journal-entries/{id}/void', [seeds.posted!]],
    ['/api/journal-entries/{id}', [seeds.posted!, seeds.draft!]],
    ['/api/statements/{id}', [seeds.statement!]],
    ['/api/reconciliation/matches/{id}', [seeds.match!]],
    ['/api/reconciliation/unmatched/{id}', [seeds.unmatchedTxn!]],
    ['/api/chat/session/{id}', [seeds.chatSession!]],
    ['/api/backups/{name}', seeds.backup ? [seeds.backup] : []],
  ];
  return byPrefix.find(([prefix]) => op.path.startsWith(prefix))?.[1] ?? [];
}

/** Percent-encodes the UTF-8 bytes (encodeURIComponent throws on a lone surrogate). */
function pct(s: string): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

let unique = 0;

function seedBody(op: Operation): Record<string, Json> {
  unique += 1;
  const line = (account: string, direction: string) => ({ account_id: account, direction, amount: '1.00' });
  const key = `${op.method} ${op.path}`;
  const bodies: Record<string, () => Record<string, Json>> = {
    'POST /api/auth/register': () => ({
      email: `fuzz-${unique}@example.com`,
      name: 'Fuzz',
      password: 'correct horse battery',
    }),
    'POST /api/auth/login': () => ({ email: main.email, password: 'correct horse battery' }),
    // the same password again: the session owner keeps it, every earlier session of theirs ends
    'POST /api/auth/password': () => ({
      current_password: 'correct horse battery',
      new_password: 'correct horse battery',
    }),
    'POST /api/accounts': () => ({ name: `Fuzz ${unique}`, type: 'ASSET', currency: 'USD', description: 'd' }),
    'PUT /api/accounts/{id}': () => ({ name: 'Renamed', description: 'd', is_active: true }),
    'POST /api/journal-entries': () => ({
      entry_date: '2026-01-10',
      memo: 'm',
      auto_post: false,
      lines: [line(seeds.food!, 'DEBIT'), line(seeds.bank!, 'CREDIT')],
    }),
    'PUT /api/journal-entries/{id}': () => ({
      entry_date: '2026-01-11',
      memo: 'm',
      lines: [line(seeds.food!, 'DEBIT'), line(seeds.bank!, 'CREDIT')],
    }),
    'POST /api/journal-entries/{id}/void': () => ({ reason: 'r' }),
    'POST /api/statements': () => ({
      account_id: seeds.bank!,
      name: 'n',
      transactions: [{ date: '2026-01-12', description: 'x', amount: '1.00', type: 'debit', external_id: 'e' }],
    }),
    'POST /api/reconciliation/run': () => ({
      account_id: seeds.bank!,
      start_date: '2026-01-01',
      end_date: '2026-12-31',
    }),
    'POST /api/reconciliation/matches/{id}/accept': () => ({ version: 1 }),
    'POST /api/reconciliation/matches/{id}/reject': () => ({ reason: 'r', version: 1 }),
    'POST /api/reconciliation/batch-accept': () => ({
      min_score: 100,
      account_id: seeds.bank!,
      match_ids: [seeds.match!],
    }),
    'POST /api/reconciliation/unmatched/{id}/create-entry': () => ({ account_id: seeds.food!, memo: 'm' }),
    'POST /api/chat': () => ({ message: 'hello', session_id: seeds.chatSession! }),
  };
  return bodies[key]?.() ?? {};
}

const QUERY_VALUES = (): string[] => [
  '1',
  '2',
  '20',
  '100',
  '0',
  '-1',
  '101',
  '1.5',
  '1e309',
  'NaN',
  '',
  ' ',
  'true',
  'false',
  'TRUE',
  'day',
  'week',
  'month',
  'year',
  'en',
  'zh',
  'fr',
  'csv',
  'ofx',
  'qif',
  'camt053',
  'pdf',
  'draft',
  'posted',
  'void',
  'manual',
  'ASSET',
  'EXPENSE',
  'bank_transaction',
  'journal_entry',
  '2026-01-31',
  '2026-02-30',
  '0001-01-01',
  '9999-12-31',
  '2027-01-01',
  seeds.bank!,
  seeds.statement!,
  seeds.chatSession!,
  seeds.otherAccount!,
  '00000000-0000-4000-8000-000000000000',
];

// ---------------------------------------------------------------------------------------------
// Arbitraries of hostile requests

const hostileSegments = (): string[] => [
  '..%2F..%2Fidentity',
  '..%2f..%2fsecret.key',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fidentity.sqlite',
  `..%2F..%2Fledgers%2F${other.id}`,
  `..%2F${other.id}.sqlite`,
  '%00',
  'abc%00def',
  '%E0%A4%A',
  '%',
  '%%',
  '%ZZ',
  'x'.repeat(5000),
  pct('\u202e𝟘مرحبا'),
  '%20',
  'null',
  'undefined',
  '0',
  '-1',
  '1e309',
  seeds.otherAccount!,
  other.id,
  main.id,
  '00000000-0000-4000-8000-000000000000',
  seeds.bank!.toUpperCase(),
  `${seeds.bank}.sqlite`,
  `${seeds.bank}%00`,
  encodeURIComponent(`${seeds.bank}/../${seeds.food}`),
  `${seeds.bank};x=1`,
  '__proto__',
  'constructor',
  'prototype',
];

interface Generated {
  request: RawRequest;
  /** What was sent, for the oracle and the failure message. */
  sent: { pathId?: string; query: Record<string, string | string[]>; bodyText?: string; contentType?: string };
}

function pathArb(op: Operation): fc.Arbitrary<string | undefined> {
  if (op.pathParams.length === 0) return fc.constant(undefined);
  const valid = validIds(op);
  return fc.oneof(
    { weight: valid.length > 0 ? 2 : 0, arbitrary: fc.constantFrom(...(valid.length > 0 ? valid : ['x'])) },
    { weight: 3, arbitrary: fc.constantFrom(...hostileSegments()) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }).map(pct) },
  );
}

function queryArb(op: Operation): fc.Arbitrary<[string, string][]> {
  const values = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...QUERY_VALUES()) },
    { weight: 2, arbitrary: hostileString },
  );
  const known = op.queryParams.map((p) =>
    fc.option(fc.tuple(fc.constant(p.name), values), { freq: 2, nil: undefined }),
  );
  const extra = fc.option(
    fc.oneof(
      fc.tuple(
        fc.constantFrom(
          '__proto__',
          'constructor',
          'prototype',
          'hasOwnProperty',
          'toString',
          'x',
          'page[a]',
          '__proto__[polluted]',
          'a.b',
          '',
        ),
        values,
      ),
      fc.tuple(
        fc
          .constantFrom(...(op.queryParams.length > 0 ? op.queryParams.map((p) => p.name) : ['page']))
          .map((n) => `${n}[]`),
        values,
      ),
    ),
    { freq: 3, nil: undefined },
  );
  const duplicate = fc.option(
    fc.constantFrom(...(op.queryParams.length > 0 ? op.queryParams.map((p) => p.name) : ['page'])),
    { freq: 4, nil: undefined },
  );
  return fc.tuple(fc.tuple(...known), extra, duplicate, values).map(([k, e, d, v]) => {
    const pairs = k.filter((x): x is [string, string] => x !== undefined);
    if (e) pairs.push(e);
    if (d) pairs.push([d, v], [d, v]);
    return pairs;
  });
}

/** Every path to a value inside a body (`['lines', 0, 'amount']`), containers included. */
function pathsOf(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object' || value instanceof Raw) return [prefix];
  const children = Array.isArray(value)
    ? value.map((v, i) => pathsOf(v, [...prefix, i]))
    : Object.entries(value).map(([k, v]) => pathsOf(v, [...prefix, k]));
  return [prefix, ...children.flat()];
}

type Mutation = { at: number; action: 'set' | 'delete' | 'unknown' | 'duplicate' | 'proto'; value: Json };

/** A deep copy (fast-check hands out shared constant objects; a mutation must never alias them). */
function cloneJson(value: Json): Json {
  if (value instanceof Raw || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneJson);
  const copy: Record<string | symbol, Json> = {};
  for (const [k, v] of Object.entries(value)) copy[k] = cloneJson(v);
  const duplicates = (value as Record<symbol, [string, Json][]>)[DUPLICATES];
  if (duplicates) copy[DUPLICATES] = duplicates.map(([k, v]) => [k, cloneJson(v)]);
  return copy;
}

function mutate(body: Record<string, Json>, mutations: Mutation[]): Json {
  let root: Json = cloneJson(body);
  for (const original of mutations) {
    const m = { ...original, value: cloneJson(original.value) };
    const paths = pathsOf(root);
    const target = paths[m.at % paths.length]!;
    if (target.length === 0) {
      if (m.action === 'set') root = m.value;
      else if (m.action === 'proto' && root && typeof root === 'object')
        Object.assign(root, { [DUPLICATES]: [['__proto__', { polluted: 'yes' }]] });
      else if (root && typeof root === 'object' && !Array.isArray(root))
        (root as Record<string, Json>).unexpected = m.value;
      continue;
    }
    const parent = target.slice(0, -1).reduce<any>((node, key) => node?.[key], root);
    const key = target.at(-1)!;
    if (parent === null || typeof parent !== 'object') continue;
    if (m.action === 'set') parent[key] = m.value;
    else if (m.action === 'delete') {
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
    } else if (Array.isArray(parent)) parent.push(m.value);
    else if (m.action === 'unknown') parent[`${String(key)}_x`] = m.value;
    else if (m.action === 'duplicate') parent[DUPLICATES] = [...(parent[DUPLICATES] ?? []), [String(key), m.value]];
    else
      parent[DUPLICATES] = [
        ...(parent[DUPLICATES] ?? []),
        ['__proto__', m.value],
        ['constructor', { prototype: m.value }],
      ];
  }
  return root;
}

function bodyArb(op: Operation): fc.Arbitrary<{ text: string; contentType: string } | undefined> {
  if (op.rawBody)
    return fc.constantFrom({ text: 'Date,Description,Amount\n2026-01-20,Fuzz,-1.00\n', contentType: 'text/csv' });
  if (!op.jsonBody)
    return fc.option(fc.constantFrom({ text: '{"unexpected":true}', contentType: 'application/json' }), {
      freq: 4,
      nil: undefined,
    });
  const mutation = fc.record({
    at: fc.nat(),
    action: fc.constantFrom('set', 'set', 'set', 'delete', 'unknown', 'duplicate', 'proto'),
    value: hostileValue,
  }) as fc.Arbitrary<Mutation>;
  const mutated = fc
    .array(mutation, { minLength: 1, maxLength: 3 })
    .map((ms) => ({ text: toJson(mutate(seedBody(op), ms)), contentType: 'application/json' }));
  const whole = fc.constantFrom(
    ...[
      '',
      'null',
      '42',
      '-0',
      '1e309',
      '"text"',
      '[]',
      'true',
      '{',
      '{"a":1,}',
      "{'a':1}",
      '{"a":NaN}',
      '{"a":Infinity}',
      '{"a":undefined}',
      '\ufeff{}',
      '{"a":"\\ud800"}',
      '{"a":"\\u0000"}',
      '{}\u0000',
      '{"__proto__":{"polluted":"yes"}}',
    ].map((text) => ({ text, contentType: 'application/json' })),
    { text: toJson(seedBody(op)), contentType: 'text/plain' },
    { text: toJson(seedBody(op)), contentType: 'application/x-www-form-urlencoded' },
    { text: toJson(seedBody(op)), contentType: 'multipart/form-data; boundary=x' },
    { text: toJson(seedBody(op)), contentType: 'application/json; charset=latin1' },
    { text: toJson(seedBody(op)), contentType: 'application/json; charset=utf-16' },
  );
  return fc.oneof({ weight: 5, arbitrary: mutated }, { weight: 1, arbitrary: whole });
}

/** Valid values of the query parameters, so that a request hostile in one part reaches the checks of the others. */
function validQuery(op: Operation): fc.Arbitrary<[string, string][]> {
  const examples: Record<string, string[]> = {
    page: ['1', '2'],
    per_page: ['1', '20', '100'],
    as_of: ['2026-01-31', '2026-12-31'],
    start_date: ['2026-01-01'],
    end_date: ['2026-12-31'],
    interval: ['day', 'week', 'month'],
    status: ['draft', 'posted', 'void'],
    source_type: ['manual', 'system'],
    is_active: ['true', 'false'],
    account_id: [seeds.bank!],
    parent_id: [seeds.bank!],
    min_score: ['0', '60'],
    max_score: ['100'],
    dry_run: ['true'],
    name: ['Fuzz'],
    language: ['en', 'zh'],
    message: ['hello', '你好'],
    session_id: [seeds.chatSession!],
    type: op.path.includes('unmatched') ? ['bank_transaction', 'journal_entry'] : ['ASSET', 'EXPENSE'],
    format: op.path.includes('statements')
      ? ['csv']
      : op.path.includes('import/journal')
        ? ['ledger', 'hledger', 'beancount']
        : ['ledger', 'csv', 'beancount'],
  };
  const parts = op.queryParams.map((p) => {
    const values = examples[p.name];
    if (!values) return fc.constant(undefined);
    const value = fc.constantFrom(...values).map((v) => [p.name, v] as [string, string]);
    return p.required ? value : fc.option(value, { nil: undefined });
  });
  return fc.tuple(...parts).map((pairs) => pairs.filter((x): x is [string, string] => x !== undefined));
}

function validPath(op: Operation): fc.Arbitrary<string | undefined> {
  const valid = validIds(op);
  return valid.length > 0 ? fc.constantFrom(...valid) : pathArb(op);
}

function validBody(op: Operation): fc.Arbitrary<{ text: string; contentType: string } | undefined> {
  if (op.rawBody) return bodyArb(op);
  if (!op.jsonBody) return fc.constant(undefined);
  return fc.constant(null).map(() => ({ text: toJson(seedBody(op)), contentType: 'application/json' }));
}

/** Hostile in one part (body, query or path) with the others valid, or hostile everywhere. */
function requestArb(op: Operation): fc.Arbitrary<Generated> {
  const build = ([pathId, pairs, body]: [
    string | undefined,
    [string, string][],
    { text: string; contentType: string } | undefined,
  ]) => buildRequest(op, pathId, pairs, body);
  return fc.oneof(
    { weight: op.jsonBody ? 4 : 0, arbitrary: fc.tuple(validPath(op), validQuery(op), bodyArb(op)).map(build) },
    { weight: 2, arbitrary: fc.tuple(validPath(op), queryArb(op), validBody(op)).map(build) },
    {
      weight: op.pathParams.length > 0 ? 2 : 0,
      arbitrary: fc.tuple(pathArb(op), validQuery(op), validBody(op)).map(build),
    },
    { weight: 1, arbitrary: fc.tuple(pathArb(op), queryArb(op), bodyArb(op)).map(build) },
  );
}

function buildRequest(
  op: Operation,
  pathId: string | undefined,
  pairs: [string, string][],
  body: { text: string; contentType: string } | undefined,
): Generated {
  let urlPath = op.path;
  if (pathId !== undefined) urlPath = urlPath.replace(/\{\w+\}/, pathId);
  if (op.path === '/api/statements/import' && !pairs.some(([k]) => k === 'account_id'))
    pairs = [['account_id', seeds.bank!], ...pairs];
  const qs = pairs.map(([k, v]) => `${pct(k).replaceAll('%5B', '[').replaceAll('%5D', ']')}=${pct(v)}`).join('&');
  // As the server's query parser sees it: UTF-8 decoded (lone surrogates become U+FFFD), repeats as arrays.
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [rawKey, rawValue] of pairs) {
    const [k, v] = [Buffer.from(rawKey, 'utf8').toString('utf8'), Buffer.from(rawValue, 'utf8').toString('utf8')];
    query[k] = k in query ? ([] as string[]).concat(query[k]!, v) : v;
  }
  const headers: Record<string, string> = {};
  if (op.auth) headers.authorization = `Bearer ${main.token}`;
  if (body) headers['content-type'] = body.contentType;
  return {
    request: { method: op.method, path: qs ? `${urlPath}?${qs}` : urlPath, headers, body: body?.text },
    sent: { pathId, query, bodyText: body?.text, contentType: body?.contentType },
  };
}

// ---------------------------------------------------------------------------------------------
// The oracle

/** The three files each request is checked against, digested again only after a commit (watchDigest). */
let watched: {
  ledger: ReturnType<typeof watchDigest>;
  identity: ReturnType<typeof watchDigest>;
  other: ReturnType<typeof watchDigest>;
};

function digests() {
  watched ??= {
    ledger: watchDigest(ledgerFile(t.dataDir, main.id)),
    identity: watchDigest(identityFile(t.dataDir)),
    other: watchDigest(ledgerFile(t.dataDir, other.id)),
  };
  return { ledger: watched.ledger.digest(), identity: watched.identity.digest(), other: watched.other.digest() };
}
let otherDigest = '';

function schemaErrors(ref: string, value: unknown): string | null {
  const validate = ajv.getSchema(`openapi#${ref}`);
  if (!validate) return `no schema at ${ref}`;
  return validate(value) ? null : ajv.errorsText(validate.errors);
}

const pointer = (...parts: string[]) => '/' + parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** Sends one request and checks it; returns a description of what is wrong, or null. */
async function exchange(op: Operation, generated: Generated): Promise<string | null> {
  if (op.auth && SESSION_ROUTES.has(op.path)) {
    // Ending main's session would leave every later request a 401: these end a session of their own.
    const login = await t.api.post('/api/auth/login', { email: sessions.email, password: 'correct horse battery' });
    generated.request.headers = { ...generated.request.headers, authorization: `Bearer ${login.body.access_token}` };
  }
  const before = digests();
  otherDigest ||= before.other;
  const res = await rawHttp(t.server.port, generated.request);
  const after = digests();
  stats.requests += 1;
  stats.byStatus[`${String(res.status)[0]}xx`] = (stats.byStatus[`${String(res.status)[0]}xx`] ?? 0) + 1;
  stats.byOperation[op.operationId] = (stats.byOperation[op.operationId] ?? 0) + 1;
  const what = `${generated.request.method} ${generated.request.path.slice(0, 300)} ${generated.sent.contentType ?? ''} ${(generated.sent.bodyText ?? '').slice(0, 300)} -> ${res.status} ${res.text.slice(0, 300)}`;
  if (res.status >= 500) return `5xx: ${what}`;
  if (after.other !== otherDigest) return `another user's ledger changed: ${what}`;
  if (op.method === 'GET' && (after.ledger !== before.ledger || after.identity !== before.identity))
    return `a GET changed the data: ${what}`;
  if (res.status >= 400) {
    const problems = errorShapeProblems(res);
    if (problems.length > 0) return `error shape (${problems.join('; ')}): ${what}`;
    if (after.ledger !== before.ledger) return `a refused request changed the ledger: ${what}`;
    if (after.identity !== before.identity) return `a refused request changed the identity file: ${what}`;
    return null;
  }
  // Accepted: only what the documented schemas allow.
  const operation = pointer('paths', op.path, op.method.toLowerCase());
  if (op.pathParams.length > 0 && !validIds(op).includes(decodeURIComponentSafe(generated.sent.pathId ?? '')))
    return `a malformed or foreign path id was accepted: ${what}`;
  const queryCheck = queryValidator(op);
  if (!queryCheck(generated.sent.query))
    return `a query outside the documented parameters was accepted (${ajv.errorsText(queryCheck.errors)}): ${what}`;
  if (op.jsonBody && generated.sent.bodyText !== undefined && generated.sent.bodyText !== '') {
    let parsed: unknown;
    try {
      // A leading byte-order mark is ignored, as RFC 8259 allows (body-parser decodes it away).
      parsed = JSON.parse(generated.sent.bodyText.replace(/^\ufeff/, ''));
    } catch {
      return `malformed JSON was accepted: ${what}`;
    }
    const problem = schemaErrors(`${operation}/requestBody/content/application~1json/schema`, parsed);
    if (problem) return `a body outside the documented schema was accepted (${problem}): ${what}`;
  }
  const documented = doc.paths[op.path][op.method.toLowerCase()].responses[String(res.status)];
  if (!documented) return `undocumented status ${res.status}: ${what}`;
  if (documented.content?.['application/json'] && res.status !== 204) {
    const problem = schemaErrors(`${operation}/responses/${res.status}/content/application~1json/schema`, res.body);
    if (problem) return `the answer does not match its documented schema (${problem}): ${what}`;
  }
  return null;
}

const queryValidators = new Map<string, ReturnType<typeof queryAjv.compile>>();

/** The query as one object schema: the documented parameters, their own schemas, nothing else. */
function queryValidator(op: Operation) {
  const key = `${op.method} ${op.path}`;
  let validate = queryValidators.get(key);
  if (!validate) {
    const operation = pointer('paths', op.path, op.method.toLowerCase());
    const parameters = (doc.paths[op.path][op.method.toLowerCase()].parameters ?? []) as {
      in: string;
      name: string;
      required: boolean;
    }[];
    const properties: Record<string, unknown> = {};
    parameters.forEach((p, i) => {
      if (p.in === 'query') properties[p.name] = { $ref: `openapi#${operation}/parameters/${i}/schema` };
    });
    validate = queryAjv.compile({
      type: 'object',
      properties,
      required: parameters.filter((p) => p.in === 'query' && p.required).map((p) => p.name),
      additionalProperties: false,
    });
    queryValidators.set(key, validate);
  }
  return validate;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

// ---------------------------------------------------------------------------------------------

describe('hostile input over every endpoint of the OpenAPI document', () => {
  it('when the document is read, then it lists every route (new ones are fuzzed too, with or without a seed)', () => {
    expect(operations.length).toBeGreaterThanOrEqual(40);
  });

  it('when hostile bodies, queries and path ids are sent, then each answer is a 4xx in the error shape that changed nothing, or a 2xx for input the schemas allow', async () => {
    const failures: string[] = [];
    for (const op of operations) {
      await fc
        .assert(
          fc.asyncProperty(requestArb(op), async (generated) => {
            const problem = await exchange(op, generated);
            if (problem) failures.push(problem);
            return problem === null;
          }),
          { numRuns: RUNS, endOnFailure: true },
        )
        .catch((error: Error) => {
          // A thrown error (a hang, a refused connection) rather than a reported problem.
          const lines = error.message.split('\n');
          const cause = lines.findIndex((l) => l.startsWith('Got '));
          failures.push(
            `${op.method} ${op.path}: ${[...lines.slice(0, 2), ...(cause >= 0 ? lines.slice(cause, cause + 3) : [])].join(' ').slice(0, 1500)}`,
          );
        });
    }
    expect(failures).toEqual([]);
  });

  it('when the classic hostile bodies are sent to every JSON endpoint, then none is a 5xx or a hang and a refusal changes nothing', async () => {
    const failures: string[] = [];
    for (const op of operations.filter((o) => o.jsonBody)) {
      const valid = validIds(op)[0];
      const seed = seedBody(op);
      const firstKey = Object.keys(seed)[0]!;
      const bodies: string[] = [
        deepArrays(100_000).text,
        deepObjects(100_000).text,
        toJson({ ...seed, [firstKey]: deepArrays(100_000) }),
        // duplicate keys: JSON.parse keeps the last; a hostile last value must still be refused
        toJson(Object.assign({ ...seed }, { [DUPLICATES]: [[firstKey, new Raw('1e309')]] })),
        toJson(
          Object.assign(
            { ...seed },
            {
              [DUPLICATES]: [
                ['__proto__', { polluted: 'yes' }],
                ['constructor', { prototype: { polluted: 'yes' } }],
              ],
            },
          ),
        ),
        toJson({ ...seed, [firstKey]: PROTO }),
        toJson({ ...seed, [firstKey]: new Raw('-0') }),
        toJson({ ...seed, [firstKey]: 'NaN' }),
        toJson({ ...seed, [firstKey]: 'a\u0000b\u202e' }),
        toJson({ ...seed, [firstKey]: 'x'.repeat(1024 * 1024 - 200) }),
        toJson({ ...seed, [firstKey]: 'x'.repeat(1024 * 1024 + 10) }),
      ];
      if ('lines' in seed) {
        const lines = Array.from({ length: 10_000 }, (_, i) => ({
          account_id: i % 2 ? seeds.bank : seeds.food,
          direction: i % 2 ? 'CREDIT' : 'DEBIT',
          amount: '0.01',
        }));
        bodies.push(toJson({ ...seed, lines }));
        bodies.push(
          toJson({
            ...seed,
            lines: [
              ...lines.slice(0, 998),
              { account_id: seeds.food, direction: 'DEBIT', amount: new Raw('1e309') },
              lines[1],
            ],
          }),
        );
      }
      if ('transactions' in seed) {
        const transactions = Array.from({ length: 9_000 }, (_, i) => ({
          date: '2026-01-15',
          description: `Row ${i}`,
          amount: '1.00',
          type: 'debit',
        }));
        bodies.push(
          toJson({
            ...seed,
            transactions: [
              ...transactions,
              { date: '2026-02-30', description: 'bad date', amount: '1.00', type: 'debit' },
            ],
          }),
        );
      }
      for (const text of bodies) {
        const generated = buildRequest(op, valid, [], { text, contentType: 'application/json' });
        const problem = await exchange(op, generated);
        if (problem) failures.push(problem.slice(0, 600));
      }
    }
    expect(failures).toEqual([]);
  });

  it('when the run is over, then no prototype was polluted, no file appeared outside ledgers/, both ledgers still hold their invariants, and the server still answers', async () => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeysBefore);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Nothing beside the data folder, and inside it only the files the app names itself.
    expect(fs.readdirSync(outer)).toEqual(['data']);
    const allowed = [
      /^ledgers\/$/,
      /^ledgers\/[0-9a-f-]{36}\.sqlite(-wal|-shm)?$/,
      /^identity\.sqlite(-wal|-shm)?$/,
      /^server\.json$/,
      /^backups\/$/,
      /^backups\/[0-9a-f-]{36}\/$/,
      /^backups\/[0-9a-f-]{36}\/ledger-[0-9TZ]+-[a-z-]+\.sqlite$/,
    ];
    const files = listTree(t.dataDir);
    expect(files.filter((f) => !allowed.some((re) => re.test(f)))).toEqual([]);
    // (backups rotate: only the newest ten are kept; a ledger's -wal and -shm go when it is closed,
    // which the server's sweep of idle ledgers does under this test's clock once a minute has passed)
    for (const f of dataFilesBefore.filter((x) => !x.startsWith('backups/') && !/-(wal|shm)$/.test(x)))
      expect(files).toContain(f);
    for (const op of operations)
      expect(stats.byOperation[op.operationId] ?? 0, `${op.method} ${op.path} was not fuzzed`).toBeGreaterThanOrEqual(
        RUNS,
      );
    for (const id of [main.id, other.id]) expect(checkLedgerFile(ledgerFile(t.dataDir, id)).problems).toEqual([]);
    expect((await t.api.get('/api/auth/me', main.token)).status).toBe(200);
    await recordResults('hostile_input', {
      operations: operations.length,
      fuzzed_without_a_valid_seed: operations
        .filter(
          (o) =>
            (o.jsonBody && Object.keys(seedBody(o)).length === 0) ||
            (o.pathParams.length > 0 && validIds(o).length === 0),
        )
        .map((o) => `${o.method} ${o.path}`),
      requests: stats.requests,
      answers: stats.byStatus,
      five_xx: stats.byStatus['5xx'] ?? 0,
    });
    expect(stats.byStatus['5xx']).toBeUndefined();
  });
});

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

describe('requests refused before the app sees them, and fields where none are taken', () => {
  /** Bytes straight onto a socket: what Node's HTTP parser refuses never reaches Express. */
  function rawSocket(bytes: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(t.server.port, '127.0.0.1', () => socket.end(bytes));
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (c: string) => (text += c));
      socket.on('end', () => resolve(text));
      socket.on('error', (error: NodeJS.ErrnoException) =>
        error.code === 'ECONNRESET' ? resolve(text) : reject(error),
      );
      socket.setTimeout(HANG_MS, () => reject(new Error('HANG')));
    });
  }
  const parse = (raw: string) => {
    const [head, body = ''] = raw.split('\r\n\r\n');
    return {
      status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? '')?.[1]),
      contentType: /content-type: ([^\r\n]+)/i.exec(head ?? '')?.[1],
      text: body,
      body: JSON.parse(body || 'null'),
    };
  };

  it('when the URL or a header is over 16 KiB, or the request is not HTTP, then the answer is still a JSON error (431 or 400)', async () => {
    const host = `Host: 127.0.0.1:${t.server.port}\r\n`;
    const cases: [string, string, number][] = [
      ['an overlong URL', `GET /api/accounts?q=${'x'.repeat(20_000)} HTTP/1.1\r\n${host}\r\n`, 431],
      ['an overlong header', `GET /api/accounts HTTP/1.1\r\n${host}X-Big: ${'y'.repeat(20_000)}\r\n\r\n`, 431],
      ['a request line that is not HTTP', `HELLO THERE\r\n\r\n`, 400],
      ['a NUL in the request line', `GET /api/acc\u0000ounts HTTP/1.1\r\n${host}\r\n`, 400],
      ['a bad Content-Length', `POST /api/accounts HTTP/1.1\r\n${host}Content-Length: -1\r\n\r\n`, 400],
      [
        'two Content-Lengths that disagree',
        `POST /api/accounts HTTP/1.1\r\n${host}Content-Length: 1\r\nContent-Length: 2\r\n\r\n{}`,
        400,
      ],
    ];
    for (const [what, bytes, status] of cases) {
      const res = parse(await rawSocket(bytes));
      expect(res.status, what).toBe(status);
      expect(errorShapeProblems(res), what).toEqual([]);
    }
    expect((await t.api.get('/api/auth/me', main.token)).status).toBe(200);
  });

  it('when a route that takes no query or no body is sent one, then it is 400 VALIDATION_ERROR naming the field, and nothing changes', async () => {
    const before = databaseDigest(ledgerFile(t.dataDir, main.id));
    const cases: [string, string, string | undefined, string][] = [
      ['GET', `/api/accounts/${seeds.bank}?page=2`, undefined, 'page'],
      ['GET', '/api/auth/me?x=1', undefined, 'x'],
      ['DELETE', `/api/statements/${seeds.statement}?force=true`, undefined, 'force'],
      ['POST', `/api/journal-entries/${seeds.draft}/post`, '{"status":"void"}', 'status'],
      ['POST', `/api/journal-entries/${seeds.draft}/post`, '[1]', 'body'],
    ];
    for (const [method, urlPath, body, field] of cases) {
      const res = await rawHttp(t.server.port, {
        method,
        path: urlPath,
        headers: { authorization: `Bearer ${main.token}`, 'content-type': 'application/json' },
        body,
      });
      expect(res.status, `${method} ${urlPath}: ${res.text}`).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect(databaseDigest(ledgerFile(t.dataDir, main.id))).toBe(before);
    // An empty JSON object is no field at all.
    const ok = await rawHttp(t.server.port, {
      path: `/api/accounts/${seeds.bank}`,
      headers: { authorization: `Bearer ${main.token}` },
    });
    expect(ok.status).toBe(200);
  });
});
