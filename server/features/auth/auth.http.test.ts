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
    const sid = claims(user.token).sid;
    const old = jwt.sign({ sub: user.id, sid, iat: nowSec - 3600, exp: nowSec + 600 }, TEST_SECRET, {
      algorithm: 'HS256',
    });
    const res = await api.get('/api/auth/me', old);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, email: user.email, name: 'Token Owner' });
    expect(res.body.access_token).not.toBe(old);
    const fresh = claims(res.body.access_token);
    expect(fresh.sub).toBe(user.id);
    expect(fresh.sid).toBe(sid);
    expect(fresh.iat).toBeGreaterThanOrEqual(nowSec - 5);
    expect(fresh.exp! - fresh.iat!).toBe(1440 * 60);
  });

  const nowSec = () => Math.floor(Date.now() / 1000);
  // Each crafted token carries the user's live session id, so that it is refused for the reason it names.
  const sid = () => claims(user.token).sid as string;
  const badTokens: [string, () => string][] = [
    ['an Authorization: Basic header', () => `Basic ${Buffer.from(`${user.email}:${PASSWORD}`).toString('base64')}`],
    ['a Bearer header with garbage', () => 'Bearer not.a.jwt'],
    ['a Bearer header without a token', () => 'Bearer'],
    [
      'an expired token',
      () =>
        `Bearer ${jwt.sign({ sub: user.id, sid: sid(), iat: nowSec() - 7200, exp: nowSec() - 60 }, TEST_SECRET, { algorithm: 'HS256' })}`,
    ],
    [
      'a token signed with another key',
      () =>
        `Bearer ${jwt.sign({ sub: user.id, sid: sid() }, 'another-secret-that-is-also-long-enough-42', { algorithm: 'HS256', expiresIn: 3600 })}`,
    ],
    [
      'a token signed with HS512 and the right key',
      () => `Bearer ${jwt.sign({ sub: user.id, sid: sid() }, TEST_SECRET, { algorithm: 'HS512', expiresIn: 3600 })}`,
    ],
    [
      'an alg "none" token',
      () =>
        `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: user.id, sid: sid(), exp: nowSec() + 3600 })}.`,
    ],
    [
      'a token without sub',
      () =>
        `Bearer ${jwt.sign({ name: 'Token Owner', sid: sid() }, TEST_SECRET, { algorithm: 'HS256', expiresIn: 3600 })}`,
    ],
    [
      'a token without a session (as issued before sessions)',
      () => `Bearer ${jwt.sign({ sub: user.id }, TEST_SECRET, { algorithm: 'HS256', expiresIn: 3600 })}`,
    ],
    [
      'a token of a session that is not there',
      () =>
        `Bearer ${jwt.sign({ sub: user.id, sid: '00000000-0000-4000-8000-000000000000' }, TEST_SECRET, { algorithm: 'HS256', expiresIn: 3600 })}`,
    ],
    [
      'a token naming another user with this user’s session',
      () => `Bearer ${jwt.sign({ sub: other.id, sid: sid() }, TEST_SECRET, { algorithm: 'HS256', expiresIn: 3600 })}`,
    ],
    [
      'a token without exp',
      () => `Bearer ${jwt.sign({ sub: user.id, sid: sid() }, TEST_SECRET, { algorithm: 'HS256' })}`,
    ],
    [
      'a token whose sub is no user',
      () =>
        `Bearer ${jwt.sign({ sub: '00000000-0000-4000-8000-000000000000', sid: sid() }, TEST_SECRET, { algorithm: 'HS256', expiresIn: 3600 })}`,
    ],
    [
      'a token whose sub is a path',
      () =>
        `Bearer ${jwt.sign({ sub: '../identity', sid: sid() }, TEST_SECRET, { algorithm: 'HS256', expiresIn: 3600 })}`,
    ],
    [
      'a tampered token (payload of another user)',
      () => {
        const [h, , s] = user.token.split('.');
        return `Bearer ${h}.${base64url({ sub: other.id, sid: sid(), exp: nowSec() + 3600 })}.${s}`;
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

describe('rate limits (CONTRACT §8)', () => {
  const login = (s: TestServer, email: string, password: string, headers: Record<string, string> = {}) =>
    s.api.request('POST', '/api/auth/login', { body: { email, password }, headers });

  function expectRateLimited(res: { status: number; body: unknown; headers: Headers }, retryAfter?: number): void {
    expect(res.status).toBe(429);
    expect(res.body).toEqual({
      detail: expect.stringMatching(/^Too many attempts: try again in /),
      code: 'RATE_LIMITED',
    });
    const header = res.headers.get('retry-after');
    expect(header).toMatch(/^[1-9]\d*$/);
    if (retryAfter !== undefined) expect(Number(header)).toBe(retryAfter);
  }

  /** A server with the contract's own limits, on a clock the test moves. */
  const contractLimits = () => startClocked({ limits: {} });

  it('when an address has failed 5 logins for one email in 15 minutes, then that email is 429 from it even with the right password, in words and seconds, until the window passes; other emails are not', async () => {
    const s = await contractLimits();
    try {
      const { email } = await registerUser(s.api);
      const { email: neighbour } = await registerUser(s.api);
      for (let i = 0; i < 5; i += 1) expect((await login(s, email, 'wrong password')).status).toBe(401);
      s.advance(5 * MINUTE);
      const refused = await login(s, email, PASSWORD);
      expectRateLimited(refused, 600);
      expect(refused.body.detail).toMatch(/^Too many attempts: try again in 10 minutes\./);
      expect((await login(s, neighbour, PASSWORD)).status).toBe(200);
      s.advance(10 * MINUTE - 1000);
      expectRateLimited(await login(s, email, PASSWORD), 1);
      s.advance(1000);
      expect((await login(s, email, PASSWORD)).status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it('when an attacker guesses 4 times, logs in to their own account and repeats, then the guessed email is 429 after its 5th failure: a success clears only its own pair', async () => {
    const s = await contractLimits();
    try {
      const victim = await registerUser(s.api);
      const attacker = await registerUser(s.api);
      const guesses: number[] = [];
      const own: number[] = [];
      for (let round = 0; round < 6; round += 1) {
        for (let i = 0; i < 4; i += 1) guesses.push((await login(s, victim.email, `guess ${round}-${i}`)).status);
        own.push((await login(s, attacker.email, PASSWORD)).status);
      }
      // 5 wrong guesses, then nothing but 429 for the victim's email; the attacker's own logins go on
      expect(guesses).toEqual([...Array(5).fill(401), ...Array(19).fill(429)]);
      expect(own).toEqual(Array(6).fill(200));
      expectRateLimited(await login(s, victim.email, PASSWORD));
    } finally {
      await s.stop();
    }
  });

  it('when an address has failed 20 logins over many emails, then every login from it is 429, its own right password too, and a success elsewhere does not clear it', async () => {
    const s = await contractLimits();
    try {
      const own = await registerUser(s.api);
      for (let i = 0; i < 20; i += 1) {
        expect((await login(s, `nobody-${i}@example.com`, 'wrong password')).status).toBe(401);
        if (i === 10) expect((await login(s, own.email, PASSWORD)).status).toBe(200);
      }
      expectRateLimited(await login(s, own.email, PASSWORD));
      expectRateLimited(await login(s, 'someone-new@example.com', 'whatever'));
      s.advance(15 * MINUTE);
      expect((await login(s, own.email, PASSWORD)).status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it('when attempts are refused with 429, then they count as no failure: once the window passes the email gets all 5 again', async () => {
    const s = await contractLimits();
    try {
      const { email } = await registerUser(s.api);
      for (let i = 0; i < 5; i += 1) expect((await login(s, email, 'wrong password')).status).toBe(401);
      for (let i = 0; i < 10; i += 1) expectRateLimited(await login(s, email, 'wrong password'));
      s.advance(15 * MINUTE);
      for (let i = 0; i < 5; i += 1) expect((await login(s, email, 'wrong password')).status).toBe(401);
      expectRateLimited(await login(s, email, PASSWORD));
    } finally {
      await s.stop();
    }
  });

  it('when 20 wrong logins for one email arrive at once, then 5 are evaluated and 15 are 429', async () => {
    const s = await contractLimits();
    try {
      const { email } = await registerUser(s.api);
      const answers = await Promise.all(Array.from({ length: 20 }, () => login(s, email, 'wrong password')));
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([...Array(5).fill(401), ...Array(15).fill(429)]);
    } finally {
      await s.stop();
    }
  });

  it('when an address has made 3 register attempts in an hour, successful or not, then the 4th is 429 and stores nothing, until the hour passes', async () => {
    const s = await contractLimits();
    try {
      const register = (email: string) =>
        s.api.post('/api/auth/register', { email, name: 'Limit', password: PASSWORD });
      expect((await register('first@example.com')).status).toBe(201);
      expect((await register('bad-address')).status).toBe(400);
      expect((await register('second@example.com')).status).toBe(201);
      const digest = databaseDigest(identityFile(s.dataDir));
      const ledgers = ledgerNames(s.dataDir);
      s.advance(20 * MINUTE);
      expectRateLimited(await register('fourth@example.com'), 40 * 60);
      expect(databaseDigest(identityFile(s.dataDir))).toBe(digest);
      expect(ledgerNames(s.dataDir)).toEqual(ledgers);
      s.advance(40 * MINUTE);
      expect((await register('fourth@example.com')).status).toBe(201);
    } finally {
      await s.stop();
    }
  });

  it('when TRUST_PROXY is true, then each X-Forwarded-For client address has its own counts', async () => {
    const s = await startClocked({ limits: {}, env: { TRUST_PROXY: 'true' } });
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
    const s = await contractLimits();
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

describe('sessions', () => {
  const live = async (token: string) => (await api.get('/api/accounts', token)).status;

  it('when a session logs out, then it is 204 and its login token and every token refreshed from it are 401, while another session of the user goes on', async () => {
    newWindow();
    const u = await registerUser(api);
    newWindow();
    const first = (await api.post('/api/auth/login', { email: u.email, password: PASSWORD })).body.access_token;
    const refreshed = (await api.get('/api/auth/me', first)).body.access_token;
    const second = (await api.post('/api/auth/login', { email: u.email, password: PASSWORD })).body.access_token;
    const out = await api.request('POST', '/api/auth/logout', { token: refreshed });
    expect(out.status).toBe(204);
    expect(out.text).toBe('');
    for (const token of [first, refreshed]) {
      for (const p of ['/api/auth/me', '/api/accounts']) {
        const res = await api.get(p, token);
        expect(res.status).toBe(401);
        expect(res.body).toEqual(BAD_CREDENTIALS);
      }
    }
    expect(await live(second)).toBe(200);
    expect(await live(u.token)).toBe(200);
    const again = await api.request('POST', '/api/auth/logout', { token: first });
    expect(again.status).toBe(401);
  });

  it('when tokens are refreshed through /me again and again, then the identity file is not written (a read stays a read)', async () => {
    newWindow();
    const u = await registerUser(api);
    const digest = databaseDigest(identityFile(t.dataDir));
    let token = u.token;
    for (let i = 0; i < 5; i += 1) {
      const res = await api.get('/api/auth/me', token);
      expect(res.status).toBe(200);
      token = res.body.access_token;
    }
    expect(databaseDigest(identityFile(t.dataDir))).toBe(digest);
    expect(await live(token)).toBe(200);
  });

  it('when a token of an ended session is refreshed through /me, then no fresh token comes of it', async () => {
    newWindow();
    const u = await registerUser(api);
    expect((await api.request('POST', '/api/auth/logout', { token: u.token })).status).toBe(204);
    const res = await api.get('/api/auth/me', u.token);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(BAD_CREDENTIALS);
  });

  it('when the password is changed, then the answer is a token of a new session, every earlier token is 401, and only the new password logs in', async () => {
    newWindow();
    const u = await registerUser(api);
    newWindow();
    const other = (await api.post('/api/auth/login', { email: u.email, password: PASSWORD })).body.access_token;
    const res = await api.post(
      '/api/auth/password',
      { current_password: PASSWORD, new_password: 'a brand new passphrase' },
      u.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'bearer' });
    expect(claims(res.body.access_token).sid).not.toBe(claims(u.token).sid);
    for (const token of [u.token, other]) expect(await live(token)).toBe(401);
    expect(await live(res.body.access_token)).toBe(200);
    newWindow();
    expect((await api.post('/api/auth/login', { email: u.email, password: PASSWORD })).status).toBe(401);
    expect((await api.post('/api/auth/login', { email: u.email, password: 'a brand new passphrase' })).status).toBe(
      200,
    );
  });

  it('when the current password is wrong, then it is 401 "Invalid email or password", nothing changes, and it counts as a failed login', async () => {
    const s = await startClocked({ limits: {} });
    try {
      const u = await registerUser(s.api);
      const digest = databaseDigest(identityFile(s.dataDir));
      for (let i = 0; i < 5; i += 1) {
        const res = await s.api.post(
          '/api/auth/password',
          { current_password: `wrong ${i}`, new_password: 'a brand new passphrase' },
          u.token,
        );
        expect(res.status).toBe(401);
        expect(res.body).toEqual(INVALID_LOGIN);
      }
      expect(databaseDigest(identityFile(s.dataDir))).toBe(digest);
      const locked = await s.api.post('/api/auth/login', { email: u.email, password: PASSWORD });
      expect(locked.status).toBe(429);
      const change = await s.api.post(
        '/api/auth/password',
        { current_password: PASSWORD, new_password: 'a brand new passphrase' },
        u.token,
      );
      expect(change.status).toBe(429);
    } finally {
      await s.stop();
    }
  });

  it.each([
    ['of 8 spaces', ' '.repeat(8)],
    ['of tabs, newlines and ideographic spaces', '\t\n\u3000\u3000\t\n'],
    ['of 7 bytes', 'abcdefg'],
    ['of 73 bytes', 'a'.repeat(73)],
  ])(
    'when a new password is one %s, then registering and changing to it are 400 VALIDATION_ERROR and nothing changes',
    async (_what, password) => {
      newWindow();
      const u = await registerUser(api);
      const digest = databaseDigest(identityFile(t.dataDir));
      newWindow();
      const reg = await api.post('/api/auth/register', { email: freshEmail('blank'), name: 'Blank', password });
      const change = await api.post(
        '/api/auth/password',
        { current_password: PASSWORD, new_password: password },
        u.token,
      );
      for (const res of [reg, change]) {
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('VALIDATION_ERROR');
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([
          res === reg ? 'password' : 'new_password',
        ]);
      }
      expect(databaseDigest(identityFile(t.dataDir))).toBe(digest);
      expect(await live(u.token)).toBe(200);
    },
  );
});
