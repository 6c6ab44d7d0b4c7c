import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { registerUser, startTestServer, type TestServer } from './server.ts';
import { OpenApiValidator, type Operation } from './openapi.ts';

/**
 * The OpenAPI test's session (test/openapi.test.ts, its scenarios in test/openapi/): one server with
 * a seeded user, every request sent through `send` checked against the served document and counted
 * per operation in `observed`, and the seeds the scenarios use.
 */

export type Json = Record<string, any>;
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** Statuses no request can be made to produce on purpose: a fault of the server, a full disk. */
export const NOT_PRODUCIBLE: Record<number, string> = {
  500: 'a fault of the server (the hardening suite finds none)',
  507: 'a full disk (test/hardening/storage.test.ts fills one under a posting)',
};
/** 503 of the public writes: the identity file made unwritable under the server (storage.test.ts does it for the ledger). */
export const PUBLIC_UNAVAILABLE = new Set(['POST /api/auth/register', 'POST /api/auth/login']);

export let t: TestServer;
export let validator: OpenApiValidator;
export const observed = new Map<string, Set<number>>();
export const user = { id: '', token: '', email: '' };
export const ids: Record<string, string> = {};
export const csv = 'Date,Description,Amount\n2026-01-05,CARD 4411,-40.00\n2026-01-09,Unknown payee,-7.77\n';

export function record(op: Operation, answer: Answer): Answer {
  const problems = validator.problems(op, answer);
  expect(problems, `${op.key} ${JSON.stringify(problems)}`).toEqual([]);
  let seen = observed.get(op.key);
  if (!seen) observed.set(op.key, (seen = new Set()));
  seen.add(answer.status);
  return answer;
}

export interface Send {
  token?: string | null;
  json?: unknown;
  raw?: string | Uint8Array | FormData;
  contentType?: string;
  headers?: Record<string, string>;
  base?: string;
}

/** One request, its answer checked against the document and counted for its operation. */
export async function send(method: string, urlPath: string, options: Send = {}): Promise<Answer> {
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
export function oversized(op: Operation, urlPath: string, contentType: string): Promise<Answer> {
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
export function pathOf(op: Operation, idFor: (name: string) => string = seedId(op)): string {
  return op.template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const param = ((op.operation.parameters ?? []) as Json[]).find((p) => p.in === 'path' && p.name === name);
    const schema = (param?.schema ?? {}) as Json;
    const value = schema.format !== 'uuid' && name !== 'name' && schema.example ? String(schema.example) : idFor(name);
    return encodeURIComponent(value);
  });
}

export function seedId(op: Operation) {
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
export function requiredQuery(op: Operation): string {
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

export function withQuery(urlPath: string, ...parts: string[]): string {
  const query = parts.filter(Boolean).join('&');
  return query ? `${urlPath}?${query}` : urlPath;
}

export function requestBody(op: Operation): Json | undefined {
  return op.operation.requestBody as Json | undefined;
}

// ---------------------------------------------------------------------------------------------
// Seeds

export const spend = (amount: string, memo: string, autoPost: boolean) => ({
  entry_date: '2026-01-05',
  memo,
  auto_post: autoPost,
  lines: [
    { account_id: ids.food, direction: 'DEBIT', amount },
    { account_id: ids.bank, direction: 'CREDIT', amount },
  ],
});

/** The EUR/USD rate of a day. */
export const rate = (date: string, value: string) => ({ date, from: 'EUR', to: 'USD', rate: value });

export const SECURITY = { symbol: 'VTI', name: 'Vanguard Total Stock Market', currency: 'USD' };

/** A buy of VTI into Bank. */
export const buyVti = (units: string) => ({
  kind: 'buy',
  date: '2026-01-06',
  account_id: ids.bank,
  security_id: ids.security,
  cash_account_id: ids.bank,
  units,
  price: '200',
});

/** Rent every month from `start`, as a draft. */
export const monthly = (start: string) => ({
  name: 'Rent',
  frequency: 'monthly',
  start_date: start,
  lines: [
    { account_id: ids.food, direction: 'DEBIT', amount: '500.00' },
    { account_id: ids.bank, direction: 'CREDIT', amount: '500.00' },
  ],
});

/** A rule booking lines whose description holds `words` to Food. */
export const cornerRule = (words: string) => ({
  name: words,
  description: { op: 'contains', value: words },
  type: 'debit',
  account_id: ids.food,
});

/** A real PNG (test/fixtures/attachments). */
export const RECEIPT_PNG = new Uint8Array(
  fs.readFileSync(fileURLToPath(new URL('../fixtures/attachments/receipt.png', import.meta.url))),
);

/** A multipart upload of `bytes` as the part "file". */
export function attach(urlPath: string, bytes: Uint8Array<ArrayBuffer>, name: string): Promise<Answer> {
  const form = new FormData();
  form.set('file', new Blob([bytes]), name);
  return send('POST', urlPath, { raw: form });
}

export async function made(answer: Promise<Answer>, status: number): Promise<any> {
  const a = await answer;
  if (a.status !== status) throw new Error(`seeding: ${a.status} ${a.text}`);
  return a.body;
}

/** A match under review of its own: a posted entry, and a statement line that mirrors it under another name. */
export async function freshMatch(amount: string, description: string): Promise<{ id: string; version: number }> {
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
export async function freshStatement(...descriptions: string[]): Promise<{ id: string; txns: { id: string }[] }> {
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
export async function freshTill(): Promise<{ id: string; lines: string[] }> {
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

/** Starts the server, reads its document and seeds the user before the file's tests; stops it after them. */
export function useOpenApiSession(): void {
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
  });
}
