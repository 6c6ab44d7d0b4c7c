import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerUser, startTestServer } from '../support/server.ts';
import { killServer, listTree, PASSWORD, recordResults, ROOT, send, spawnServer, tempDir } from './support.ts';
import { serveArguments } from '../../main/app-build.mjs';

/**
 * The server process's surface: what it listens on and its file modes under a permissive umask,
 * and its rate limits under a burst of logins and registrations.
 */
const figures: Record<string, unknown> = {};

describe('the real server process', () => {
  it('when started under a permissive umask (000), then it listens on 127.0.0.1 only and keeps every file 0600 in 0700 folders', async () => {
    const dataDir = path.join(tempDir('umask'), 'data');
    const server = await spawnServer(
      dataDir,
      {},
      {
        file: '/bin/sh',
        args: [
          '-c',
          `umask 000; exec "${process.execPath}" ${serveArguments(ROOT)
            .map((arg) => `"${arg}"`)
            .join(' ')}`,
        ],
      },
    );
    try {
      const reg = await send(`${server.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'umask@example.com', name: 'U', password: PASSWORD }),
      });
      expect(reg.status).toBe(201);
      const auth = { authorization: `Bearer ${reg.body.access_token}`, 'content-type': 'application/json' };
      await send(`${server.url}/api/accounts`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: 'Bank', type: 'ASSET' }),
      });
      await send(`${server.url}/api/backup`, { method: 'POST', headers: auth });

      if (process.platform === 'linux') {
        // Every listening socket the process owns, from /proc: only 127.0.0.1.
        const inodes = new Set(
          fs
            .readdirSync(`/proc/${server.child.pid}/fd`)
            .map((fd) => {
              try {
                return /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${server.child.pid}/fd/${fd}`))?.[1];
              } catch {
                return undefined;
              }
            })
            .filter((x): x is string => x !== undefined),
        );
        const listening = ['tcp', 'tcp6'].flatMap((table) =>
          fs
            .readFileSync(`/proc/${server.child.pid}/net/${table}`, 'utf8')
            .split('\n')
            .slice(1)
            .map((line) => line.trim().split(/\s+/))
            .filter((cols) => cols.length > 9 && cols[3] === '0A' && inodes.has(cols[9]!))
            .map((cols) => `${table} ${cols[1]}`),
        );
        expect(listening).toEqual([`tcp 0100007F:${server.port.toString(16).toUpperCase().padStart(4, '0')}`]);
      }

      for (const entry of ['', ...listTree(dataDir)]) {
        const full = path.join(dataDir, entry);
        const mode = fs.statSync(full).mode & 0o777;
        if (entry === 'server.json') continue;
        expect([entry || '.', mode.toString(8)]).toEqual([
          entry || '.',
          fs.statSync(full).isDirectory() ? '700' : '600',
        ]);
      }
      expect(fs.statSync(path.join(dataDir, 'server.json')).mode & 0o077).toBe(0);
    } finally {
      await killServer(server, 'SIGTERM');
      fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
    }
  });
});

describe('brute force', () => {
  it('when 30 wrong-password logins arrive at once from one address (half on one email, the rest sprayed), then at most 5 are evaluated for that email and 20 in all, the rest are 429 with Retry-After, and the right password is refused too', async () => {
    const s = await startTestServer({ limits: {} });
    try {
      const victim = await registerUser(s.api, 'Victim');
      const attempts = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          s.api
            .post('/api/auth/login', { email: i % 2 ? victim.email : `other${i}@example.com`, password: `guess-${i}` })
            .then((res) => ({ res, victim: i % 2 === 1 })),
        ),
      );
      const evaluated = attempts.filter((a) => a.res.status === 401);
      const limited = attempts.filter((a) => a.res.status === 429);
      expect(evaluated.filter((a) => a.victim).length).toBeLessThanOrEqual(5);
      expect(evaluated.length).toBeLessThanOrEqual(20);
      expect(evaluated.length + limited.length).toBe(30);
      for (const { res } of limited) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(res.body.code).toBe('RATE_LIMITED');
      }
      expect((await s.api.post('/api/auth/login', { email: victim.email, password: PASSWORD })).status).toBe(429);
      figures.login_burst = { attempts: 30, evaluated: evaluated.length, limited: limited.length };
    } finally {
      await s.stop();
    }
  });

  it('when 10 registrations of a taken email arrive at once from one address, then at most 3 are evaluated and the rest are 429', async () => {
    const s = await startTestServer({ limits: {} });
    try {
      const taken = await registerUser(s.api, 'Taken');
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          s.api.post('/api/auth/register', { email: taken.email, name: 'Again', password: PASSWORD }),
        ),
      );
      expect(answers.filter((r) => r.status === 409).length).toBeLessThanOrEqual(3);
      expect(answers.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(7);
      expect(answers.every((r) => r.status === 409 || r.status === 429)).toBe(true);
    } finally {
      await s.stop();
    }
    await recordResults('process_surface', figures);
  });
});
