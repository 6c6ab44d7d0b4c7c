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
/** How many ledger migrations come before the one whose name ends so (found by name, not number). */
const before = (name: string) =>
  fs
    .readdirSync(path.join(DEFAULT_MIGRATIONS_DIR, 'ledger'))
    .sort()
    .findIndex((file) => file.endsWith(`_${name}.sql`));

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
  const old = new Stores(dataDir, { migrationsDir: olderMigrations(known() - 1) });
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

/**
 * A bank line as the app one migration ago stored it: today's import code needs the newest
 * migration's tables, so the older version's rows are written as they were.
 */
function storeBankLine(file: string, accountId: string): void {
  const db = new Database(file);
  try {
    db.prepare(
      "INSERT INTO statements (id, seq, account_id, name, source, imported_count, duplicate_count, start_date, end_date, created_at) VALUES ('00000000-0000-4000-8000-0000000000a1', 1, ?, 'March', 'json', 1, 0, '2026-03-09', '2026-03-09', 'now')",
    ).run(accountId);
    db.prepare(
      "INSERT INTO bank_transactions (id, seq, statement_id, account_id, date, description, amount_minor, type, external_id, dedupe_key, created_at) VALUES ('00000000-0000-4000-8000-0000000000a2', 1, '00000000-0000-4000-8000-0000000000a1', ?, '2026-03-09', 'ATM', 5000, 'debit', NULL, 'atm', 'now')",
    ).run(accountId);
  } finally {
    db.close();
  }
}

describe('the first requests after an upgrade, through the running server', () => {
  it('when books made before budgets and before prices are opened, then both migrations apply in order, and a scheduled exchange books with its trading lines', async () => {
    const dataDir = tempDir();
    const budgets = before('budgets_and_schedules');
    expect(budgets).toBeGreaterThan(0);
    expect(before('prices_and_exchanges')).toBeGreaterThan(budgets);
    const older = await startTestServer({ dataDir, migrationsDir: olderMigrations(budgets) });
    const u = await registerUser(older.api);
    const account = async (name: string, type: string, currency: string) =>
      (await older.api.post('/api/accounts', { name, type, currency }, u.token)).body.id as string;
    const bank = await account('Checking', 'ASSET', 'USD');
    const rent = await account('Rent in Lyon', 'EXPENSE', 'EUR');
    const salary = await account('Salary', 'INCOME', 'USD');
    await older.server.close();
    // an entry as the older app wrote it (its columns only)
    const file = new Database(ledgerFile(dataDir, u.id));
    const at = '2026-03-02T10:00:00.000Z';
    const entry = '00000000-0000-4000-8000-000000000010';
    file
      .prepare(
        "INSERT INTO journal_entries (id, seq, entry_date, memo, status, source_type, created_at, updated_at) VALUES (?, 1, '2026-03-02', 'Pay', 'draft', 'manual', ?, ?)",
      )
      .run(entry, at, at);
    const line = file.prepare(
      "INSERT INTO journal_lines (id, entry_id, line_no, account_id, direction, amount_minor, currency, entry_date) VALUES (?, ?, ?, ?, ?, 10000, 'USD', '2026-03-02')",
    );
    line.run('00000000-0000-4000-8000-000000000020', entry, 1, bank, 'DEBIT');
    line.run('00000000-0000-4000-8000-000000000030', entry, 2, salary, 'CREDIT');
    file.close();
    expect(appliedVersions(ledgerFile(dataDir, u.id))).toBe(budgets);

    const after = await startTestServer({ dataDir });
    try {
      const schedule = await after.api.post(
        '/api/schedules',
        {
          name: 'Lyon rent',
          frequency: 'monthly',
          start_date: '2026-03-05',
          auto_post: true,
          lines: [
            { account_id: rent, direction: 'DEBIT', amount: '50.00', cost: { amount: '54.25', currency: 'USD' } },
            { account_id: bank, direction: 'CREDIT', amount: '54.25' },
          ],
        },
        u.token,
      );
      expect(schedule.status, schedule.text).toBe(201);
      expect(appliedVersions(ledgerFile(dataDir, u.id))).toBe(known());
      expect((await after.api.post(`/api/journal-entries/${entry}/post`, undefined, u.token)).status).toBe(200);
      const run = await after.api.post('/api/schedules/run', undefined, u.token);
      expect(run.status).toBe(200);
      expect(run.body.failed).toEqual([]);
      const booked = (await after.api.get(`/api/journal-entries/${run.body.created[0]}`, u.token)).body;
      expect(booked).toMatchObject({ source_type: 'schedule', status: 'posted', entry_date: '2026-03-05' });
      expect(booked.lines.filter((l: { automatic: boolean }) => l.automatic)).toHaveLength(2);
      const trial = (await after.api.get('/api/reports/trial-balance', u.token)).body;
      expect(trial.currencies.map((c: { currency: string }) => c.currency)).toEqual(['EUR', 'USD']);
      for (const c of trial.currencies) expect(c.total_debit).toBe(c.total_credit);
    } finally {
      await after.stop();
    }
  });

  it('when books made before corrections, rule splits and transfer matches are opened, then an entry is corrected, a rule gains splits, and a match holds its entry per account', async () => {
    const dataDir = tempDir();
    const corrections = before('entry_corrections');
    expect(before('rule_splits')).toBe(corrections + 1);
    expect(before('transfer_matches')).toBe(corrections + 2);
    const older = await startTestServer({ dataDir, migrationsDir: olderMigrations(corrections) });
    const u = await registerUser(older.api);
    const account = async (name: string, type: string) =>
      (await older.api.post('/api/accounts', { name, type }, u.token)).body.id as string;
    const bank = await account('Checking', 'ASSET');
    const food = await account('Groceries', 'EXPENSE');
    await older.server.close();
    // a draft, a rule and a bank line as the older app wrote them (its columns only)
    const file = new Database(ledgerFile(dataDir, u.id));
    const entry = '00000000-0000-4000-8000-000000000010';
    file
      .prepare(
        "INSERT INTO journal_entries (id, seq, entry_date, memo, status, source_type, created_at, updated_at) VALUES (?, 1, '2026-03-02', 'Market', 'draft', 'manual', '2026-03-02T10:00:00.000Z', '2026-03-02T10:00:00.000Z')",
      )
      .run(entry);
    const line = file.prepare(
      "INSERT INTO journal_lines (id, entry_id, line_no, account_id, direction, amount_minor, currency, entry_date) VALUES (?, ?, ?, ?, ?, 820, 'USD', '2026-03-02')",
    );
    line.run('00000000-0000-4000-8000-000000000020', entry, 1, food, 'DEBIT');
    line.run('00000000-0000-4000-8000-000000000030', entry, 2, bank, 'CREDIT');
    const rule = '00000000-0000-4000-8000-000000000040';
    file
      .prepare(
        "INSERT INTO rules (id, seq, name, description_op, description_value, account_id, created_at, updated_at) VALUES (?, 1, 'Tesco', 'contains', 'tesco', ?, '2026-03-02T10:00:00.000Z', '2026-03-02T10:00:00.000Z')",
      )
      .run(rule, food);
    file.close();
    storeBankLine(ledgerFile(dataDir, u.id), bank);
    expect(appliedVersions(ledgerFile(dataDir, u.id))).toBe(corrections);

    const after = await startTestServer({ dataDir });
    const api = (method: string, path: string, body?: unknown) =>
      after.api.request(method, path, { body, token: u.token });
    try {
      expect((await api('POST', `/api/journal-entries/${entry}/post`)).status).toBe(200);
      expect(appliedVersions(ledgerFile(dataDir, u.id))).toBe(known());
      const corrected = await api('POST', `/api/journal-entries/${entry}/correct`, {
        entry_date: '2026-03-02',
        lines: [
          { account_id: food, direction: 'DEBIT', amount: '2.80' },
          { account_id: bank, direction: 'CREDIT', amount: '2.80' },
        ],
      });
      expect(corrected.status, corrected.text).toBe(201);
      expect(corrected.body.voided_entry).toMatchObject({ corrects: null, corrected_by: corrected.body.entry.id });
      const kept = await api('GET', `/api/rules/${rule}`);
      expect(kept.body.splits).toEqual([]);
      const { id: _id, created_at: _at, ...body } = kept.body;
      const split = await api('PUT', `/api/rules/${rule}`, { ...body, splits: [{ account_id: bank, percent: '50' }] });
      expect(split.status, split.text).toBe(200);
      const booked = await api(
        'POST',
        '/api/reconciliation/unmatched/00000000-0000-4000-8000-0000000000a2/create-entry',
        {
          account_id: food,
        },
      );
      expect(booked.status, booked.text).toBe(201);
      // a second live match of the entry on the same bank account is refused, whatever writes it
      const db = new Database(ledgerFile(dataDir, u.id));
      try {
        expect(() =>
          db
            .prepare(
              "INSERT INTO reconciliation_matches (id, bank_transaction_id, entry_id, status, score, score_amount, score_date, score_description, score_business, score_history, created_at, updated_at) VALUES ('00000000-0000-4000-8000-0000000000ff', '00000000-0000-4000-8000-0000000000a2', ?, 'pending_review', 70, 0, 0, 0, 0, 0, 'now', 'now')",
            )
            .run(booked.body.entry.id),
        ).toThrow(/at most one live match per bank account/);
      } finally {
        db.close();
      }
    } finally {
      await after.stop();
    }
  });

  it('when a user with books makes requests after an upgrade, then the migration runs once as a job and every request gets the migrated books', async () => {
    const dataDir = tempDir();
    const before = await startTestServer({ dataDir, migrationsDir: olderMigrations(known() - 1) });
    const u = await registerUser(before.api);
    const bank = (await before.api.post('/api/accounts', { name: 'Checking', type: 'ASSET' }, u.token)).body.id;
    const food = (await before.api.post('/api/accounts', { name: 'Food', type: 'EXPENSE' }, u.token)).body.id;
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
    storeBankLine(ledgerFile(dataDir, u.id), bank);
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
