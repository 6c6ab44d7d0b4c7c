import { describe, expect, it } from 'vitest';
import { registerUser, startTestServer } from '../support/server.ts';
import { catchPrepared, planOf, readOnly } from './plans.ts';

describe('the queries of signing in and of every request', () => {
  it('when users register, log in, refresh, change passwords and log out, and requests check their sessions, then every identity query is an index lookup', async () => {
    const s = await startTestServer();
    const identity = `${s.dataDir}/identity.sqlite`;
    const { caught, stop } = catchPrepared(identity);
    try {
      const user = await registerUser(s.api);
      const login = await s.api.post('/api/auth/login', { email: user.email, password: 'correct horse battery' });
      const fresh = (await s.api.get('/api/auth/me', login.body.access_token)).body.access_token;
      expect((await s.api.get('/api/accounts', fresh)).status).toBe(200);
      const changed = await s.api.post(
        '/api/auth/password',
        { current_password: 'correct horse battery', new_password: 'another good passphrase' },
        fresh,
      );
      expect(changed.status).toBe(200);
      expect((await s.api.request('POST', '/api/auth/logout', { token: changed.body.access_token })).status).toBe(204);
    } finally {
      stop();
    }
    try {
      readOnly(identity, (db) => {
        expect([...caught].some((sql) => /\(SELECT 1 FROM sessions WHERE id = \?/.test(sql))).toBe(true);
        const scans = [...caught].flatMap((sql) => {
          if (!/\b(users|sessions)\b/.test(sql) || /^\s*(INSERT|CREATE)/i.test(sql)) return [];
          return planOf(db, sql)
            .filter((d) => /^SCAN (users|sessions|s|u)\b/.test(d))
            .map((d) => `${d} <= ${sql}`);
        });
        expect(scans).toEqual([]);
      });
    } finally {
      await s.stop();
    }
  });
});
