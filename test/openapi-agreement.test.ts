import crypto from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBooks } from './support/books.ts';
import { SchemaCases } from './support/schema-cases.ts';
import {
  identityFile,
  ledgerFile,
  registerUser,
  startTestServer,
  watchDigest,
  type ApiResponse,
  type TestServer,
} from './support/server.ts';
import { CLOSED_OLLAMA, errorShapeProblems, tempDir } from './hardening/support.ts';

/**
 * The document says what the server checks, and the server checks what the document says. Every
 * operation of the served OpenAPI document is called over HTTP with requests made from its own
 * schemas (test/support/schema-cases.ts), never from a list of routes kept here:
 * - for each path and query parameter and the JSON body, values the declared schema refuses (its
 *   format, pattern, length, bounds, enum, type; a required field left out, an unknown one added):
 *   each is a 4xx in the error shape, and the user's ledger and the identity file are unchanged;
 * - a body in a media type the operation does not list is 415 UNSUPPORTED_MEDIA_TYPE, and a body
 *   sent to an operation that takes none is a 4xx; neither changes anything;
 * - values the declared schemas allow are never a 400 VALIDATION_ERROR, a 415 for their media type, or a
 *   500 (another 5xx, a relay out of reach, is the world's answer, not the request's).
 * Each answer is also checked against the document (test/support/server.ts). The work is bounded:
 * at most VIOLATIONS refused and SATISFIED allowed requests per operation.
 */

/**
 * The server's rules that JSON Schema cannot state, by the field message they answer with, and the
 * words the operation's part of the document says each in: a request the schemas allow may still
 * break one, and is then refused in words the document has.
 */
const RULES_IN_WORDS: [message: RegExp, said: RegExp][] = [
  // two fields compared; two query parameters, one of which goes alone
  [/^must differ from /, /other than `from`/],
  [/^give month or year, not both$/, /give month or year, not both/],
  // a day counted from today
  [/^must be between \d{4}-\d{2}-\d{2} and /, /from today to until/],
  // a text that is something else's name (a symbol is no currency code)
  [/^must not be a currency code$/, /not a currency code/],
  // the content of a JSON text in a query parameter, or of a file
  [/^is not valid JSON$/, /\(JSON\)/],
  [/^the header row lacks /, /header/],
  // what the ledger holds: a thing the request names, a budget to copy
  [/^no such /, /VALIDATION_ERROR/],
  [/^the source is empty$/, /the source is empty/],
];

const VIOLATIONS = 24;
const SATISFIED = 6;
/** How many refused values of one parameter or of the body's properties, each. */
const PER_PARAMETER = 3;

type Json = Record<string, any>;
const PASSWORD = 'correct horse battery';

interface Request {
  what: string;
  path: Record<string, string>;
  query: Record<string, string>;
  /** JSON to send as application/json, or bytes in a media type; none when absent. */
  json?: unknown;
  raw?: { contentType: string; bytes: string };
}

let t: TestServer;
let doc: Json;
let cases: SchemaCases;
const outer = tempDir('agreement');
const user = { id: '', email: '' };
let clock = Date.now();
let books: ReturnType<typeof watchDigest>;
let identity: ReturnType<typeof watchDigest>;

beforeAll(async () => {
  // The rate limits' clock jumps an hour a request, so that register and login are validated, not limited.
  t = await startTestServer({
    dataDir: path.join(outer, 'data'),
    env: { OLLAMA_HOST: CLOSED_OLLAMA },
    now: () => (clock += 3_600_001),
  });
  const registered = await registerUser(t.api, 'Agreement');
  Object.assign(user, { id: registered.id, email: registered.email });
  await writeBooks(
    t.api,
    registered.token,
    `
account Checking   ; type: ASSET
account Food       ; type: EXPENSE
account Salary     ; type: INCOME

2026-01-05 * Pay
    Checking      3000.00
    Salary

2026-01-15 ! Lunch
    Food            12.50
    Checking
`,
  );
  doc = (await t.api.get('/api/openapi.json')).body as Json;
  cases = new SchemaCases(doc);
  books = watchDigest(ledgerFile(t.dataDir, user.id));
  identity = watchDigest(identityFile(t.dataDir));
});

afterAll(async () => {
  books?.close();
  identity?.close();
  await t?.stop();
});

interface Operation {
  key: string;
  method: string;
  template: string;
  operation: Json;
}

function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [template, item] of Object.entries<Json>(doc.paths))
    for (const [method, operation] of Object.entries<Json>(item))
      out.push({ key: `${method.toUpperCase()} ${template}`, method: method.toUpperCase(), template, operation });
  return out;
}

function parameters(op: Operation, where: 'path' | 'query'): Json[] {
  return ((op.operation.parameters ?? []) as Json[]).filter((p) => p.in === where);
}

/** The media type a file operation takes that is not multipart (a file's bytes as they are), or multipart. */
function fileType(body: Json): string {
  return Object.keys(body.content as Json).find((type) => type !== 'multipart/form-data') ?? 'multipart/form-data';
}

function multipart(bytes: string): { contentType: string; bytes: string } {
  const boundary = 'agreement-boundary';
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    bytes: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.txt"\r\nContent-Type: text/plain\r\n\r\n${bytes}\r\n--${boundary}--\r\n`,
  };
}

/** A request each of whose parts the document allows: the required ones, or every one (`all`). */
function allowed(op: Operation, all: boolean): Request | string {
  const request: Request = { what: all ? 'every field allowed' : 'the required fields allowed', path: {}, query: {} };
  for (const where of ['path', 'query'] as const) {
    for (const p of parameters(op, where)) {
      if (where === 'query' && !p.required && !all) continue;
      const value = cases.satisfying(p.schema as Json);
      if (value === undefined) return `no value of ${where} parameter ${p.name} fits its schema`;
      request[where][p.name] = String(value);
    }
  }
  const body = op.operation.requestBody as Json | undefined;
  const json = body?.content?.['application/json']?.schema as Json | undefined;
  if (json) {
    const value = cases.satisfying(json, all);
    if (value === undefined) return 'no body fits its schema';
    request.json = value;
  } else if (body) {
    const type = fileType(body);
    request.raw = type === 'multipart/form-data' ? multipart('x') : { contentType: type, bytes: 'x' };
  }
  return request;
}

/** Requests the document refuses, one part broken at a time from `base`; the statuses each may answer. */
function refused(op: Operation, base: Request): { request: Request; expect: 'client-error' | 415 }[] {
  const out: { request: Request; expect: 'client-error' | 415 }[] = [];
  for (const where of ['path', 'query'] as const) {
    for (const p of parameters(op, where)) {
      for (const bad of cases.violating(p.schema as Json, base[where][p.name], 'text', PER_PARAMETER)) {
        const request = { ...base, [where]: { ...base[where], [p.name]: String(bad) } };
        out.push({
          request: { ...request, what: `${where} ${p.name}=${String(bad).slice(0, 40)}` },
          expect: 'client-error',
        });
      }
      if (where === 'query' && p.required) {
        const { [p.name]: _left, ...query } = base.query;
        out.push({ request: { ...base, query, what: `query ${p.name} left out` }, expect: 'client-error' });
      }
    }
  }
  const body = op.operation.requestBody as Json | undefined;
  const json = body?.content?.['application/json']?.schema as Json | undefined;
  if (json) {
    for (const bad of cases.violating(json, base.json, 'json', VIOLATIONS))
      out.push({
        request: { ...base, json: bad, what: `body ${JSON.stringify(bad).slice(0, 120)}` },
        expect: 'client-error',
      });
    const text = JSON.stringify(base.json);
    out.push({
      request: {
        ...base,
        json: undefined,
        raw: { contentType: 'text/plain', bytes: text },
        what: 'the body as text/plain',
      },
      expect: 415,
    });
  } else if (body) {
    const raw = { contentType: 'application/x-unlisted', bytes: 'x' };
    out.push({ request: { ...base, raw, what: 'a file in a media type not listed' }, expect: 415 });
  } else if (op.method !== 'GET') {
    // (fetch sends no body with a GET)
    out.push({
      request: {
        ...base,
        raw: { contentType: 'text/plain', bytes: 'x' },
        what: 'a text body on an operation without one',
      },
      expect: 'client-error',
    });
    out.push({
      request: { ...base, json: { x: 1 }, what: 'a JSON body on an operation without one' },
      expect: 'client-error',
    });
  }
  // the body's (a property broken, often many) come last: cut down to the bound, each kind keeps its first
  return out.slice(0, VIOLATIONS);
}

function urlOf(op: Operation, request: Request): string {
  const pathText = op.template.replace(/\{(\w+)\}/g, (_m, name: string) =>
    encodeURIComponent(request.path[name] ?? ''),
  );
  const query = new URLSearchParams(request.query).toString();
  return query ? `${pathText}?${query}` : pathText;
}

async function call(op: Operation, request: Request, token: string | undefined): Promise<ApiResponse> {
  const secured = (op.operation.security as unknown[]).length > 0;
  const headers: Record<string, string> = {};
  if (request.raw) headers['content-type'] = request.raw.contentType;
  return t.api.request(op.method, urlOf(op, request), {
    token: secured ? token : undefined,
    headers,
    ...(request.raw ? { rawBody: request.raw.bytes } : request.json !== undefined ? { body: request.json } : {}),
  });
}

/** A session of its own for each operation: one of them (logout) ends the session it is called with. */
async function login(): Promise<string> {
  const res = await t.api.post('/api/auth/login', { email: user.email, password: PASSWORD });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${res.text}`);
  return res.body.access_token as string;
}

describe('the document and the server agree on what a request may be', () => {
  it('when a request breaks what its operation declares, then it is a 4xx in the error shape that changes nothing; when it keeps to it, then it is never a VALIDATION_ERROR', async () => {
    const problems: string[] = [];
    let refusedCount = 0;
    let allowedCount = 0;
    for (const op of operations()) {
      const token = await login();
      const base = allowed(op, false);
      if (typeof base === 'string') {
        problems.push(`${op.key}: ${base}`);
        continue;
      }
      for (const { request, expect: expected } of refused(op, base)) {
        const before = [books.digest(), identity.digest()];
        const res = await call(op, request, token);
        refusedCount += 1;
        const where = `${op.key} ${request.what}: ${res.status} ${res.text.slice(0, 160)}`;
        if (expected === 415 && (res.status !== 415 || res.body?.code !== 'UNSUPPORTED_MEDIA_TYPE'))
          problems.push(`${where} (expected 415)`);
        else if (res.status < 400 || res.status > 499) problems.push(`${where} (expected a 4xx)`);
        else {
          const shape = errorShapeProblems({ ...res, contentType: res.headers.get('content-type') ?? undefined });
          if (shape.length > 0) problems.push(`${where}: ${shape.join(', ')}`);
          if (books.digest() !== before[0]) problems.push(`${where}: the books changed`);
          if (identity.digest() !== before[1]) problems.push(`${where}: the identity file changed`);
        }
      }
      const every = allowed(op, true);
      const kept = [base, ...(typeof every === 'string' ? [] : [every])];
      // each optional query parameter alone, beside the required ones
      if (typeof every !== 'string')
        for (const [name, value] of Object.entries(every.query))
          if (!(name in base.query))
            kept.push({ ...base, query: { ...base.query, [name]: value }, what: `query ${name}=${value}` });
      for (const request of kept.slice(0, SATISFIED)) {
        const res = await call(op, request, token);
        allowedCount += 1;
        const errors = (res.body?.errors ?? []) as { message: string }[];
        const said = JSON.stringify(op.operation);
        const inWords =
          errors.length > 0 &&
          errors.every((e) => RULES_IN_WORDS.some(([rule, words]) => rule.test(e.message) && words.test(said)));
        // a file's bytes may be refused as 415 (not a receipt's kind), its media type may not
        const mediaType = res.status === 415 && /^Send the (file|request body) as /.test(res.body?.detail ?? '');
        if (
          (res.status === 400 && res.body?.code === 'VALIDATION_ERROR' && !inWords) ||
          mediaType ||
          res.status === 500
        )
          problems.push(
            `${op.key} ${request.what} ${JSON.stringify(request.json ?? request.query).slice(0, 200)}: ${res.status} ${res.text.slice(0, 200)}`,
          );
      }
    }
    expect(problems).toEqual([]);
    // the walk reached every operation's parameters and bodies, not a few
    expect(refusedCount).toBeGreaterThan(operations().length * 2);
    expect(allowedCount).toBeGreaterThanOrEqual(operations().length);
  });
});

// A password the document allows is one the server takes: a register with each byte bound's edge.
describe('passwords', () => {
  it('when a password is 8 bytes of 4 characters or 72 ASCII characters, then the document allows it and the server takes it', async () => {
    const schema = doc.paths['/api/auth/register'].post.requestBody.content['application/json'].schema as Json;
    for (const password of ['éééé', 'p'.repeat(72)]) {
      const body = { email: `edge-${crypto.randomUUID().slice(0, 8)}@example.com`, name: 'Edge', password };
      expect(cases.fits(schema, body), password).toBe(true);
      expect((await t.api.post('/api/auth/register', body)).status, password).toBe(201);
    }
  });
});
