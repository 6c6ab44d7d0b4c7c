import http from 'node:http';
import fs from 'node:fs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import Database from 'better-sqlite3';
import { identityFile, startTestServer } from '../../test/support/server.ts';
import { api, useAppServer } from '../../test/support/app-server.ts';

useAppServer();

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
