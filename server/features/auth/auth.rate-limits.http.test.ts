import { describe, expect, it } from 'vitest';
import { databaseDigest, identityFile, registerUser, type TestServer } from '../../../test/support/server.ts';
import { ledgerNames, MINUTE, PASSWORD, startClocked, useAuthServer } from '../../../test/support/auth-server.ts';

useAuthServer();

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
