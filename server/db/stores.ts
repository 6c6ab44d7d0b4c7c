import fs from 'node:fs';
import path from 'node:path';
import { appRoot } from '../app-root.ts';
import { applyMigrations, loadMigrations, migrate, pendingMigrations, type Migration } from './migrate.ts';
import type { IdentitySchema, LedgerSchema } from './schema.ts';
import { SqliteDb, openSqliteFile } from './sqlite.ts';

export type IdentityDb = SqliteDb<IdentitySchema>;
export type LedgerDb = SqliteDb<LedgerSchema>;

export const DEFAULT_MIGRATIONS_DIR = path.join(appRoot(), 'migrations');

const USER_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Creates the data folder owner-only (0700) if it is missing. */
export function ensureDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.mkdirSync(path.join(dataDir, 'ledgers'), { recursive: true, mode: 0o700 });
}

/**
 * The identity database and the per-user ledger files of one data folder. Ledger files are opened
 * lazily, migrated on open, and cached until close.
 */
export class Stores {
  readonly identity: IdentityDb;
  private readonly ledgers = new Map<string, LedgerDb>();
  private readonly migrating = new Map<string, Promise<LedgerDb>>();
  readonly ledgerMigrations: Migration[];
  private readonly ledgersDir: string;

  constructor(dataDir: string, migrationsDir: string = DEFAULT_MIGRATIONS_DIR) {
    ensureDataDir(dataDir);
    this.ledgersDir = path.join(dataDir, 'ledgers');
    this.ledgerMigrations = loadMigrations(path.join(migrationsDir, 'ledger'));
    const identityFile = path.join(dataDir, 'identity.sqlite');
    const sqlite = openSqliteFile(identityFile);
    try {
      migrate(sqlite, loadMigrations(path.join(migrationsDir, 'identity')), identityFile);
    } catch (error) {
      sqlite.close();
      throw error;
    }
    this.identity = new SqliteDb<IdentitySchema>(sqlite);
  }

  ledgerFile(userId: string): string {
    // Ids come from our own identity table, but a crafted id must never become a path.
    if (!USER_ID_PATTERN.test(userId)) throw new Error('invalid user id');
    return path.join(this.ledgersDir, `${userId}.sqlite`);
  }

  ledger(userId: string): LedgerDb {
    const cached = this.ledgers.get(userId);
    if (cached) return cached;
    const file = this.ledgerFile(userId);
    const sqlite = openSqliteFile(file);
    try {
      migrate(sqlite, this.ledgerMigrations, file);
    } catch (error) {
      sqlite.close();
      throw error;
    }
    const db = new SqliteDb<LedgerSchema>(sqlite);
    this.ledgers.set(userId, db);
    return db;
  }

  /**
   * The user's ledger as `ledger` gives it, except for a file that holds books and lacks migrations
   * (the first request after an app upgrade): a migration may rewrite every row (seconds at a
   * million entries), so `migrateElsewhere` applies them off this thread (the job worker), and the
   * user's requests wait for it meanwhile rather than the whole server. A new file's schema is made
   * here: it takes milliseconds.
   */
  ledgerWhenReady(
    userId: string,
    migrateElsewhere: (userId: string) => Promise<unknown>,
  ): LedgerDb | Promise<LedgerDb> {
    const ready = this.ledgers.get(userId) ?? this.migrating.get(userId);
    if (ready) return ready;
    const file = this.ledgerFile(userId);
    const sqlite = openSqliteFile(file);
    let pending: Migration[];
    try {
      pending = pendingMigrations(sqlite, this.ledgerMigrations, file);
      if (pending.length === 0 || pending.length === this.ledgerMigrations.length)
        applyMigrations(sqlite, pending, file);
    } catch (error) {
      sqlite.close();
      throw error;
    }
    if (pending.length === 0 || pending.length === this.ledgerMigrations.length) {
      const db = new SqliteDb<LedgerSchema>(sqlite);
      this.ledgers.set(userId, db);
      return db;
    }
    sqlite.close();
    const opened = migrateElsewhere(userId)
      .then(() => this.ledger(userId))
      .finally(() => this.migrating.delete(userId));
    this.migrating.set(userId, opened);
    return opened;
  }

  /** Where a restore stages its copy of a backup: beside the ledger, so that the swap is a rename. */
  stagedFileFor(userId: string): string {
    return `${this.ledgerFile(userId)}.restore-${process.pid}-${Date.now()}`;
  }

  /**
   * Swaps a staged copy (stageLedgerCopy) in as the user's ledger: the cached connection is closed
   * and the copy renamed over the file. Quick whatever the size: the checks were made on the copy.
   */
  swapInLedger(userId: string, staged: string): void {
    const file = this.ledgerFile(userId);
    this.ledgers.get(userId)?.close();
    this.ledgers.delete(userId);
    for (const suffix of ['-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    fs.renameSync(staged, file);
  }

  close(): void {
    for (const db of this.ledgers.values()) db.close();
    this.ledgers.clear();
    this.identity.close();
  }
}

/**
 * Copies a backup to `staged` for a restore and makes it fit to swap in: `PRAGMA integrity_check`
 * passes and the migration runner brings it up to date (a backup written by a newer app is
 * refused). Seconds on a GB-sized ledger, so the job worker runs it. On failure nothing is left.
 */
export function stageLedgerCopy(fromFile: string, staged: string, migrations: Migration[]): void {
  try {
    fs.copyFileSync(fromFile, staged);
    fs.chmodSync(staged, 0o600);
    const sqlite = openSqliteFile(staged);
    try {
      const check = sqlite.pragma('integrity_check') as { integrity_check: string }[];
      if (check.length !== 1 || check[0]!.integrity_check !== 'ok')
        throw new Error(`the backup is damaged (${check[0]?.integrity_check ?? 'no answer'})`);
      migrate(sqlite, migrations, 'the backup');
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      sqlite.close();
    }
  } catch (error) {
    removeStaged(staged);
    throw error;
  }
}

/** Removes a staged copy and its SQLite side files. */
export function removeStaged(staged: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(staged + suffix, { force: true });
}
