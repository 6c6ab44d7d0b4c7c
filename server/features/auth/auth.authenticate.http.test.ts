import Database from 'better-sqlite3';
import jwt from 'jsonwebtoken';
import { beforeAll, describe, expect, it } from 'vitest';
import { identityFile, registerUser, TEST_SECRET } from '../../../test/support/server.ts';
import {
  api,
  BAD_CREDENTIALS,
  base64url,
  claims,
  newWindow,
  NOT_AUTHENTICATED,
  PASSWORD,
  t,
  useAuthServer,
} from '../../../test/support/auth-server.ts';

useAuthServer();

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
