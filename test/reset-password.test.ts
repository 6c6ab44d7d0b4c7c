import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetPassword } from './support/reset-password.ts';
import { databaseDigest, identityFile, registerUser, startTestServer, type TestServer } from './support/server.ts';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

describe('the reset-password command', () => {
  it('when the folder owner sets a new password, then the old one and every session of the account stop working and the new one signs in', async () => {
    const user = await registerUser(t.api);
    const result = await resetPassword(t.dataDir, [user.email.toUpperCase()], 'a fresh start here\n');
    expect(result.code).toBe(0);
    expect(result.output).toMatch(/The password of .* is set: every session of it has ended/);
    expect((await t.api.get('/api/accounts', user.token)).status).toBe(401);
    expect((await t.api.post('/api/auth/login', { email: user.email, password: 'correct horse battery' })).status).toBe(
      401,
    );
    expect((await t.api.post('/api/auth/login', { email: user.email, password: 'a fresh start here' })).status).toBe(
      200,
    );
  });

  it.each([
    [
      'an unknown email',
      ['nobody@example.com'],
      'a fresh start here\n',
      /No account has the email nobody@example.com/,
      1,
    ],
    ['a password of white space', null, '        \n', /must not be only white space; nothing was changed/, 1],
    ['a password of 7 bytes', null, 'abcdefg\n', /must be at least 8 bytes/, 1],
    ['no email', [], 'a fresh start here\n', /^Usage: npm run reset-password -- <email>/, 2],
  ])('when it is given %s, then it says so and changes nothing', async (_what, args, input, message, code) => {
    const user = await registerUser(t.api);
    const before = databaseDigest(identityFile(t.dataDir));
    const result = await resetPassword(t.dataDir, args ?? [user.email], input);
    expect(result.code).toBe(code);
    expect(result.output).toMatch(message);
    expect(databaseDigest(identityFile(t.dataDir))).toBe(before);
    expect((await t.api.get('/api/accounts', user.token)).status).toBe(200);
  });

  it('when it is run by someone who does not own the data folder, then it refuses and changes nothing', async () => {
    const user = await registerUser(t.api);
    const before = databaseDigest(identityFile(t.dataDir));
    const owner = fs.statSync(t.dataDir);
    // As root, the folder is handed to another user for the run; otherwise a folder of root's is used.
    const folder = process.getuid?.() === 0 ? t.dataDir : '/';
    if (folder === t.dataDir) fs.chownSync(t.dataDir, 65534, 65534);
    try {
      const result = await resetPassword(folder === '/' ? '/' : t.dataDir, [user.email], 'a fresh start here\n');
      expect(result.code).toBe(1);
      expect(result.output).toMatch(folder === '/' ? /no ledger data/ : /belongs to another user/);
    } finally {
      if (folder === t.dataDir) fs.chownSync(t.dataDir, owner.uid, owner.gid);
    }
    expect(databaseDigest(identityFile(t.dataDir))).toBe(before);
  });
});
