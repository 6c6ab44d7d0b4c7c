import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import v8 from 'node:v8';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HEAP_GROWTH } from '../heap.ts';
import { Stores } from '../db/stores.ts';
import {
  databaseDigest,
  ledgerFile,
  registerUser,
  startTestServer,
  type TestServer,
} from '../../test/support/server.ts';
import { JOB_TABLE } from '../job-table.ts';
import { appJobRunner } from '../../test/support/jobs.ts';
import { INLINE_BYTES } from './job-runner.ts';

/**
 * Long imports run on the job worker: the server keeps answering meanwhile, the user's own writes
 * wait their turn, and errors come back exactly as when the import runs on the server's thread.
 */

let t: TestServer;
let token: string;
let userId: string;
let bank: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ token, id: userId } = await registerUser(t.api));
  bank = (await t.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, token)).body.id;
});
afterAll(() => t.stop());

function rows(n: number, tag: string) {
  return Array.from({ length: n }, (_, i) => ({
    date: `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
    description: `${tag} shop ${i}`,
    amount: `${(i % 500) + 1}.${String(i % 100).padStart(2, '0')}`,
    type: i % 3 === 0 ? 'credit' : 'debit',
    external_id: `${tag}-${i}`,
  }));
}

describe('long jobs', () => {
  it('when a statement of 20,000 rows (over 2 MB of JSON) is imported, then other requests keep being answered promptly meanwhile', async () => {
    let importDone = false;
    const importing = t.api
      .post('/api/statements', { account_id: bank, name: 'Big', transactions: rows(20_000, 'big') }, token)
      .then((res) => {
        importDone = true;
        return res;
      });
    let answered = 0;
    while (!importDone) {
      const res = await t.api.get(`/api/accounts/${bank}/balance`, token);
      expect(res.status).toBe(200);
      answered += 1;
    }
    const res = await importing;
    expect(res.status).toBe(201);
    expect(res.body.imported_count).toBe(20_000);
    // Reads one after another while the import runs: had it run on the server's thread, no read would
    // have been answered between its start and its end (one or two slip in while its body arrives).
    expect(answered).toBeGreaterThan(100);
  });

  it('when the user writes while their import runs, then the write waits for it and both succeed', async () => {
    const importing = t.api.post(
      '/api/statements',
      { account_id: bank, name: 'Second', transactions: rows(5_000, 'second') },
      token,
    );
    const created = t.api.post('/api/accounts', { name: 'Made meanwhile', type: 'EXPENSE' }, token);
    const [imported, account] = await Promise.all([importing, created]);
    expect(imported.status).toBe(201);
    expect(account.status).toBe(201);
    const statements = await t.api.get('/api/statements?per_page=100', token);
    expect(statements.body.items.map((s: { name: string }) => s.name)).toContain('Second');
  });

  it('when a large import has a bad row, then it is the same 400 with field errors as a small one, and nothing is stored', async () => {
    const before = (await t.api.get('/api/statements?per_page=100', token)).body.total;
    const bad = rows(2_000, 'bad');
    bad[1_234] = { ...bad[1_234]!, amount: '12.345' };
    const big = await t.api.post('/api/statements', { account_id: bank, transactions: bad }, token);
    const small = await t.api.post('/api/statements', { account_id: bank, transactions: [bad[1_234]] }, token);
    expect(big.status).toBe(400);
    expect(big.body.code).toBe('VALIDATION_ERROR');
    expect(big.body.errors).toEqual([{ field: 'transactions.1234.amount', message: expect.any(String) }]);
    expect(small.body.code).toBe(big.body.code);
    expect((await t.api.get('/api/statements?per_page=100', token)).body.total).toBe(before);
  });

  it('when a large JSON body is not JSON, then it is 400 MALFORMED_JSON as for any body', async () => {
    const text = `{"account_id": "${bank}", "transactions": [${'{"date": "2025-01-01"},'.repeat(5_000)}`;
    const res = await t.api.request('POST', '/api/statements', {
      token,
      rawBody: text,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('MALFORMED_JSON');
  });

  it('when a big statement is handed to the worker, then its bytes are moved there rather than copied, and it imports', async () => {
    const stores = new Stores(t.dataDir);
    const jobs = appJobRunner(stores);
    try {
      const body = new TextEncoder().encode(
        JSON.stringify({ account_id: bank, name: 'Moved', transactions: rows(3_000, 'moved') }),
      );
      const size = body.byteLength;
      const result = await jobs.run(userId, 'createStatement', { bytes: body }, size);
      expect(result.imported_count).toBe(3_000);
      // the caller's array was detached: a 20 MB statement is not held twice
      expect(body.byteLength).toBe(0);
    } finally {
      await jobs.close();
      stores.close();
    }
  });

  it('when a job leaves the worker with a big heap, then the worker is retired at once and the next job starts a new one; after a small job it is kept', async () => {
    const stores = new Stores(t.dataDir);
    const statement = (tag: string) =>
      new TextEncoder().encode(JSON.stringify({ account_id: bank, name: tag, transactions: rows(1_000, tag) }));
    const twoJobs = async (retireHeapBytes: number, tag: string) => {
      const jobs = appJobRunner(stores, { retireHeapBytes });
      try {
        for (const n of [1, 2]) {
          const body = statement(`${tag}-${n}`);
          expect((await jobs.run(userId, 'createStatement', { bytes: body }, body.byteLength)).imported_count).toBe(
            1_000,
          );
        }
        return jobs.workersStarted;
      } finally {
        await jobs.close();
      }
    };
    try {
      // every heap is past 1 byte: the worker goes after each job
      expect(await twoJobs(1, 'retired')).toBe(2);
      // no heap is past 1 GiB: one worker does both
      expect(await twoJobs(1024 ** 3, 'kept')).toBe(1);
    } finally {
      stores.close();
    }
  });

  it('when the worker is started ahead of a job, then that job finds it: one worker in all, however often it is warmed', async () => {
    const stores = new Stores(t.dataDir);
    const jobs = appJobRunner(stores);
    try {
      jobs.prewarm();
      jobs.prewarm();
      const body = new TextEncoder().encode(
        JSON.stringify({ account_id: bank, name: 'Warm', transactions: rows(10, 'warm') }),
      );
      await Promise.resolve();
      expect(jobs.workersStarted).toBe(1);
      jobs.prewarm();
      expect((await jobs.run(userId, 'createStatement', { bytes: body })).imported_count).toBe(10);
      expect(jobs.workersStarted).toBe(1);
    } finally {
      await jobs.close();
      stores.close();
    }
    // a closed runner starts none
    jobs.prewarm();
    await Promise.resolve();
    expect(jobs.workersStarted).toBe(1);
  });

  it('when a job runs on the worker, then the runner says it is busy until the job ends, a failed one too', async () => {
    const stores = new Stores(t.dataDir);
    const events: boolean[] = [];
    const jobs = appJobRunner(stores, { onBusyChange: (busy) => events.push(busy) });
    try {
      const body = new TextEncoder().encode(
        JSON.stringify({ account_id: bank, name: 'Busy', transactions: rows(100, 'busy') }),
      );
      const broken = new TextEncoder().encode('{"account_id": ');
      await expect(jobs.run(userId, 'createStatement', { bytes: body })).resolves.toMatchObject({
        imported_count: 100,
      });
      expect(events).toEqual([true, false]);
      await expect(jobs.run(userId, 'createStatement', { bytes: broken })).rejects.toMatchObject({
        code: 'MALFORMED_JSON',
      });
      expect(events).toEqual([true, false, true, false]);
    } finally {
      await jobs.close();
      stores.close();
    }
  });

  it('when a big statement is imported through the API, then V8 collects sooner while the worker has it, and as before once it is done', async () => {
    const calls = vi.spyOn(v8, 'setFlagsFromString');
    try {
      const transactions = rows(1_000, 'heap-growth');
      expect(JSON.stringify(transactions).length).toBeGreaterThan(INLINE_BYTES);
      expect(
        (await t.api.post('/api/statements', { account_id: bank, name: 'Heap growth', transactions }, token)).status,
      ).toBe(201);
      expect(calls.mock.calls.map(([flag]) => flag)).toEqual([HEAP_GROWTH.duringJobs, HEAP_GROWTH.serving]);
    } finally {
      calls.mockRestore();
    }
  });

  it('when the JSON of a statement is imported, then its bytes are given back as soon as they are decoded', () => {
    const stores = new Stores(t.dataDir);
    try {
      const body = new TextEncoder().encode(
        JSON.stringify({ account_id: bank, name: 'Given back', transactions: rows(10, 'given-back') }),
      );
      const buffer = body.buffer;
      expect(JOB_TABLE.createStatement.run(stores.ledger(userId), { bytes: body }).imported_count).toBe(10);
      expect(buffer.detached).toBe(true);
    } finally {
      stores.close();
    }
  });
});

/** Resolves at the first change in `dir` to a file whose name passes `match` (inotify: no polling). */
function fileEvent(dir: string, match: (name: string) => boolean): Promise<void> {
  const watcher = fs.watch(dir);
  return new Promise((resolve) => {
    watcher.on('change', (_type, name) => {
      if (name === null || !match(String(name))) return;
      watcher.close();
      resolve();
    });
  });
}

/** The user's statement rows of one import (by their external ids) in a ledger file, read through a connection of its own. */
function importedRows(file: string, tag: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare('SELECT count(*) FROM bank_transactions WHERE external_id LIKE ?')
      .pluck()
      .get(`${tag}-%`) as number;
  } finally {
    db.close();
  }
}

describe('a restore and the same user’s long import', () => {
  it('when a big import is sent while a restore is under way, then it waits for the restore and goes into the restored ledger, and the safety backup is the ledger as it was', async () => {
    const u = await registerUser(t.api);
    const account = (await t.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, u.token)).body.id;
    // A ledger of some MB: checking the backup and copying the ledger take many steps.
    expect(
      (
        await t.api.post(
          '/api/statements',
          { account_id: account, name: 'Old', transactions: rows(20_000, 'old') },
          u.token,
        )
      ).status,
    ).toBe(201);
    const backup = (await t.api.post('/api/backup', {}, u.token)).body.name as string;
    await t.api.post('/api/accounts', { name: 'Mistake', type: 'ASSET' }, u.token);
    const file = ledgerFile(t.dataDir, u.id);
    const before = databaseDigest(file);
    const meanwhile = { account_id: account, name: 'Meanwhile', transactions: rows(1_000, 'meanwhile') };
    expect(JSON.stringify(meanwhile).length).toBeGreaterThan(INLINE_BYTES); // so it goes to the worker

    const staging = fileEvent(path.dirname(file), (name) => name.startsWith(`${u.id}.sqlite.restore-`));
    const restoring = t.api.post(`/api/backups/${backup}/restore`, {}, u.token);
    await staging; // the restore is under way: the worker is checking its copy of the backup
    const importing = t.api.post('/api/statements', meanwhile, u.token);
    const [restore, imported] = await Promise.all([restoring, importing]);

    expect(restore.status).toBe(200);
    expect(imported.status).toBe(201);
    expect(imported.body.imported_count).toBe(1_000);
    expect(
      (await t.api.get('/api/accounts?per_page=100', u.token)).body.items.map((a: { name: string }) => a.name),
    ).toEqual(['Bank']);
    expect(
      (await t.api.get('/api/statements?per_page=100', u.token)).body.items.map((s: { name: string }) => s.name).sort(),
    ).toEqual(['Meanwhile', 'Old']);
    expect(importedRows(file, 'meanwhile')).toBe(1_000);
    const check = new Database(file, { readonly: true });
    try {
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      check.close();
    }
    expect(databaseDigest(path.join(t.dataDir, 'backups', u.id, restore.body.safety_backup.name))).toBe(before);
  });

  it('when a restore is sent while a big import runs, then the restore waits for it: the import is in the safety backup, not in the restored ledger', async () => {
    const u = await registerUser(t.api);
    const account = (await t.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, u.token)).body.id;
    const backup = (await t.api.post('/api/backup', {}, u.token)).body.name as string;
    const file = ledgerFile(t.dataDir, u.id);
    // a restore gives the books a new node id for the sync (docs/sync.md): the rest is the backup's
    const backedUp = databaseDigest(file, { except: ['sync_state'] });

    const writing = fileEvent(path.dirname(file), (name) => name === `${u.id}.sqlite-wal`);
    const importing = t.api.post(
      '/api/statements',
      { account_id: account, name: 'Running', transactions: rows(20_000, 'running') },
      u.token,
    );
    await writing; // the import's pages reach the WAL: it runs on the worker (or has just committed)
    const restore = await t.api.post(`/api/backups/${backup}/restore`, {}, u.token);
    const imported = await importing;

    expect(imported.status).toBe(201);
    expect(restore.status).toBe(200);
    expect(databaseDigest(file, { except: ['sync_state'] })).toBe(backedUp);
    expect(importedRows(file, 'running')).toBe(0);
    expect(importedRows(path.join(t.dataDir, 'backups', u.id, restore.body.safety_backup.name), 'running')).toBe(
      20_000,
    );
  });
});

/** A journal of `n` entries (about 60 bytes each): its import holds every transaction in memory at once. */
function journal(n: number): Uint8Array {
  const text = Array.from(
    { length: n },
    (_, i) =>
      `2024-01-${String((i % 28) + 1).padStart(2, '0')} Entry ${i}\n    Expenses:Food    ${(i % 900) + 1}.25 USD\n    Assets:Bank\n`,
  ).join('\n');
  return new TextEncoder().encode(text);
}

describe('budgets and turns', () => {
  it('when a job needs more memory than its budget, then it is stopped with JOB_BUDGET_EXCEEDED, nothing is stored, and the next job runs on a fresh worker', async () => {
    const u = await registerUser(t.api);
    await t.api.get('/api/accounts', u.token);
    const file = ledgerFile(t.dataDir, u.id);
    const before = databaseDigest(file);
    const stores = new Stores(t.dataDir);
    const jobs = appJobRunner(stores, { budget: { heapMb: 48 } });
    try {
      const stopped = jobs.run(u.id, 'importJournal', { bytes: journal(40_000), format: 'hledger' });
      await expect(stopped).rejects.toMatchObject({
        code: 'JOB_BUDGET_EXCEEDED',
        message: expect.stringMatching(
          /^This journal import needed more than 48 MB of memory and was stopped; nothing was changed/,
        ),
      });
      expect(databaseDigest(file)).toBe(before);
      const small = await jobs.run(u.id, 'importJournal', { bytes: journal(10), format: 'hledger' });
      expect(small.entries_imported).toBe(10);
      expect(jobs.workersStarted).toBe(2);
    } finally {
      await jobs.close();
      stores.close();
    }
  });

  it('when a job runs past its time budget, then the worker is stopped, the job fails with JOB_BUDGET_EXCEEDED, nothing is stored and the ledger is writable at once', async () => {
    const u = await registerUser(t.api);
    const account = (await t.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, u.token)).body.id;
    const file = ledgerFile(t.dataDir, u.id);
    const before = databaseDigest(file);
    const stores = new Stores(t.dataDir);
    // 1 ms: far less than the worker's own start, let alone 20,000 rows.
    const jobs = appJobRunner(stores, { budget: { ms: 1 } });
    try {
      const bytes = new TextEncoder().encode(
        JSON.stringify({ account_id: account, transactions: rows(20_000, 'slow') }),
      );
      await expect(jobs.run(u.id, 'createStatement', { bytes })).rejects.toMatchObject({
        code: 'JOB_BUDGET_EXCEEDED',
        message: expect.stringMatching(/^This statement import needed more than 1 ms of work and was stopped/),
      });
      expect(databaseDigest(file)).toBe(before);
      // The stopped worker's connection is gone with its thread: no lock is left to wait for.
      const ledger = stores.ledger(u.id);
      ledger.sqlite.pragma('busy_timeout = 0');
      expect(
        ledger.transaction(() => ledger.runSql("UPDATE accounts SET description = 'after' WHERE id = ?", account)),
      ).toBe(1);
    } finally {
      await jobs.close();
      stores.close();
    }
  });

  it('when one user has asked for several jobs and another user asks for one, then the other user’s job runs next, not after all of the first user’s', async () => {
    const a = await registerUser(t.api);
    const b = await registerUser(t.api);
    const bankOf = async (token: string) =>
      (await t.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, token)).body.id as string;
    const [bankA, bankB] = [await bankOf(a.token), await bankOf(b.token)];
    const stores = new Stores(t.dataDir);
    const jobs = appJobRunner(stores);
    const finished: string[] = [];
    const statement = (user: { id: string }, bank: string, tag: string) =>
      jobs
        .run(user.id, 'createStatement', {
          bytes: new TextEncoder().encode(JSON.stringify({ account_id: bank, transactions: rows(2_000, tag) })),
        })
        .then(() => finished.push(tag));
    try {
      const all = [statement(a, bankA, 'a1'), statement(a, bankA, 'a2'), statement(a, bankA, 'a3')];
      all.push(statement(b, bankB, 'b1'));
      await Promise.all(all);
      expect(finished).toEqual(['a1', 'b1', 'a2', 'a3']);
    } finally {
      await jobs.close();
      stores.close();
    }
  });

  it('when a job through the API runs past its memory budget, then the answer is 422 JOB_BUDGET_EXCEEDED in the error shape, and the user’s next import goes through', async () => {
    const s = await startTestServer({ jobBudget: { heapMb: 32 } });
    try {
      const u = await registerUser(s.api);
      await s.api.get('/api/accounts', u.token);
      const file = ledgerFile(s.dataDir, u.id);
      const before = databaseDigest(file);
      const send = (bytes: Uint8Array) =>
        s.api.request('POST', '/api/import/journal?format=hledger', {
          rawBody: bytes,
          token: u.token,
          headers: { 'content-type': 'text/plain' },
        });
      const res = await send(journal(20_000));
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ detail: expect.stringMatching(/32 MB of memory/), code: 'JOB_BUDGET_EXCEEDED' });
      expect(databaseDigest(file)).toBe(before);
      expect((await send(journal(5))).status).toBe(201);
    } finally {
      await s.stop();
    }
  });
});
