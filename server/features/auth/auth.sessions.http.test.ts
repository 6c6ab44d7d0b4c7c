import { describe, expect, it } from 'vitest';
import { databaseDigest, identityFile, registerUser } from '../../../test/support/server.ts';
import {
  api,
  BAD_CREDENTIALS,
  claims,
  freshEmail,
  INVALID_LOGIN,
  newWindow,
  PASSWORD,
  startClocked,
  t,
  useAuthServer,
} from '../../../test/support/auth-server.ts';

useAuthServer();

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
