import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseDigest,
  ledgerFile,
  registerUser,
  startTestServer,
  type Api,
  type TestServer,
} from '../support/server.ts';
import {
  checkLedgerFile,
  expectErrorShape,
  killServer,
  PASSWORD,
  recordResults,
  send,
  spawnServer,
  tempDir,
  type ChildServer,
} from './support.ts';

/**
 * A full disk or a data folder that cannot be written is a condition of the machine: the client
 * gets a clear answer, 507 STORAGE_FULL or 503 STORAGE_UNAVAILABLE (a server-side condition, not
 * the client's fault, so not a 4xx; not a generic 500 either), the write's transaction is rolled
 * back, and the files stay intact. Where this machine lets the test mount a tmpfs (root with
 * CAP_SYS_ADMIN) the disk is really full or really read-only; the in-process cases below
 * simulate both on the server's own SQLite connection and run everywhere.
 */

const fetched = (r: { status: number; text: string; body: any; headers: Headers }) => ({
  ...r,
  contentType: r.headers.get('content-type'),
});
const figures: Record<string, unknown> = {};

/** Captures the server's own SQLite connections (the server runs in this process). */
function captureConnections(): { find(file: string): Database.Database; restore(): void } {
  const opened: Database.Database[] = [];
  const original = Database.prototype.pragma;
  Database.prototype.pragma = function (this: Database.Database, ...args: Parameters<typeof original>) {
    if (!opened.includes(this)) opened.push(this);
    return original.apply(this, args);
  } as typeof original;
  return {
    find: (file) => {
      const found = opened.filter((db) => db.open && path.resolve(db.name) === path.resolve(file));
      if (found.length !== 1) throw new Error(`expected one open connection to ${file}, found ${found.length}`);
      return found[0]!;
    },
    restore: () => {
      Database.prototype.pragma = original;
    },
  };
}

describe('a full disk or a read-only ledger under the running server (simulated on its own connection)', () => {
  let t: TestServer;
  let api: Api;
  let user: { id: string; token: string };
  let connection: Database.Database;
  const acc: Record<string, string> = {};
  const acked: string[] = [];

  beforeAll(async () => {
    const capture = captureConnections();
    try {
      t = await startTestServer();
      api = t.api;
      user = await registerUser(api);
      connection = capture.find(ledgerFile(t.dataDir, user.id));
    } finally {
      capture.restore();
    }
    for (const [name, type] of [
      ['Bank', 'ASSET'],
      ['Food', 'EXPENSE'],
    ] as const)
      acc[name] = (await api.post('/api/accounts', { name, type }, user.token)).body.id;
    for (let i = 0; i < 5; i++) {
      const res = await api.post(
        '/api/journal-entries',
        {
          entry_date: '2026-01-02',
          auto_post: true,
          lines: [
            { account_id: acc.Food, direction: 'DEBIT', amount: '2.00' },
            { account_id: acc.Bank, direction: 'CREDIT', amount: '2.00' },
          ],
        },
        user.token,
      );
      expect(res.status).toBe(201);
      acked.push(res.body.id);
    }
  });
  afterAll(() => t.stop());

  // 1000 lines: the ledger must grow by many pages to hold it (written on the server's own connection;
  // statement imports run on a job thread with a connection of their own).
  const bigEntry = (memo: string) => ({
    entry_date: '2026-01-03',
    memo,
    auto_post: true,
    lines: Array.from({ length: 1000 }, (_, i) => ({
      account_id: i % 2 ? acc.Bank : acc.Food,
      direction: i % 2 ? 'CREDIT' : 'DEBIT',
      amount: '1.00',
    })),
  });

  it('when the ledger cannot grow (the disk is full), then a write is 507 STORAGE_FULL in the error shape, nothing changes, reads still answer, and the same write succeeds once there is room', async () => {
    const pages = connection.pragma('page_count', { simple: true }) as number;
    connection.pragma(`max_page_count = ${pages}`);
    const before = databaseDigest(ledgerFile(t.dataDir, user.id));
    try {
      const full = await api.post('/api/journal-entries', bigEntry('full'), user.token);
      expectErrorShape(fetched(full), 507, 'STORAGE_FULL');
      expect(full.body.detail).toMatch(/disk .* is full/);
      expect(databaseDigest(ledgerFile(t.dataDir, user.id))).toBe(before);
      expect((await api.get('/api/accounts/balances', user.token)).status).toBe(200);
      expect((await api.get(`/api/journal-entries/${acked[0]}`, user.token)).status).toBe(200);
    } finally {
      connection.pragma('max_page_count = 1073741823');
    }
    const roomAgain = await api.post('/api/journal-entries', bigEntry('room'), user.token);
    expect(roomAgain.status, roomAgain.text).toBe(201);
    expect(checkLedgerFile(ledgerFile(t.dataDir, user.id)).problems).toEqual([]);
  });

  it('when the ledger becomes read-only under the running server, then writes are 503 STORAGE_UNAVAILABLE, reads answer, nothing changes, and writes resume when it is writable again', async () => {
    connection.pragma('query_only = ON');
    const before = databaseDigest(ledgerFile(t.dataDir, user.id));
    try {
      const writes = [
        await api.post(
          '/api/journal-entries',
          {
            entry_date: '2026-01-04',
            auto_post: true,
            lines: [
              { account_id: acc.Food, direction: 'DEBIT', amount: '3.00' },
              { account_id: acc.Bank, direction: 'CREDIT', amount: '3.00' },
            ],
          },
          user.token,
        ),
        await api.post('/api/accounts', { name: 'Savings', type: 'ASSET' }, user.token),
        await api.post(`/api/journal-entries/${acked[1]}/void`, {}, user.token),
      ];
      for (const res of writes) {
        expectErrorShape(fetched(res), 503, 'STORAGE_UNAVAILABLE');
        expect(res.body.detail).toMatch(/cannot be written/);
      }
      expect(databaseDigest(ledgerFile(t.dataDir, user.id))).toBe(before);
      expect((await api.get('/api/reports/trial-balance', user.token)).status).toBe(200);
    } finally {
      connection.pragma('query_only = OFF');
    }
    expect((await api.post('/api/accounts', { name: 'Savings', type: 'ASSET' }, user.token)).status).toBe(201);
    for (const id of acked)
      expect((await api.get(`/api/journal-entries/${id}`, user.token)).body.status).toMatch(/posted|void/);
    expect(checkLedgerFile(ledgerFile(t.dataDir, user.id)).problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The real thing: a tmpfs that fills up, or is mounted read-only

function tryMountTmpfs(dir: string, size: string): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function unmount(dir: string): void {
  try {
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
  } catch {
    /* not mounted */
  }
}

function fileHashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else
        out[child] = crypto
          .createHash('sha256')
          .update(fs.readFileSync(path.join(dir, child)))
          .digest('hex');
    }
  };
  walk('');
  return out;
}

const json = (token: string, body: unknown) => ({
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function seedUser(url: string, email: string) {
  const reg = await send(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, name: 'Disk', password: PASSWORD }),
  });
  expect(reg.status, reg.text).toBe(201);
  const token = reg.body.access_token as string;
  const bank = (await send(`${url}/api/accounts`, json(token, { name: 'Bank', type: 'ASSET' }))).body.id as string;
  const food = (await send(`${url}/api/accounts`, json(token, { name: 'Food', type: 'EXPENSE' }))).body.id as string;
  return { id: reg.body.id as string, token, bank, food };
}

describe('a real full disk and a real read-only data folder (tmpfs; needs root and mount)', () => {
  const mountPoint = tempDir('tmpfs');
  const mounted = tryMountTmpfs(mountPoint, '8m');
  // Skipped where the machine cannot mount a tmpfs (not root); CI runs as root, where a failed mount fails.
  const inCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
  const runHere = mounted || inCi;
  let server: ChildServer | undefined;
  beforeAll(() => {
    if (runHere && !mounted)
      throw new Error(`could not mount a tmpfs on ${mountPoint}: these tests need root and mount(8)`);
  });
  afterAll(async () => {
    if (server) await killServer(server);
    if (mounted) unmount(mountPoint);
    fs.rmSync(mountPoint, { recursive: true, force: true });
    await recordResults('storage', { tmpfs_available: mounted, ...figures });
  });

  it.runIf(runHere)(
    'when the disk fills up under the running server, then every write is 201 or 507 STORAGE_FULL (never another 5xx), reads answer, and after a crash the file is intact with every acknowledged write',
    async () => {
      const dataDir = path.join(mountPoint, 'full');
      server = await spawnServer(dataDir);
      const user = await seedUser(server.url, 'full@example.com');
      const acked: string[] = [];
      const spend = (memo: string) => ({
        entry_date: '2026-01-05',
        memo,
        auto_post: true,
        lines: Array.from({ length: 100 }, (_, i) => ({
          account_id: i % 2 ? user.bank : user.food,
          direction: i % 2 ? 'CREDIT' : 'DEBIT',
          amount: '1.00',
        })),
      });
      // Fill every byte left.
      const filler = path.join(mountPoint, 'filler');
      const fd = fs.openSync(filler, 'w');
      for (const size of [1024 * 1024, 4096, 1]) {
        try {
          for (;;) fs.writeSync(fd, Buffer.alloc(size, 1));
        } catch (error) {
          expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
        }
      }
      fs.closeSync(fd);
      const statuses: Record<string, number> = {};
      let full = 0;
      for (let i = 0; i < 200 && full < 6; i++) {
        // Entries are written on the server's thread, statement imports on its job thread: both must say so.
        const res =
          i % 2 === 0
            ? await send(`${server.url}/api/journal-entries`, json(user.token, spend(`Full ${i} ${'m'.repeat(400)}`)))
            : await send(
                `${server.url}/api/statements`,
                json(user.token, {
                  account_id: user.bank,
                  transactions: Array.from({ length: 300 }, (_, k) => ({
                    date: '2026-01-07',
                    description: `Full ${i} ${k} ${'d'.repeat(200)}`,
                    amount: '1.00',
                    type: 'debit',
                  })),
                }),
              );
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status === 201) {
          if (i % 2 === 0) acked.push(res.body.id);
        } else {
          expectErrorShape(res, 507, 'STORAGE_FULL');
          full += 1;
        }
      }
      expect(full, JSON.stringify(statuses)).toBeGreaterThan(0);
      const registered = await send(`${server.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'late@example.com', name: 'Late', password: PASSWORD }),
      });
      expect([201, 503, 507], registered.text).toContain(registered.status);
      if (registered.status !== 201) expectErrorShape(registered);
      expect(
        (await send(`${server.url}/api/accounts/balances`, { headers: { authorization: `Bearer ${user.token}` } }))
          .status,
      ).toBe(200);

      // Room again: writes succeed (a refused registration left nothing behind); then a crash, and the file holds everything acknowledged.
      fs.rmSync(filler);
      const again = await send(`${server.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'late@example.com', name: 'Late', password: PASSWORD }),
      });
      expect(again.status, `${registered.status} then ${again.status} ${again.text}`).toBe(
        registered.status === 201 ? 409 : 201,
      );
      const after = await send(`${server.url}/api/journal-entries`, json(user.token, spend('After')));
      expect(after.status, after.text).toBe(201);
      acked.push(after.body.id);
      await killServer(server);
      server = undefined;
      const file = path.join(dataDir, 'ledgers', `${user.id}.sqlite`);
      expect(checkLedgerFile(file).problems).toEqual([]);
      const db = new Database(file, { readonly: true });
      const ids = new Set(db.prepare("SELECT id FROM journal_entries WHERE status = 'posted'").pluck().all());
      db.close();
      for (const id of acked) expect(ids.has(id)).toBe(true);
      expect(statuses['507']).toBeGreaterThanOrEqual(6);
      figures.full_disk = {
        acknowledged_before_full: acked.length - 1,
        storage_full_answers: full,
        statuses,
        register_when_full: registered.status,
      };
    },
  );

  it.runIf(runHere)(
    'when the data folder is read-only, then the server refuses to start with one clear line and no file changes; writable again, it starts with the data intact',
    async () => {
      const dataDir = path.join(mountPoint, 'ro');
      server = await spawnServer(dataDir);
      const user = await seedUser(server.url, 'ro@example.com');
      const entry = await send(
        `${server.url}/api/journal-entries`,
        json(user.token, {
          entry_date: '2026-01-06',
          auto_post: true,
          lines: [
            { account_id: user.food, direction: 'DEBIT', amount: '4.00' },
            { account_id: user.bank, direction: 'CREDIT', amount: '4.00' },
          ],
        }),
      );
      expect(entry.status).toBe(201);
      await killServer(server, 'SIGTERM');
      server = undefined;
      const before = fileHashes(dataDir);
      execFileSync('mount', ['-o', 'remount,ro', mountPoint]);
      try {
        await expect(spawnServer(dataDir)).rejects.toThrow(
          /exited \(1\).*Cannot start: the data folder is not writable/s,
        );
        expect(fileHashes(dataDir)).toEqual(before);
      } finally {
        execFileSync('mount', ['-o', 'remount,rw', mountPoint]);
      }
      server = await spawnServer(dataDir);
      const read = await send(`${server.url}/api/journal-entries/${entry.body.id}`, {
        headers: { authorization: `Bearer ${user.token}` },
      });
      expect(read.status).toBe(200);
      await killServer(server, 'SIGTERM');
      server = undefined;
      expect(checkLedgerFile(path.join(dataDir, 'ledgers', `${user.id}.sqlite`)).problems).toEqual([]);
      figures.read_only_folder = 'refused to start with one line; files unchanged';
    },
  );
});

// As root file modes restrict nothing: there the tmpfs test above checks the same refusal.
describe('a read-only data folder without root (file modes)', () => {
  const asRoot = process.getuid?.() === 0;
  it.skipIf(asRoot || process.platform === 'win32')(
    'when the data folder and its files are read-only, then the server refuses to start with one clear line and changes nothing',
    async () => {
      const dataDir = tempDir('ro-modes');
      try {
        let server = await spawnServer(dataDir);
        const user = await seedUser(server.url, 'modes@example.com');
        await killServer(server, 'SIGTERM');
        const before = fileHashes(dataDir);
        const lock = (mode: number, fileMode: number) => {
          for (const dir of [dataDir, path.join(dataDir, 'ledgers')]) {
            for (const f of fs.readdirSync(dir))
              if (fs.statSync(path.join(dir, f)).isFile()) fs.chmodSync(path.join(dir, f), fileMode);
            fs.chmodSync(dir, mode);
          }
        };
        lock(0o500, 0o400);
        try {
          await expect(spawnServer(dataDir)).rejects.toThrow(/Cannot start: the data folder is not writable/);
          expect(fileHashes(dataDir)).toEqual(before);
        } finally {
          lock(0o700, 0o600);
        }
        server = await spawnServer(dataDir);
        await killServer(server, 'SIGTERM');
        expect(checkLedgerFile(path.join(dataDir, 'ledgers', `${user.id}.sqlite`)).problems).toEqual([]);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
