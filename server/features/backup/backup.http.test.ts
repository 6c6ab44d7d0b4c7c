import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOllama, gate } from '../../../test/support/fake-ollama.ts';
import {
  databaseDigest,
  ledgerFile,
  registerUser,
  startTestServer,
  type Api,
  type TestServer,
} from '../../../test/support/server.ts';
import { LEDGER_REPLACED } from '../../db/sqlite.ts';
import { Stores } from '../../db/stores.ts';
import { appJobRunner } from '../../../test/support/jobs.ts';
import { BackupService, BACKUPS_KEPT, DAY_MS, DailyBackups } from './backup.service.ts';

let t: TestServer;
let api: Api;
let clock = Date.parse('2026-03-01T08:00:00.000Z');

beforeAll(async () => {
  t = await startTestServer({ now: () => clock, backupIntervalMs: 0 });
  api = t.api;
});
afterAll(() => t.stop());

async function account(token: string, name: string): Promise<number> {
  return (await api.post('/api/accounts', { name, type: 'ASSET' }, token)).status;
}

async function names(token: string): Promise<string[]> {
  return (await api.get('/api/accounts?per_page=100', token)).body.items.map((a: { name: string }) => a.name);
}

function mode(file: string): number {
  return fs.statSync(file).mode & 0o777;
}

/** What a restore changes on purpose: the books' node id for the sync (docs/sync.md). */
const RESTORED = { except: ['sync_state'] };

describe('backups', () => {
  it('when a backup is taken, then it is an owner-only copy in backups/<user>/, listed newest first with its size and time', async () => {
    const u = await registerUser(api);
    await account(u.token, 'Checking');
    const res = await api.post('/api/backup', {}, u.token);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      name: 'ledger-20260301T080000000Z-manual.sqlite',
      size_bytes: expect.any(Number),
      created_at: '2026-03-01T08:00:00.000Z',
      reason: 'manual',
    });
    const file = path.join(t.dataDir, 'backups', u.id, res.body.name);
    expect(fs.statSync(file).size).toBe(res.body.size_bytes);
    expect(mode(file)).toBe(0o600);
    expect(mode(path.dirname(file))).toBe(0o700);
    expect(mode(path.join(t.dataDir, 'backups'))).toBe(0o700);
    clock += 1000;
    await api.post('/api/backup', {}, u.token);
    const list = await api.get('/api/backups', u.token);
    expect(list.body.keep).toBe(BACKUPS_KEPT);
    expect(list.body.items.map((b: { name: string }) => b.name)).toEqual([
      'ledger-20260301T080001000Z-manual.sqlite',
      'ledger-20260301T080000000Z-manual.sqlite',
    ]);
  });

  it('when the user writes while a backup is taken (on the job worker), then the write goes through and the backup is a whole ledger', async () => {
    const u = await registerUser(api);
    await account(u.token, 'Checking');
    clock += 1000;
    const [backup, write] = await Promise.all([
      api.post('/api/backup', {}, u.token),
      api.post('/api/accounts', { name: 'Meanwhile', type: 'ASSET' }, u.token),
    ]);
    expect([backup.status, write.status]).toEqual([201, 201]);
    expect(await names(u.token)).toEqual(['Checking', 'Meanwhile']);
    const copy = new Database(path.join(t.dataDir, 'backups', u.id, backup.body.name), { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.prepare('SELECT name FROM accounts').pluck().all()).toContain('Checking');
    } finally {
      copy.close();
    }
  });

  it('when a mistake is restored from yesterday’s backup, then the ledger is as it was, and the state before the restore was backed up first', async () => {
    const u = await registerUser(api);
    await account(u.token, 'Checking');
    const backup = (await api.post('/api/backup', {}, u.token)).body;
    // a restore gives the books a new node id (sync_state, docs/sync.md); everything else is the backup's
    const before = databaseDigest(ledgerFile(t.dataDir, u.id), RESTORED);
    clock += DAY_MS;
    await account(u.token, 'Mistake');
    expect(await names(u.token)).toEqual(['Checking', 'Mistake']);
    const res = await api.post(`/api/backups/${backup.name}/restore`, {}, u.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      restored: backup,
      safety_backup: { reason: 'pre-restore' },
      accounts: 1,
      entries: 0,
    });
    expect(await names(u.token)).toEqual(['Checking']);
    expect(databaseDigest(ledgerFile(t.dataDir, u.id), RESTORED)).toBe(before);
    // The safety copy holds the mistake, so the restore itself can be undone.
    const undo = await api.post(`/api/backups/${res.body.safety_backup.name}/restore`, {}, u.token);
    expect(undo.status).toBe(200);
    expect(await names(u.token)).toEqual(['Checking', 'Mistake']);
    expect(await account(u.token, 'After the restore')).toBe(201);
  });

  it('when another user’s backup name, a path, or anything but a backup name is asked for, then it is 404 and nothing changes', async () => {
    const alice = await registerUser(api);
    const bob = await registerUser(api);
    await account(alice.token, 'Alice only');
    const aliceBackup = (await api.post('/api/backup', {}, alice.token)).body.name as string;
    expect((await api.get('/api/backups', bob.token)).body.items).toEqual([]);
    const digest = databaseDigest(ledgerFile(t.dataDir, bob.id));
    const attempts = [
      aliceBackup,
      `..%2F${alice.id}%2F${aliceBackup}`,
      '..%2F..%2Fidentity.sqlite',
      '..%2F..%2Fledgers%2F' + alice.id + '.sqlite',
      'ledger-20260301T080000000Z-manual.sqlite%00.txt',
      'ledger-20260301T080000000Z-manual.sqlite',
      '.ledger-20260301T080000000Z-manual.sqlite.partial',
    ];
    for (const name of attempts) {
      const res = await api.post(`/api/backups/${name}/restore`, {}, bob.token);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    expect(databaseDigest(ledgerFile(t.dataDir, bob.id))).toBe(digest);
    expect(await names(bob.token)).toEqual([]);
    expect((await api.post('/api/backup', {}, 'not-a-token')).status).toBe(401);
  });

  it(`when more than ${BACKUPS_KEPT} backups are taken, then only the newest ${BACKUPS_KEPT} are kept`, async () => {
    const u = await registerUser(api);
    await account(u.token, 'Checking');
    const made: string[] = [];
    for (let i = 0; i < BACKUPS_KEPT + 3; i++) {
      clock += 1000;
      made.push((await api.post('/api/backup', {}, u.token)).body.name);
    }
    const kept = (await api.get('/api/backups', u.token)).body.items.map((b: { name: string }) => b.name);
    expect(kept).toEqual(made.slice(-BACKUPS_KEPT).reverse());
  });

  it('when a backup file is damaged, then the restore is refused and the ledger is unchanged', async () => {
    const u = await registerUser(api);
    await account(u.token, 'Checking');
    const backup = (await api.post('/api/backup', {}, u.token)).body.name as string;
    const file = path.join(t.dataDir, 'backups', u.id, backup);
    const bytes = fs.readFileSync(file);
    bytes.fill(0x41, 4096, 8192);
    fs.writeFileSync(file, bytes);
    await account(u.token, 'Kept');
    const digest = databaseDigest(ledgerFile(t.dataDir, u.id));
    const res = await api.post(`/api/backups/${backup}/restore`, {}, u.token);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_BACKUP');
    expect(databaseDigest(ledgerFile(t.dataDir, u.id))).toBe(digest);
    expect(await names(u.token)).toEqual(['Checking', 'Kept']);
    // the staged copy the worker checked is gone with its side files
    expect(fs.readdirSync(path.join(t.dataDir, 'ledgers')).filter((f) => f.includes('.restore-'))).toEqual([]);
  });

  it('when a backup was written by a newer version of the app, then the restore is refused and the ledger is unchanged', async () => {
    const u = await registerUser(api);
    await account(u.token, 'Checking');
    const backup = (await api.post('/api/backup', {}, u.token)).body.name as string;
    const copy = new Database(path.join(t.dataDir, 'backups', u.id, backup));
    copy
      .prepare("INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (99, 'future', 'x', 'now')")
      .run();
    copy.close();
    const digest = databaseDigest(ledgerFile(t.dataDir, u.id));
    const res = await api.post(`/api/backups/${backup}/restore`, {}, u.token);
    expect(res.body).toMatchObject({ code: 'INVALID_BACKUP', detail: expect.stringMatching(/newer version/) });
    expect(databaseDigest(ledgerFile(t.dataDir, u.id))).toBe(digest);
    expect(fs.readdirSync(path.join(t.dataDir, 'ledgers')).filter((f) => f.includes('.restore-'))).toEqual([]);
  });

  it.each([
    [
      'a trigger',
      "CREATE TRIGGER steal AFTER INSERT ON accounts BEGIN UPDATE accounts SET name = 'owned' WHERE id = NEW.id; END",
      'an added trigger steal',
    ],
    ['a view', 'CREATE VIEW everything AS SELECT * FROM accounts', 'an added view everything'],
    ['a table', 'CREATE TABLE notes (body TEXT)', 'an added table notes'],
    [
      'an index',
      'CREATE INDEX accounts_by_description ON accounts (description)',
      'an added index accounts_by_description',
    ],
  ])(
    'when a backup holds %s the app never made, then the restore is refused naming it, the current books are untouched, and no write runs it',
    async (_what, sql, named) => {
      const u = await registerUser(api);
      await account(u.token, 'Checking');
      const backup = (await api.post('/api/backup', {}, u.token)).body.name as string;
      const copy = new Database(path.join(t.dataDir, 'backups', u.id, backup));
      copy.exec(sql);
      copy.close();
      await account(u.token, 'Kept');
      const digest = databaseDigest(ledgerFile(t.dataDir, u.id));
      const res = await api.post(`/api/backups/${backup}/restore`, {}, u.token);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'INVALID_BACKUP',
        detail: expect.stringContaining(`is not a ledger of this app: its schema has ${named}`),
      });
      expect(databaseDigest(ledgerFile(t.dataDir, u.id))).toBe(digest);
      expect(await account(u.token, 'After')).toBe(201);
      expect(await names(u.token)).toEqual(['After', 'Checking', 'Kept']);
      expect(fs.readdirSync(path.join(t.dataDir, 'ledgers')).filter((f) => f.includes('.restore-'))).toEqual([]);
    },
  );
});

describe('a restore while another request of the same user is in flight', () => {
  it('when the advisor holds the old ledger across the restore and then reads it, then its stream ends with a readable line, nothing is written, and the ledger is exactly the restored one', async () => {
    const fake = new FakeOllama();
    await fake.start();
    const own = await startTestServer({
      env: { OLLAMA_HOST: fake.url, OLLAMA_MODEL: 'qwen2.5:3b' },
      backupIntervalMs: 0,
    });
    try {
      const u = await registerUser(own.api);
      await own.api.post('/api/accounts', { name: 'Checking', type: 'ASSET' }, u.token);
      const backup = (await own.api.post('/api/backup', {}, u.token)).body.name as string;
      const restoredDigest = databaseDigest(ledgerFile(own.dataDir, u.id), RESTORED);
      await own.api.post('/api/accounts', { name: 'Mistake', type: 'ASSET' }, u.token);
      // The model's tool call (a read of the ledger) waits until the restore is done.
      const restoreDone = gate();
      fake.script({
        chunks: [
          { content: 'Let me look. ' },
          { tool_calls: [{ function: { name: 'get_balances', arguments: {} } }], before: restoreDone.promise },
        ],
      });
      const chat = await fetch(`${own.server.url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${u.token}` },
        body: JSON.stringify({ message: 'What are my balances?' }),
      });
      // Headers are sent once the turn has begun: the request now holds the old ledger, awaiting the model.
      expect(chat.status).toBe(200);
      const restore = await own.api.post(`/api/backups/${backup}/restore`, {}, u.token);
      expect(restore.status).toBe(200);
      restoreDone.open();
      expect(await chat.text()).toBe(
        `Let me look. \n\n[The advisor stopped: ${LEDGER_REPLACED}]\n\nThe above analysis is for reference only.\n`,
      );
      expect(databaseDigest(ledgerFile(own.dataDir, u.id), RESTORED)).toBe(restoredDigest);
      expect(
        (await own.api.get('/api/accounts?per_page=100', u.token)).body.items.map((a: { name: string }) => a.name),
      ).toEqual(['Checking']);
      // the user's next question is answered from the restored ledger
      fake.script({ chunks: [{ content: 'Fine.' }] });
      expect((await own.api.post('/api/chat', { message: 'Again?' }, u.token)).status).toBe(200);
    } finally {
      await own.stop();
      await fake.stop();
    }
  });
});

describe('daily backups', () => {
  it('when a round runs, then each ledger without a backup in the last 24 hours gets one, and no other', async () => {
    const u = await registerUser(api);
    const v = await registerUser(api);
    await account(u.token, 'A');
    await account(v.token, 'B');
    await api.post('/api/backup', {}, v.token);
    const stores = new Stores(t.dataDir);
    const jobs = appJobRunner(stores);
    try {
      let now = clock + 60_000;
      const daily = new DailyBackups(new BackupService(stores, jobs, t.dataDir, () => now), {
        now: () => now,
        intervalMs: 0,
      });
      await daily.runOnce();
      const reasons = async (token: string) =>
        (await api.get('/api/backups', token)).body.items.map((b: { reason: string }) => b.reason);
      expect(await reasons(u.token)).toEqual(['daily']);
      expect(await reasons(v.token)).toEqual(['manual']);
      now += DAY_MS - 120_000;
      await daily.runOnce();
      expect(await reasons(v.token)).toEqual(['manual']);
      now += 120_000;
      await daily.runOnce();
      expect(await reasons(u.token)).toEqual(['daily', 'daily']);
      expect(await reasons(v.token)).toEqual(['daily', 'manual']);
      await daily.stop();
    } finally {
      await jobs.close();
      stores.close();
    }
  });

  it('when the server runs with a backup interval, then its timer takes the daily backup by itself, and closing the server stops it', async () => {
    const own = await startTestServer({ backupIntervalMs: 20 });
    try {
      const u = await registerUser(own.api);
      await own.api.post('/api/accounts', { name: 'A', type: 'ASSET' }, u.token);
      const dir = path.join(own.dataDir, 'backups', u.id);
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (fs.existsSync(dir) && fs.readdirSync(dir).some((n) => n.endsWith('-daily.sqlite'))) {
            clearInterval(poll);
            resolve();
          }
        }, 10);
      });
      expect((await own.api.get('/api/backups', u.token)).body.items[0].reason).toBe('daily');
    } finally {
      await own.stop();
    }
  });
});
