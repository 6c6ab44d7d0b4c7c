import fs from 'node:fs';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import Database from 'better-sqlite3';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_SECRET,
  databaseDigest,
  identityFile,
  registerUser,
  startTestServer,
  type Api,
  type TestServer,
} from '../../../test/support/server.ts';
import type { StartServerOptions } from '../../index.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const PASSWORD = 'correct horse battery';
const BAD_CREDENTIALS = { detail: 'Could not validate credentials' };
const NOT_AUTHENTICATED = { detail: 'Not authenticated' };
const INVALID_LOGIN = { detail: 'Invalid email or password' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A test server whose rate limits run on a clock the test moves. */
interface ClockedServer extends TestServer {
  advance(ms: number): void;
}

async function startClocked(options: Partial<StartServerOptions> = {}): Promise<ClockedServer> {
  let clock = Date.parse('2026-01-15T09:00:00Z');
  const t = await startTestServer({ now: () => clock, ...options });
  return Object.assign(t, { advance: (ms: number) => void (clock += ms) });
}

function claims(token: string): jwt.JwtPayload {
  return jwt.verify(token, TEST_SECRET, { algorithms: ['HS256'] }) as jwt.JwtPayload;
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function ledgerNames(dataDir: string): string[] {
  return fs
    .readdirSync(path.join(dataDir, 'ledgers'))
    .filter((f) => f.endsWith('.sqlite'))
    .sort();
}

let uniq = 0;
const freshEmail = (prefix = 'person') => `${prefix}${++uniq}-${Date.now()}@example.com`;

let t: ClockedServer;
let api: Api;

beforeAll(async () => {
  t = await startClocked();
  api = t.api;
});
afterAll(() => t.stop());

/** Moves past the register and login windows so a test's attempts are not rate limited. */
function newWindow(): void {
  t.advance(2 * HOUR);
}

describe('registering', () => {
  it('when a user registers, then it is 201 with id, trimmed lower-cased email, name, created_at and a working token', async () => {
    newWindow();
    const before = Date.now();
    const res = await api.post('/api/auth/register', {
      email: '  Ada.Lovelace@Example.COM ',
      name: ' Ada Lovelace ',
      password: PASSWORD,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      email: 'ada.lovelace@example.com',
      name: 'Ada Lovelace',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
      access_token: expect.any(String),
      token_type: 'bearer',
    });
    const created = Date.parse(res.body.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 1000);
    expect(created).toBeLessThanOrEqual(Date.now() + 1000);
    expect(claims(res.body.access_token).sub).toBe(res.body.id);

    const me = await api.get('/api/auth/me', res.body.access_token);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ ...res.body, access_token: expect.any(String) });
    expect(claims(me.body.access_token).sub).toBe(res.body.id);
  });

  it('when a user registers, then the password is kept only as a bcrypt hash and never returned', async () => {
    newWindow();
    const email = freshEmail();
    const reg = await api.post('/api/auth/register', { email, name: 'Hash Check', password: PASSWORD });
    expect(reg.status).toBe(201);
    const login = await api.post('/api/auth/login', { email, password: PASSWORD });
    const me = await api.get('/api/auth/me', reg.body.access_token);

    const db = new Database(identityFile(t.dataDir), { readonly: true });
    const row = db.prepare('SELECT password_hash FROM users WHERE id = ?').get(reg.body.id) as {
      password_hash: string;
    };
    db.close();
    expect(row.password_hash).toMatch(/^\$2[ab]\$04\$/); // the test server's cost
    expect(await bcrypt.compare(PASSWORD, row.password_hash)).toBe(true);
    for (const res of [reg, login, me]) {
      expect(Object.keys(res.body).sort()).toEqual(['access_token', 'created_at', 'email', 'id', 'name', 'token_type']);
      expect(res.text).not.toContain(PASSWORD);
      expect(res.text).not.toContain(row.password_hash);
      expect(res.text).not.toMatch(/password/i);
    }
  });

  it('when the server runs with its default settings, then passwords are hashed with bcrypt cost 12', async () => {
    const d = await startTestServer({ bcryptCost: undefined });
    try {
      const { id } = await registerUser(d.api);
      const db = new Database(identityFile(d.dataDir), { readonly: true });
      const row = db.prepare('SELECT password_hash FROM users WHERE id = ?').get(id) as { password_hash: string };
      db.close();
      expect(row.password_hash).toMatch(/^\$2[ab]\$12\$[./A-Za-z0-9]{53}$/);
      expect(row.password_hash).not.toContain(PASSWORD);
    } finally {
      await d.stop();
    }
  });

  it('when the email is already registered in any letter case, then it is 409 EMAIL_TAKEN and nothing is stored', async () => {
    newWindow();
    const email = freshEmail('Dup');
    expect((await api.post('/api/auth/register', { email, name: 'First', password: PASSWORD })).status).toBe(201);
    const digest = databaseDigest(identityFile(t.dataDir));
    const ledgers = ledgerNames(t.dataDir);
    for (const variant of [email, email.toUpperCase(), `  ${email.toLowerCase()}  `]) {
      newWindow();
      const res = await api.post('/api/auth/register', {
        email: variant,
        name: 'Second',
        password: 'another password',
      });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: expect.any(String), code: 'EMAIL_TAKEN' });
    }
    expect(databaseDigest(identityFile(t.dataDir))).toBe(digest);
    expect(ledgerNames(t.dataDir)).toEqual(ledgers);
    newWindow();
    const login = await api.post('/api/auth/login', { email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.name).toBe('First');
  });

  it('when the same email is registered twice at the same moment, then exactly one succeeds and the other is 409 EMAIL_TAKEN', async () => {
    newWindow();
    const email = freshEmail('race');
    const ledgers = ledgerNames(t.dataDir);
    const results = await Promise.all([
      api.post('/api/auth/register', { email, name: 'Racer A', password: PASSWORD }),
      api.post('/api/auth/register', { email: email.toUpperCase(), name: 'Racer B', password: PASSWORD }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe('EMAIL_TAKEN');
    const winner = results.find((r) => r.status === 201)!.body;
    expect(ledgerNames(t.dataDir)).toEqual([...ledgers, `${winner.id}.sqlite`].sort());
    const db = new Database(identityFile(t.dataDir), { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM users WHERE email = ?').get(email.toLowerCase())).toEqual({ n: 1 });
    db.close();
  });

  it('when the password is 8 to 72 bytes of multi-byte characters, then it is accepted and logs in', async () => {
    for (const password of ['éééé' /* 4 characters, 8 bytes */, 'é'.repeat(36) /* 72 bytes */]) {
      newWindow();
      const email = freshEmail();
      expect((await api.post('/api/auth/register', { email, name: 'Bytes', password })).status).toBe(201);
      expect((await api.post('/api/auth/login', { email, password })).status).toBe(200);
    }
  });

  const valid = { email: 'valid@example.com', name: 'Valid Name', password: PASSWORD };
  const invalidBodies: [string, unknown, string[]][] = [
    ['an address without a domain', { ...valid, email: 'not-an-email' }, ['email']],
    ['an address without a local part', { ...valid, email: '@example.com' }, ['email']],
    ['an empty email', { ...valid, email: '' }, ['email']],
    [
      'an email over 254 characters',
      { ...valid, email: `${'a'.repeat(64)}@${'b'.repeat(190)}.example.com` },
      ['email'],
    ],
    ['a password of 7 bytes', { ...valid, password: 'abcdefg' }, ['password']],
    ['a password of 37 characters but 74 UTF-8 bytes', { ...valid, password: 'é'.repeat(37) }, ['password']],
    ['a password of 73 bytes', { ...valid, password: 'a'.repeat(73) }, ['password']],
    ['an empty name', { ...valid, name: '' }, ['name']],
    ['a blank name', { ...valid, name: '    ' }, ['name']],
    ['a name of 101 characters', { ...valid, name: 'n'.repeat(101) }, ['name']],
    ['no email', { name: valid.name, password: valid.password }, ['email']],
    ['no name', { email: valid.email, password: valid.password }, ['name']],
    ['no password', { email: valid.email, name: valid.name }, ['password']],
    ['no fields at all', {}, ['email', 'name', 'password']],
    ['an unknown field', { ...valid, is_admin: true }, ['is_admin']],
    ['a number for the email', { ...valid, email: 12345 }, ['email']],
    ['an array for the name', { ...valid, name: ['Valid'] }, ['name']],
    ['a number for the password', { ...valid, password: 12345678 }, ['password']],
    ['null for the password', { ...valid, password: null }, ['password']],
    ['an array as the body', [valid], ['body']],
    ['a string as the body', 'valid@example.com', ['body']],
    ['a number as the body', 42, ['body']],
    ['null as the body', null, ['body']],
  ];

  it.each(invalidBodies)(
    'when the body has %s, then it is 400 VALIDATION_ERROR naming the field and nothing is stored',
    async (_what, body, fields) => {
      newWindow();
      const digest = databaseDigest(identityFile(t.dataDir));
      const ledgers = ledgerNames(t.dataDir);
      const res = await api.request('POST', '/api/auth/register', {
        rawBody: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: expect.any(String), code: 'VALIDATION_ERROR', errors: expect.any(Array) });
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(fields);
      for (const e of res.body.errors) expect(e).toEqual({ field: expect.any(String), message: expect.any(String) });
      expect(databaseDigest(identityFile(t.dataDir))).toBe(digest);
      expect(ledgerNames(t.dataDir)).toEqual(ledgers);
    },
  );

  it('when a field has the wrong type, then its message says so instead of "is required"', async () => {
    newWindow();
    const res = await api.post('/api/auth/register', { email: 12345, name: 'Typed', password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'email', message: expect.not.stringMatching(/required/) }]);
    expect(res.body.errors[0].message).toMatch(/string/);
    newWindow();
    const missing = await api.post('/api/auth/register', { name: 'Typed', password: PASSWORD });
    expect(missing.body.errors).toEqual([{ field: 'email', message: 'is required' }]);
  });
});

describe('logging in', () => {
  let email: string;
  let userId: string;

  beforeAll(async () => {
    newWindow();
    email = freshEmail('Login');
    const res = await api.post('/api/auth/register', { email, name: 'Login User', password: PASSWORD });
    expect(res.status).toBe(201);
    userId = res.body.id;
  });

  it('when the email and password are right, then it is 200 with the user and a token for them', async () => {
    newWindow();
    const res = await api.post('/api/auth/login', { email, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: userId,
      email: email.toLowerCase(),
      name: 'Login User',
      created_at: expect.any(String),
      access_token: expect.any(String),
      token_type: 'bearer',
    });
    expect(claims(res.body.access_token).sub).toBe(userId);
    expect((await api.get('/api/auth/me', res.body.access_token)).body.id).toBe(userId);
  });

  it('when the email differs in letter case and spacing, then the login still succeeds', async () => {
    newWindow();
    const res = await api.post('/api/auth/login', { email: `  ${email.toUpperCase()} `, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(userId);
  });

  it('when the password is wrong or the email unknown, then it is 401 with exactly the same body', async () => {
    newWindow();
    const wrongPassword = await api.post('/api/auth/login', { email, password: 'wrong password!' });
    const unknownEmail = await api.post('/api/auth/login', { email: 'nobody-here@example.com', password: PASSWORD });
    const wrongCase = await api.post('/api/auth/login', { email, password: PASSWORD.toUpperCase() });
    for (const res of [wrongPassword, unknownEmail, wrongCase]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID_LOGIN);
    }
  });

  it('when a password longer than 72 bytes starts with the right one, then it is refused (bcrypt would truncate it)', async () => {
    newWindow();
    const long = 'L'.repeat(72);
    const longEmail = freshEmail();
    expect((await api.post('/api/auth/register', { email: longEmail, name: 'Long', password: long })).status).toBe(201);
    expect((await api.post('/api/auth/login', { email: longEmail, password: long })).status).toBe(200);
    const res = await api.post('/api/auth/login', { email: longEmail, password: `${long}extra` });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID_LOGIN);
  });

  it('when the login body lacks the password, then it is 400 VALIDATION_ERROR, not a login failure', async () => {
    newWindow();
    const res = await api.post('/api/auth/login', { email });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'password' }] });
  });
});

describe('authenticating requests', () => {
  let user: { id: string; token: string; email: string };
  const other = { id: '', token: '' };

  beforeAll(async () => {
    newWindow();
    user = await registerUser(api, 'Token Owner');
    newWindow();
    ({ id: other.id, token: other.token } = await registerUser(api, 'Other Owner'));
  });

  const get = (p: string, headers: Record<string, string>) => api.request('GET', p, { headers });

  it('when no Authorization header is sent, then it is 401 with exactly "Not authenticated"', async () => {
    for (const p of ['/api/auth/me', '/api/accounts', '/api/journal-entries']) {
      const res = await get(p, {});
      expect(res.status).toBe(401);
      expect(res.body).toEqual(NOT_AUTHENTICATED);
    }
  });

  it('when /api/auth/me is called with a valid token, then it returns the user and a freshly issued token', async () => {
    const nowSec = Math.floor(Date.now() / 1000);
    const old = jwt.sign({ sub: user.id, iat: nowSec - 3600, exp: nowSec + 600 }, TEST_SECRET, { algorithm: 'HS256' });
    const res = await api.get('/api/auth/me', old);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, email: user.email, name: 'Token Owner' });
    expect(res.body.access_token).not.toBe(old);
    const fresh = claims(res.body.access_token);
    expect(fresh.sub).toBe(user.id);
    expect(fresh.iat).toBeGreaterThanOrEqual(nowSec - 5);
    expect(fresh.exp! - fresh.iat!).toBe(1440 * 60);
  });

  const nowSec = () => Math.floor(Date.now() / 1000);
  const badTokens: [string, () => string][] = [
    ['an Authorization: Basic header', () => `Basic ${Buffer.from(`${user.email}:${PASSWORD}`).toString('base64')}`],
    ['a Bearer header with garbage', () => 'Bearer not.a.jwt'],
    ['a Bearer header without a token', () => 'Bearer'],
    [
      'an expired token',
      () =>
        `Bearer ${jwt.sign({ sub: user.id, iat: nowSec() - 7200, exp: nowSec() - 60 }, TEST_SECRET, { algorithm: 'HS256' })}`,
    ],
    [
      'a token signed with another key',
      () =>
        `Bearer ${jwt.sign({ sub: user.id }, 'another-secret-that-is-also-long-enough-42', { algorithm: 'HS256', expiresIn: 3600 })}`,
    ],
    [
      'a token signed with HS512 and the right key',
      () => `Bearer ${jwt.sign({ sub: user.id }, TEST_SECRET, { algorithm: 'HS512', expiresIn: 3600 })}`,
    ],
    [
      'an alg "none" token',
      () => `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: user.id, exp: nowSec() + 3600 })}.`,
    ],
    [
      'a token without sub',
      () => `Bearer ${jwt.sign({ name: 'Token Owner' }, TEST_SECRET, { algorithm: 'HS256', expiresIn: 3600 })}`,
    ],
    ['a token without exp', () => `Bearer ${jwt.sign({ sub: user.id }, TEST_SECRET, { algorithm: 'HS256' })}`],
    [
      'a token whose sub is no user',
      () =>
        `Bearer ${jwt.sign({ sub: '00000000-0000-4000-8000-000000000000' }, TEST_SECRET, { algorithm: 'HS256', expiresIn: 3600 })}`,
    ],
    [
      'a token whose sub is a path',
      () => `Bearer ${jwt.sign({ sub: '../identity' }, TEST_SECRET, { algorithm: 'HS256', expiresIn: 3600 })}`,
    ],
    [
      'a tampered token (payload of another user)',
      () => {
        const [h, , s] = user.token.split('.');
        return `Bearer ${h}.${base64url({ sub: other.id, exp: nowSec() + 3600 })}.${s}`;
      },
    ],
  ];

  it.each(badTokens)(
    'when the request carries %s, then it is 401 with exactly "Could not validate credentials"',
    async (_what, header) => {
      for (const p of ['/api/auth/me', '/api/accounts']) {
        const res = await get(p, { authorization: header() });
        expect(res.status).toBe(401);
        expect(res.body).toEqual(BAD_CREDENTIALS);
      }
    },
  );

  it('when the token belongs to a user who was deleted, then it is 401 "Could not validate credentials"', async () => {
    newWindow();
    const doomed = await registerUser(api, 'Doomed');
    expect((await api.get('/api/auth/me', doomed.token)).status).toBe(200);
    const db = new Database(identityFile(t.dataDir));
    expect(db.prepare('DELETE FROM users WHERE id = ?').run(doomed.id).changes).toBe(1);
    db.close();
    for (const p of ['/api/auth/me', '/api/accounts']) {
      const res = await api.get(p, doomed.token);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(BAD_CREDENTIALS);
    }
  });

  it('when X-User-Id names another user, then it is ignored and the token decides whose data is seen', async () => {
    const created = await api.post('/api/accounts', { name: 'Owner Secret Savings', type: 'ASSET' }, user.token);
    expect(created.status).toBe(201);

    const list = await api.request('GET', '/api/accounts', { token: other.token, headers: { 'x-user-id': user.id } });
    expect(list.status).toBe(200);
    expect(list.body.items.map((a: { name: string }) => a.name)).not.toContain('Owner Secret Savings');
    const one = await api.request('GET', `/api/accounts/${created.body.id}`, {
      token: other.token,
      headers: { 'x-user-id': user.id },
    });
    expect(one.status).toBe(404);
    const me = await api.request('GET', '/api/auth/me', { token: other.token, headers: { 'x-user-id': user.id } });
    expect(me.body.id).toBe(other.id);

    const anonymous = await get('/api/accounts', { 'x-user-id': user.id });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(NOT_AUTHENTICATED);
  });
});

describe('token lifetime', () => {
  it('when ACCESS_TOKEN_EXPIRE_MINUTES is 5, then tokens from register, login and me expire 300 seconds after issue', async () => {
    const s = await startTestServer({ env: { ACCESS_TOKEN_EXPIRE_MINUTES: '5' } });
    try {
      const reg = await s.api.post('/api/auth/register', {
        email: 'short@example.com',
        name: 'Short',
        password: PASSWORD,
      });
      const login = await s.api.post('/api/auth/login', { email: 'short@example.com', password: PASSWORD });
      const me = await s.api.get('/api/auth/me', login.body.access_token);
      for (const res of [reg, login, me]) {
        const c = claims(res.body.access_token);
        expect(c.exp! - c.iat!).toBe(300);
      }
    } finally {
      await s.stop();
    }
  });
});

describe('rate limits', () => {
  const login = (s: TestServer, email: string, password: string, headers: Record<string, string> = {}) =>
    s.api.request('POST', '/api/auth/login', { body: { email, password }, headers });

  function expectRateLimited(res: { status: number; body: unknown; headers: Headers }, retryAfter?: number): void {
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'RATE_LIMITED' });
    const header = res.headers.get('retry-after');
    expect(header).toMatch(/^[1-9]\d*$/);
    if (retryAfter !== undefined) expect(Number(header)).toBe(retryAfter);
  }

  it('when an address has made 5 login attempts in 15 minutes, then the 6th is 429 even with the right password, until the window passes', async () => {
    const s = await startClocked();
    try {
      const { email } = await registerUser(s.api);
      for (let i = 0; i < 5; i += 1) expect((await login(s, email, 'wrong password')).status).toBe(401);
      s.advance(5 * MINUTE);
      expectRateLimited(await login(s, email, PASSWORD), 600);
      expectRateLimited(await login(s, 'someone-else@example.com', 'whatever'), 600);
      // The register limit is a separate counter.
      expect(
        (
          await s.api.post('/api/auth/register', {
            email: 'separate@example.com',
            name: 'Separate',
            password: PASSWORD,
          })
        ).status,
      ).toBe(201);
      s.advance(10 * MINUTE - 1000);
      expectRateLimited(await login(s, email, PASSWORD), 1);
      s.advance(1000);
      expect((await login(s, email, PASSWORD)).status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it('when a login succeeds, then the counter is reset: 4 failures, a success, then 5 more failures before a 429', async () => {
    const s = await startClocked();
    try {
      const { email } = await registerUser(s.api);
      for (let i = 0; i < 4; i += 1) expect((await login(s, email, 'wrong password')).status).toBe(401);
      expect((await login(s, email, PASSWORD)).status).toBe(200);
      for (let i = 0; i < 5; i += 1) expect((await login(s, email, 'wrong password')).status).toBe(401);
      expectRateLimited(await login(s, email, PASSWORD), 900);
    } finally {
      await s.stop();
    }
  });

  it('when an address has made 3 register attempts in an hour, then the 4th is 429 and stores nothing, until the hour passes', async () => {
    const s = await startClocked();
    try {
      const register = (email: string, password = PASSWORD) =>
        s.api.post('/api/auth/register', { email, name: 'Limit', password });
      for (let i = 0; i < 3; i += 1) expect((await register(`bad-address-${i}`)).status).toBe(400);
      const digest = databaseDigest(identityFile(s.dataDir));
      s.advance(20 * MINUTE);
      expectRateLimited(await register('fourth@example.com'), 40 * 60);
      expect(databaseDigest(identityFile(s.dataDir))).toBe(digest);
      expect(ledgerNames(s.dataDir)).toEqual([]);
      s.advance(40 * MINUTE);
      expect((await register('fourth@example.com')).status).toBe(201);
    } finally {
      await s.stop();
    }
  });

  it('when a registration succeeds, then the register counter is reset', async () => {
    const s = await startClocked();
    try {
      const register = (email: string) =>
        s.api.post('/api/auth/register', { email, name: 'Limit', password: PASSWORD });
      expect((await register('bad-1')).status).toBe(400);
      expect((await register('bad-2')).status).toBe(400);
      expect((await register('good@example.com')).status).toBe(201);
      for (let i = 0; i < 3; i += 1) expect((await register(`worse-${i}`)).status).toBe(400);
      expectRateLimited(await register('later@example.com'), 3600);
    } finally {
      await s.stop();
    }
  });

  it('when TRUST_PROXY is true, then each X-Forwarded-For client address has its own login counter', async () => {
    const s = await startClocked({ env: { TRUST_PROXY: 'true' } });
    try {
      const { email } = await registerUser(s.api);
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      for (let i = 0; i < 5; i += 1)
        expect((await login(s, email, 'wrong password', from('203.0.113.1'))).status).toBe(401);
      expectRateLimited(await login(s, email, PASSWORD, from('203.0.113.1')));
      // A spoofed leftmost entry does not help: the proxy's own (last) entry is the client.
      expectRateLimited(await login(s, email, PASSWORD, from('198.51.100.7, 203.0.113.1')));
      expect((await login(s, email, 'wrong password', from('203.0.113.2'))).status).toBe(401);
      expect((await login(s, email, PASSWORD, from('203.0.113.2'))).status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it('when TRUST_PROXY is not set, then X-Forwarded-For is ignored and changing it does not escape the limit', async () => {
    const s = await startClocked();
    try {
      const { email } = await registerUser(s.api);
      for (let i = 0; i < 5; i += 1) {
        expect((await login(s, email, 'wrong password', { 'x-forwarded-for': `203.0.113.${i + 1}` })).status).toBe(401);
      }
      expectRateLimited(await login(s, email, PASSWORD, { 'x-forwarded-for': '198.51.100.99' }));
      expectRateLimited(await login(s, email, PASSWORD));
    } finally {
      await s.stop();
    }
  });
});
