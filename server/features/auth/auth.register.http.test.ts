import bcrypt from 'bcryptjs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { databaseDigest, identityFile, registerUser, startTestServer } from '../../../test/support/server.ts';
import {
  api,
  claims,
  freshEmail,
  ledgerNames,
  newWindow,
  PASSWORD,
  t,
  useAuthServer,
  UUID,
} from '../../../test/support/auth-server.ts';

useAuthServer();

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
