import { beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../test/support/server.ts';
import {
  api,
  claims,
  freshEmail,
  INVALID_LOGIN,
  newWindow,
  PASSWORD,
  useAuthServer,
} from '../../../test/support/auth-server.ts';

useAuthServer();

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
