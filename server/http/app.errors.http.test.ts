import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECRET } from '../../test/support/server.ts';
import { createApp } from './app.ts';
import { routeDefiner } from './route.ts';
import { api, port, token, useAppServer } from '../../test/support/app-server.ts';
import { asError, expectErrorShape, fetched, rawRequest } from '../../test/support/raw-http.ts';

useAppServer();

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
