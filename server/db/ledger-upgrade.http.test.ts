import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerUser, startTestServer, ledgerFile } from '../../test/support/server.ts';
import { JobRunner } from '../jobs/job-runner.ts';
import { MigrationError, migrate } from './migrate.ts';
import { openSqliteFile } from './sqlite.ts';
import { DEFAULT_MIGRATIONS_DIR, Stores } from './stores.ts';

/**
 * The first request of a user after an app upgrade: a migration may rewrite every row of a big
 * ledger, so it runs on the job worker while that user's requests wait, not the whole server.
 */

const tempDirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-upgrade-'));
  tempDirs.push(dir);
  return dir;
}

/** The app's migrations as an older version had them: the ledger's first `count` only. */
function olderMigrations(count: number): string {
  const dir = tempDir();
  fs.cpSync(path.join(DEFAULT_MIGRATIONS_DIR, 'identity'), path.join(dir, 'identity'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'ledger'));
  for (const file of fs.readdirSync(path.join(DEFAULT_MIGRATIONS_DIR, 'ledger')).sort().slice(0, count)) {
    fs.copyFileSync(path.join(DEFAULT_MIGRATIONS_DIR, 'ledger', file), path.join(dir, 'ledger', file));
  }
  return dir;
}

const USER = '00000000-0000-4000-8000-000000000001';
const known = () => fs.readdirSync(path.join(DEFAULT_MIGRATIONS_DIR, 'ledger')).length;

function appliedVersions(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number }).v;
  } finally {
    db.close();
  }
}

/** A ledger with an account made by the app one migration ago. */
function ledgerOneMigrationBehind(dataDir: string): void {
  const old = new Stores(dataDir, olderMigrations(known() - 1));
  old
    .ledger(USER)
    .runSql(
      "INSERT INTO accounts (id, name, name_key, type, currency, created_at, updated_at) VALUES ('a', 'Checking', 'checking', 'ASSET', 'USD', 'now', 'now')",
    );
  old.close();
}

describe('opening a ledger that lacks migrations', () => {
  it('when a new ledger is opened, then its schema is made at once, without the worker', () => {
    const stores = new Stores(tempDir());
    try {
      const elsewhere = vi.fn(() => Promise.resolve());
      const db = stores.ledgerWhenReady(USER, elsewhere);
      expect(db).not.toBeInstanceOf(Promise);
      expect(elsewhere).not.toHaveBeenCalled();
      expect(appliedVersions(stores.ledgerFile(USER))).toBe(known());
    } finally {
      stores.close();
    }
  });

  it('when a ledger with books lacks a migration, then it is left to the worker once, every request waits for it, and the ledger opens migrated', async () => {
    const dataDir = tempDir();
    ledgerOneMigrationBehind(dataDir);
    const stores = new Stores(dataDir);
    try {
      let finish!: () => void;
      const elsewhere = vi.fn(
        (userId: string) =>
          new Promise<void>((resolve) => {
            finish = () => {
              const sqlite = openSqliteFile(stores.ledgerFile(userId));
              migrate(sqlite, stores.ledgerMigrations, 'test');
              sqlite.close();
              resolve();
            };
          }),
      );
      const first = stores.ledgerWhenReady(USER, elsewhere);
      const second = stores.ledgerWhenReady(USER, elsewhere);
      expect(first).toBeInstanceOf(Promise);
      expect(second).toBe(first);
      expect(appliedVersions(stores.ledgerFile(USER))).toBe(known() - 1);
      finish();
      const db = await first;
      expect(elsewhere).toHaveBeenCalledTimes(1);
      expect(appliedVersions(stores.ledgerFile(USER))).toBe(known());
      expect(db.allSql<{ name: string }>('SELECT name FROM accounts').map((r) => r.name)).toEqual(['Checking']);
      expect(stores.ledgerWhenReady(USER, elsewhere)).toBe(db);
    } finally {
      stores.close();
    }
  });

  it('when the migration on the worker fails, then the waiting requests get its error and the next one tries again', async () => {
    const dataDir = tempDir();
    ledgerOneMigrationBehind(dataDir);
    const stores = new Stores(dataDir);
    try {
      const failing = vi.fn(() => Promise.reject(new MigrationError('migration 0005 failed and was rolled back')));
      await expect(stores.ledgerWhenReady(USER, failing)).rejects.toThrow(MigrationError);
      const working = vi.fn((userId: string) => {
        const sqlite = openSqliteFile(stores.ledgerFile(userId));
        migrate(sqlite, stores.ledgerMigrations, 'test');
        sqlite.close();
        return Promise.resolve();
      });
      await stores.ledgerWhenReady(USER, working);
      expect(working).toHaveBeenCalledTimes(1);
    } finally {
      stores.close();
    }
  });

  it('when the ledger was written by a newer app, then it is refused at once, and nothing is left to the worker', () => {
    const dataDir = tempDir();
    const stores = new Stores(dataDir);
    stores
      .ledger(USER)
      .runSql("INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (99, 'future', 'x', 'now')");
    stores.close();
    const again = new Stores(dataDir);
    try {
      const elsewhere = vi.fn(() => Promise.resolve());
      expect(() => again.ledgerWhenReady(USER, elsewhere)).toThrow(/newer version/);
      expect(elsewhere).not.toHaveBeenCalled();
    } finally {
      again.close();
    }
  });
});

describe('the first requests after an upgrade, through the running server', () => {
  it('when a user with books makes requests after an upgrade, then the migration runs once as a job and every request gets the migrated books', async () => {
    const dataDir = tempDir();
    const before = await startTestServer({ dataDir, migrationsDir: olderMigrations(known() - 1) });
    const u = await registerUser(before.api);
    const bank = (await before.api.post('/api/accounts', { name: 'Checking', type: 'ASSET' }, u.token)).body.id;
    const food = (await before.api.post('/api/accounts', { name: 'Food', type: 'EXPENSE' }, u.token)).body.id;
    expect(
      (
        await before.api.post(
          '/api/statements',
          {
            account_id: bank,
            transactions: [{ date: '2026-03-09', description: 'ATM', amount: '50.00', type: 'debit' }],
          },
          u.token,
        )
      ).status,
    ).toBe(201);
    await before.server.close();
    // The entries as the older app wrote them: its columns only (today's code writes columns the
    // older schema may not have yet). The day counts' triggers count them as they are inserted.
    const older = new Database(ledgerFile(dataDir, u.id));
    const at = '2026-03-03T10:00:00.000Z';
    ['2026-03-02', '2026-03-03'].forEach((day, i) => {
      const entry = `00000000-0000-4000-8000-00000000001${i}`;
      older
        .prepare(
          "INSERT INTO journal_entries (id, seq, entry_date, memo, status, source_type, created_at, updated_at, posted_at) VALUES (?, ?, ?, 'Shop', 'posted', 'manual', ?, ?, ?)",
        )
        .run(entry, i + 1, day, at, at, at);
      const line = older.prepare(
        'INSERT INTO journal_lines (id, entry_id, line_no, account_id, direction, amount_minor, currency, entry_date) VALUES (?, ?, ?, ?, ?, 400, ?, ?)',
      );
      line.run(`00000000-0000-4000-8000-00000000002${i}`, entry, 1, food, 'DEBIT', 'USD', day);
      line.run(`00000000-0000-4000-8000-00000000003${i}`, entry, 2, bank, 'CREDIT', 'USD', day);
    });
    older.close();
    expect(appliedVersions(ledgerFile(dataDir, u.id))).toBe(known() - 1);

    const jobs = vi.spyOn(JobRunner.prototype, 'run');
    const after = await startTestServer({ dataDir });
    try {
      const [unmatched, balances, other] = await Promise.all([
        after.api.get('/api/reconciliation/unmatched', u.token),
        after.api.get('/api/accounts/balances', u.token),
        registerUser(after.api),
      ]);
      expect(unmatched.status).toBe(200);
      expect(unmatched.body.total).toBe(3);
      expect(unmatched.body.items.map((i: { type: string }) => i.type)).toEqual([
        'bank_transaction',
        'journal_entry',
        'journal_entry',
      ]);
      expect(balances.status).toBe(200);
      expect((await after.api.get('/api/accounts', other.token)).status).toBe(200);
      expect(jobs.mock.calls.filter(([, name]) => name === 'migrateLedger').map(([userId]) => userId)).toEqual([u.id]);
      expect(appliedVersions(ledgerFile(dataDir, u.id))).toBe(known());
    } finally {
      await after.stop();
    }
  });
});
