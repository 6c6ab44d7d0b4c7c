import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { registerUser, startTestServer } from '../../test/support/server.ts';
import { api, port, t, token, useAppServer } from '../../test/support/app-server.ts';
import { asError, expectErrorShape, fetched, rawRequest } from '../../test/support/raw-http.ts';

useAppServer();

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
