import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import Database from 'better-sqlite3';
import {
  TEST_SECRET,
  identityFile,
  registerUser,
  startTestServer,
  type Api,
  type TestServer,
} from '../../test/support/server.ts';
import { createApp } from './app.ts';
import { routeDefiner } from './route.ts';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

/** node:http, so that the Host header can be anything (fetch always sends the real one). */
function rawRequest(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: options.headers ?? {},
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** CONTRACT §3: JSON `{ detail, code?, errors? }`, nothing else, and no trace of the implementation. */
function expectErrorShape(
  res: { status: number; text: string; body: any; contentType: string | null | undefined },
  status: number,
  code?: string,
): void {
  expect(res.status).toBe(status);
  expect(res.contentType).toMatch(/^application\/json/);
  expect(typeof res.body?.detail).toBe('string');
  for (const key of Object.keys(res.body)) expect(['detail', 'code', 'errors']).toContain(key);
  if (code !== undefined) expect(res.body.code).toBe(code);
  expect(res.text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+|Error:|SqliteError|SELECT |INSERT /);
}

const asError = (r: RawResponse) => ({ ...r, contentType: r.headers['content-type'] });
const fetched = (r: { status: number; text: string; body: any; headers: Headers }) => ({
  ...r,
  contentType: r.headers.get('content-type'),
});

let t: TestServer;
let api: Api;
let port: number;
let token: string;

beforeAll(async () => {
  t = await startTestServer();
  api = t.api;
  port = t.server.port;
  ({ token } = await registerUser(api));
});
afterAll(() => t.stop());

describe('Host header (DNS rebinding)', () => {
  it('when the Host is a foreign name, then every path is 403 FORBIDDEN_HOST', async () => {
    for (const path of ['/', '/api/openapi.json', '/api/auth/me', '/api/nope']) {
      const res = await rawRequest(port, {
        path,
        headers: { host: `evil.example:${port}`, authorization: `Bearer ${token}` },
      });
      expectErrorShape(asError(res), 403, 'FORBIDDEN_HOST');
    }
  });

  it('when the Host is the loopback address with another port or without a port, then it is 403 FORBIDDEN_HOST', async () => {
    for (const host of [
      `127.0.0.1:${port + 1}`,
      `localhost:${port === 65535 ? 1 : port + 1}`,
      '127.0.0.1',
      'localhost',
      `0.0.0.0:${port}`,
    ]) {
      const res = await rawRequest(port, { path: '/api/openapi.json', headers: { host } });
      expectErrorShape(asError(res), 403, 'FORBIDDEN_HOST');
    }
  });

  it('when the Host is 127.0.0.1 or localhost with the server port, then the request is served', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LocalHost:${port}`]) {
      const res = await rawRequest(port, { path: '/api/auth/me', headers: { host, authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(res.body.access_token).toEqual(expect.any(String));
    }
  });
});

describe('Origin header and CORS', () => {
  const evil = { origin: 'http://evil.example' };

  it('when an /api request comes from a foreign Origin, then GET and POST are 403 FORBIDDEN_ORIGIN', async () => {
    const get = await api.request('GET', '/api/auth/me', { token, headers: evil });
    expectErrorShape(fetched(get), 403, 'FORBIDDEN_ORIGIN');
    const post = await api.request('POST', '/api/accounts', {
      token,
      headers: evil,
      body: { name: 'From evil', type: 'ASSET' },
    });
    expectErrorShape(fetched(post), 403, 'FORBIDDEN_ORIGIN');
    const list = await api.get('/api/accounts', token);
    expect(list.body.items.map((a: { name: string }) => a.name)).not.toContain('From evil');
  });

  it('when the path is written in another letter case, then a foreign Origin is still refused', async () => {
    const res = await api.request('GET', '/API/Auth/Me', { token, headers: evil });
    expectErrorShape(fetched(res), 403, 'FORBIDDEN_ORIGIN');
  });

  it('when the foreign-Origin requests are logins, then they are refused before they can use up the rate limit', async () => {
    const s = await startTestServer();
    try {
      const { email } = await registerUser(s.api);
      for (let i = 0; i < 7; i += 1) {
        const res = await s.api.request('POST', '/api/auth/login', {
          headers: evil,
          body: { email, password: 'guess' },
        });
        expect(res.status).toBe(403);
      }
      expect((await s.api.post('/api/auth/login', { email, password: 'correct horse battery' })).status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it("when the Origin is the app's own (127.0.0.1 or localhost with its port), then the request is served", async () => {
    for (const origin of [t.server.url, `http://localhost:${port}`]) {
      const res = await api.request('GET', '/api/auth/me', { token, headers: { origin } });
      expect(res.status).toBe(200);
    }
    const create = await api.request('POST', '/api/accounts', {
      token,
      headers: { origin: t.server.url },
      body: { name: 'Own origin', type: 'ASSET' },
    });
    expect(create.status).toBe(201);
  });

  it('when any answer is sent, including an OPTIONS preflight, then it carries no Access-Control-* header and no X-Powered-By', async () => {
    const answers = [
      await rawRequest(port, {
        method: 'OPTIONS',
        path: '/api/accounts',
        headers: {
          host: `127.0.0.1:${port}`,
          origin: 'http://evil.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      }),
      await rawRequest(port, {
        method: 'OPTIONS',
        path: '/api/accounts',
        headers: { host: `127.0.0.1:${port}`, origin: t.server.url, 'access-control-request-method': 'POST' },
      }),
      await rawRequest(port, {
        path: '/api/auth/me',
        headers: { host: `127.0.0.1:${port}`, origin: t.server.url, authorization: `Bearer ${token}` },
      }),
      await rawRequest(port, {
        path: '/api/auth/me',
        headers: { host: `127.0.0.1:${port}`, origin: 'http://evil.example' },
      }),
      await rawRequest(port, { path: '/api/openapi.json', headers: { host: `127.0.0.1:${port}` } }),
      await rawRequest(port, { path: '/api/nope', headers: { host: `127.0.0.1:${port}` } }),
      await rawRequest(port, { path: '/', headers: { host: `127.0.0.1:${port}` } }),
      await rawRequest(port, { path: '/', headers: { host: 'evil.example' } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([403, 404, 200, 403, 200, 404, 200, 403]);
    for (const res of answers) {
      expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('when any answer is sent, refusals included, then it carries nosniff, no-referrer, DENY and same-origin, and API answers (any letter case) are no-store', async () => {
    const host = `127.0.0.1:${port}`;
    const answers = [
      await rawRequest(port, { path: '/api/auth/me', headers: { host, authorization: `Bearer ${token}` } }),
      await rawRequest(port, { path: '/API/auth/me', headers: { host, authorization: `Bearer ${token}` } }),
      await rawRequest(port, { path: '/api/auth/me', headers: { host, origin: 'http://evil.example' } }),
      await rawRequest(port, { path: '/api/nope', headers: { host } }),
      await rawRequest(port, { path: '/api/accounts', headers: { host: 'evil.example' } }),
      await rawRequest(port, { path: '/', headers: { host } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 403, 404, 403, 200]);
    for (const res of answers) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
    expect(answers.map((a) => a.headers['cache-control'])).toEqual([
      'no-store',
      'no-store',
      'no-store',
      'no-store',
      'no-store',
      undefined,
    ]);
  });
});

describe('Content-Security-Policy', () => {
  it('when the built interface is served, then every answer carries the policy: /index.html as a static file, /, a screen path, a script, and an error', async () => {
    const dir = fs.mkdtempSync(`${os.tmpdir()}/ledger-renderer-`);
    fs.writeFileSync(
      `${dir}/index.html`,
      '<!doctype html><title>Personal Ledger</title><script src="/assets/app.js"></script>',
    );
    fs.mkdirSync(`${dir}/assets`);
    fs.writeFileSync(`${dir}/assets/app.js`, 'console.log(1)');
    const s = await startTestServer({ rendererDir: dir });
    try {
      const host = `127.0.0.1:${s.server.port}`;
      const pages = ['/index.html', '/', '/journal', '/assets/app.js', '/api/nope', '/api/openapi.json'];
      const answers = await Promise.all(pages.map((path) => rawRequest(s.server.port, { path, headers: { host } })));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 404, 200]);
      expect(answers[0]!.headers['content-type']).toMatch(/^text\/html/);
      for (const [i, res] of answers.entries()) {
        const policy = res.headers['content-security-policy'];
        expect(policy, pages[i]).toBeDefined();
        expect(policy).toContain("frame-ancestors 'none'");
        if (pages[i]!.startsWith('/api')) expect(policy).toMatch(/^default-src 'none'/);
        else expect(policy).toContain("script-src 'self'");
      }
      const refused = await rawRequest(s.server.port, { path: '/index.html', headers: { host: 'evil.example' } });
      expect(refused.status).toBe(403);
      expect(refused.headers['content-security-policy']).toContain("script-src 'self'");
    } finally {
      await s.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('listening address', () => {
  const external = Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a !== undefined && !a.internal && a.family === 'IPv4');

  it('when the server starts, then its URL is on 127.0.0.1', () => {
    expect(t.server.url).toBe(`http://127.0.0.1:${port}`);
  });

  it("when a client connects to the machine's non-loopback address, then the connection is refused", async (ctx) => {
    if (!external) ctx.skip('this machine has no non-loopback IPv4 address to try');
    const address = external!.address;
    const connect = (p: number) =>
      new Promise<void>((resolve, reject) => {
        const socket = net.connect({ host: address, port: p, timeout: 5000 });
        socket.once('connect', () => {
          socket.destroy();
          resolve();
        });
        socket.once('timeout', () => {
          socket.destroy();
          reject(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' }));
        });
        socket.once('error', reject);
      });
    // A control server on all interfaces proves the address is reachable at all.
    const control = net.createServer((s) => s.destroy()).listen(0, '0.0.0.0');
    await once(control, 'listening');
    try {
      await connect((control.address() as AddressInfo).port);
    } finally {
      control.close();
    }
    await expect(connect(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('request bodies and the error shape', () => {
  it('when the body is not valid JSON, then it is 400 MALFORMED_JSON', async () => {
    for (const rawBody of ['{"email": "a@example.com",', '{email: 1}', "{'a': 1}", 'undefined']) {
      const res = await api.request('POST', '/api/accounts', {
        token,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expectErrorShape(fetched(res), 400, 'MALFORMED_JSON');
    }
  });

  it('when a JSON body is sent as text/plain or form data, then it is 415 UNSUPPORTED_MEDIA_TYPE and nothing is created', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await api.request('POST', '/api/accounts', {
        token,
        rawBody: JSON.stringify({ name: `Sent as ${type}`, type: 'ASSET' }),
        headers: { 'content-type': type },
      });
      expectErrorShape(fetched(res), 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    const list = await api.get('/api/accounts?per_page=100', token);
    expect(list.body.items.map((a: { name: string }) => a.name).filter((n: string) => n.startsWith('Sent as'))).toEqual(
      [],
    );
  });

  it('when the JSON body is over 1 MiB, then it is 413 PAYLOAD_TOO_LARGE; at exactly 1 MiB it is read and validated', async () => {
    const bodyOf = (size: number) => {
      const frame = JSON.stringify({ name: '', type: 'ASSET' });
      return JSON.stringify({ name: 'n'.repeat(size - frame.length), type: 'ASSET' });
    };
    const atLimit = bodyOf(1024 * 1024);
    expect(Buffer.byteLength(atLimit)).toBe(1024 * 1024);
    const read = await api.request('POST', '/api/accounts', {
      token,
      rawBody: atLimit,
      headers: { 'content-type': 'application/json' },
    });
    expectErrorShape(fetched(read), 400, 'VALIDATION_ERROR');
    expect(read.body.errors).toEqual([{ field: 'name', message: expect.any(String) }]);

    const over = await api.request('POST', '/api/accounts', {
      token,
      rawBody: bodyOf(1024 * 1024 + 1),
      headers: { 'content-type': 'application/json' },
    });
    expectErrorShape(fetched(over), 413, 'PAYLOAD_TOO_LARGE');
    const unauthenticated = await api.request('POST', '/api/auth/login', {
      rawBody: bodyOf(2 * 1024 * 1024),
      headers: { 'content-type': 'application/json' },
    });
    expectErrorShape(fetched(unauthenticated), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('when the body is gzip-compressed, then it is read; when it claims gzip but is not, then it is 400, not 500', async () => {
    const json = JSON.stringify({ name: 'Compressed', type: 'ASSET' });
    const good = await rawRequest(port, {
      method: 'POST',
      path: '/api/accounts',
      headers: {
        host: `127.0.0.1:${port}`,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body: zlib.gzipSync(json),
    });
    expect(good.status).toBe(201);
    const bad = await rawRequest(port, {
      method: 'POST',
      path: '/api/accounts',
      headers: {
        host: `127.0.0.1:${port}`,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body: json,
    });
    expectErrorShape(asError(bad), 400, 'MALFORMED_JSON');
  });

  it('when an /api path does not exist, then it is a JSON 404 NOT_FOUND for any method', async () => {
    for (const [method, path] of [
      ['GET', '/api/nope'],
      ['POST', '/api/nope'],
      ['GET', '/api'],
      ['DELETE', '/api/auth/me'],
      ['PATCH', '/api/accounts'],
    ] as const) {
      const res = await api.request(method, path, { token });
      expectErrorShape(fetched(res), 404, 'NOT_FOUND');
    }
  });

  it('when a path parameter is not valid percent-encoding, then it is 404 NOT_FOUND, not a 500', async () => {
    for (const path of ['/api/accounts/%E0%A4%A', '/api/journal-entries/%ZZ', '/api/accounts/%/balance']) {
      const res = await api.get(path, token);
      expectErrorShape(fetched(res), 404, 'NOT_FOUND');
    }
  });

  it('when a validation error is answered, then it names each field by its path', async () => {
    const res = await api.post(
      '/api/journal-entries',
      { entry_date: '2026-02-30', lines: [{ account_id: 'x', direction: 'UP', amount: 1 }, {}] },
      token,
    );
    expectErrorShape(fetched(res), 400, 'VALIDATION_ERROR');
    const fields = res.body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'entry_date',
        'lines.0.direction',
        'lines.0.amount',
        'lines.1.account_id',
        'lines.1.direction',
      ]),
    );
  });
});

describe('unexpected errors', () => {
  let server: http.Server;
  let appPort = 0;
  const logs: string[] = [];

  beforeAll(async () => {
    const boom = (async: boolean) =>
      routeDefiner()({
        method: 'get',
        path: async ? '/api/boom-async' : '/api/boom',
        tag: 'test',
        summary: 'throws',
        auth: false,
        responses: [],
        handler: async
          ? async () => {
              await Promise.resolve();
              throw new Error('SELECT password_hash FROM users failed');
            }
          : () => {
              throw new Error('SELECT password_hash FROM users failed');
            },
      });
    const app = createApp({
      routes: [boom(false), boom(true)],
      token: { secret: TEST_SECRET, expireMinutes: 5 },
      openSession: () => undefined,
      trustProxy: false,
      port: () => appPort,
      rendererDir: null,
      log: (line) => logs.push(line),
    });
    server = http.createServer(app).listen(0, '127.0.0.1');
    await once(server, 'listening');
    appPort = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('when a handler throws, then the answer is a generic 500 INTERNAL_ERROR, the log has the request id and the stack, and the server keeps serving', async () => {
    for (const path of ['/api/boom', '/api/boom-async']) {
      logs.length = 0;
      const res = await rawRequest(appPort, { path, headers: { host: `127.0.0.1:${appPort}` } });
      expectErrorShape(asError(res), 500, 'INTERNAL_ERROR');
      expect(res.text).not.toContain('password_hash');
      const id = /request ([0-9a-f-]{36})/.exec(res.body.detail)?.[1];
      expect(id).toBeDefined();
      expect(logs).toHaveLength(1);
      expect(logs[0]).toContain(id);
      expect(logs[0]).toContain('SELECT password_hash FROM users failed');
      expect(logs[0]).toMatch(/\n\s+at /);
    }
    const after = await rawRequest(appPort, { path: '/api/nothing-here', headers: { host: `127.0.0.1:${appPort}` } });
    expectErrorShape(asError(after), 404, 'NOT_FOUND');
  });
});

describe('OpenAPI description', () => {
  let doc: any;
  beforeAll(async () => {
    const res = await api.get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = res.body;
  });

  const specRoutes: [string, string][] = [
    ['post', '/api/auth/register'],
    ['post', '/api/auth/login'],
    ['get', '/api/auth/me'],
    ['get', '/api/accounts'],
    ['post', '/api/accounts'],
    ['get', '/api/accounts/{id}'],
    ['put', '/api/accounts/{id}'],
    ['get', '/api/accounts/{id}/balance'],
    ['get', '/api/accounts/balances'],
    ['get', '/api/journal-entries'],
    ['post', '/api/journal-entries'],
    ['get', '/api/journal-entries/{id}'],
    ['put', '/api/journal-entries/{id}'],
    ['post', '/api/journal-entries/{id}/post'],
    ['post', '/api/journal-entries/{id}/void'],
  ];

  it('when it is fetched, then it is an OpenAPI 3.1.0 document with a title and version', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
  });

  it('when it is read, then it has every route of spec §4.1–4.3 with its method, responses and path parameters', () => {
    const missing = specRoutes.filter(([method, path]) => !doc.paths?.[path]?.[method]);
    expect(missing).toEqual([]);
    for (const [method, path] of specRoutes) {
      const operation = doc.paths[path][method];
      expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
      for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
        expect(operation.parameters).toContainEqual(expect.objectContaining({ name, in: 'path', required: true }));
      }
    }
  });

  it('when it is read, then register and login are public (an empty security list) and every other spec route requires the bearer token', () => {
    for (const [method, path] of specRoutes) {
      const security = doc.paths[path][method].security;
      if (path === '/api/auth/register' || path === '/api/auth/login') expect(security).toEqual([]);
      else expect(security).toEqual([{ bearer: [] }]);
    }
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('when it is read, then every $ref resolves inside the document and operation ids are unique', () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') refs.push(value);
          else walk(value);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(0);
    const resolve = (ref: string): unknown => {
      if (!ref.startsWith('#/')) return undefined;
      let node: any = doc;
      for (const part of ref
        .slice(2)
        .split('/')
        .map((p) => decodeURIComponent(p).replaceAll('~1', '/').replaceAll('~0', '~'))) {
        if (node === null || typeof node !== 'object' || !(part in node)) return undefined;
        node = node[part];
      }
      return node;
    };
    expect(refs.filter((r) => resolve(r) === undefined)).toEqual([]);
    const ids = Object.values(doc.paths).flatMap((ops: any) => Object.values(ops).map((op: any) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('shutting down', () => {
  it('when close() is called while a request is in flight, then that request finishes, then new connections are refused and server.json is gone', async () => {
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    // The register route reads the rate-limit clock first thing: that is the moment the request is in flight.
    // A grace no loaded machine reaches: the request must end by finishing, not by the cut-off.
    const s = await startTestServer({
      bcryptCost: 10,
      now: () => (arrived(), Date.now()),
      shutdownGraceMs: 10 * 60_000,
    });
    try {
      const pending = s.api.post('/api/auth/register', {
        email: 'in-flight@example.com',
        name: 'In Flight',
        password: 'correct horse battery',
      });
      await arrival;
      // Which way the connections end: the idle ones closed at once, the in-flight one right after its
      // response (closeIdleConnections once more), not by the cut-off that ends whatever is still open.
      const idleCloses = vi.spyOn(http.Server.prototype, 'closeIdleConnections');
      const cutOffs = vi.spyOn(http.Server.prototype, 'closeAllConnections');
      const closed = s.server.close();
      const atClose = idleCloses.mock.calls.length;
      const res = await pending;
      expect(res.status).toBe(201);
      await closed;
      expect(idleCloses.mock.calls.length).toBeGreaterThan(atClose);
      expect(cutOffs).not.toHaveBeenCalled();
      idleCloses.mockRestore();
      cutOffs.mockRestore();
      await expect(fetch(`${s.server.url}/api/openapi.json`)).rejects.toThrow();
      expect(fs.existsSync(`${s.dataDir}/server.json`)).toBe(false);
      const db = new Database(identityFile(s.dataDir), { readonly: true });
      expect(db.prepare('SELECT email FROM users').all()).toEqual([{ email: 'in-flight@example.com' }]);
      db.close();
    } finally {
      fs.rmSync(s.dataDir, { recursive: true, force: true });
    }
  });
});
