import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { installChangeLog, restartClock } from './change-log.ts';
import { appRoot } from '../app-root.ts';
import {
  applyMigrations,
  assertAppSchema,
  loadMigrations,
  migrate,
  pendingMigrations,
  type Migration,
} from './migrate.ts';
import type { IdentitySchema, LedgerSchema } from './schema.ts';
import { SqliteDb, openSqliteFile } from './sqlite.ts';

export type IdentityDb = SqliteDb<IdentitySchema>;
export type LedgerDb = SqliteDb<LedgerSchema>;

export const DEFAULT_MIGRATIONS_DIR = path.join(appRoot(), 'migrations');

const USER_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Creates the data folder owner-only (0700) if it is missing. */
function ensureDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.mkdirSync(path.join(dataDir, 'ledgers'), { recursive: true, mode: 0o700 });
}

/** A lease on a user's ledger connection: it is not closed while leased (see Stores). */
export interface LedgerLease {
  db: LedgerDb;
  release(): void;
}

export interface StoresOptions {
  migrationsDir?: string;
  /**
   * How many ledger connections stay open at most while not in use (each holds ~3 file
   * descriptors: the file, its WAL and its shared memory). Least recently used first out.
   */
  maxOpenLedgers?: number;
  /** A ledger not used for this long (ms) is closed by `closeIdle`. */
  idleMs?: number;
  now?: () => number;
  /** Whether the ledgers group their 'group-commit' writes (default yes; bench/commit-policy.ts measures without). */
  groupCommit?: boolean;
}

const DEFAULT_MAX_OPEN_LEDGERS = 32;
const DEFAULT_LEDGER_IDLE_MS = 5 * 60 * 1000;

interface OpenLedger {
  db: LedgerDb;
  /** Leases not yet released: requests in flight, a job writing the file. */
  leases: number;
  lastUsed: number;
}

/**
 * The identity database and the per-user ledger files of one data folder. Ledger files are opened
 * lazily and migrated on open. Open ones are kept for the next request, but not for ever: a
 * ledger not in use (no lease) is closed once more than `maxOpenLedgers` are open (least recently
 * used first), and `closeIdle` closes those idle for `idleMs`; the next request opens it again.
 * Nothing is lost by closing: every write is a committed transaction.
 */
export class Stores {
  readonly identity: IdentityDb;
  private readonly ledgers = new Map<string, OpenLedger>();
  private readonly migrating = new Map<string, Promise<LedgerDb>>();
  readonly ledgerMigrations: Migration[];
  private readonly ledgersDir: string;
  private readonly maxOpen: number;
  private readonly idleMs: number;
  private readonly now: () => number;
  private readonly groupCommit: boolean | undefined;
  /** A new ledger's file, made by the migrations on first need (see openLedgerFile). */
  private newLedgerImage: Buffer | undefined;

  constructor(dataDir: string, options: StoresOptions = {}) {
    const migrationsDir = options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR;
    this.maxOpen = options.maxOpenLedgers ?? DEFAULT_MAX_OPEN_LEDGERS;
    this.idleMs = options.idleMs ?? DEFAULT_LEDGER_IDLE_MS;
    this.now = options.now ?? Date.now;
    this.groupCommit = options.groupCommit;
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

  /**
   * The user's ledger connection, opened (and migrated) if it is not open. For use within one
   * synchronous stretch of code: across an await, take a `lease`, or it may be closed meanwhile.
   */
  ledger(userId: string): LedgerDb {
    const open = this.ledgers.get(userId);
    if (open) return this.touch(userId, open).db;
    const file = this.ledgerFile(userId);
    const sqlite = this.openLedgerFile(file);
    try {
      migrate(sqlite, this.ledgerMigrations, file);
    } catch (error) {
      sqlite.close();
      throw error;
    }
    return this.keep(userId, new SqliteDb<LedgerSchema>(sqlite, { groupCommit: this.groupCommit }));
  }

  /**
   * Opens a ledger file, making a missing one from a copy of a new ledger's file: the migrations'
   * ALTER TABLEs re-read the whole schema each time (~25 ms of CPU a new file), the copy is written
   * in about a millisecond. The copy is made once per process, by the same migrations.
   */
  private openLedgerFile(file: string): Database.Database {
    if (!fs.existsSync(file)) {
      this.newLedgerImage ??= newDatabaseImage(this.ledgerMigrations);
      createFileOnce(file, this.newLedgerImage);
    }
    return openSqliteFile(file);
  }

  /** The user's ledger, kept open until `release` is called (once). */
  lease(userId: string): LedgerLease {
    return this.leaseOf(userId, this.ledger(userId));
  }

  /** A lease on `db` if it is still the user's open connection (a restore may have replaced it meanwhile). */
  leaseOf(userId: string, db: LedgerDb): LedgerLease {
    const open = this.ledgers.get(userId);
    if (!open || open.db !== db) return { db, release: () => undefined };
    open.leases += 1;
    let released = false;
    return {
      db,
      release: () => {
        if (released) return;
        released = true;
        open.leases -= 1;
        open.lastUsed = this.now();
        this.closeOverLimit();
      },
    };
  }

  /** How many ledger connections are open. */
  get openLedgers(): number {
    return this.ledgers.size;
  }

  /** Closes the ledgers not in use and not used for `idleMs`. */
  closeIdle(): void {
    const before = this.now() - this.idleMs;
    for (const [userId, open] of this.ledgers) {
      if (open.leases === 0 && open.lastUsed <= before) this.closeLedger(userId, open);
    }
  }

  private touch(userId: string, open: OpenLedger): OpenLedger {
    open.lastUsed = this.now();
    // Map order is the order of use: the least recently used first.
    this.ledgers.delete(userId);
    this.ledgers.set(userId, open);
    return open;
  }

  private keep(userId: string, db: LedgerDb): LedgerDb {
    installChangeLog(db);
    this.ledgers.set(userId, { db, leases: 0, lastUsed: this.now() });
    this.closeOverLimit(userId);
    return db;
  }

  /** Closes the least recently used ledgers not in use (never `keepId`, just opened) while more than the limit are open. */
  private closeOverLimit(keepId?: string): void {
    if (this.ledgers.size <= this.maxOpen) return;
    for (const [userId, open] of this.ledgers) {
      if (this.ledgers.size <= this.maxOpen) break;
      if (open.leases === 0 && userId !== keepId) this.closeLedger(userId, open);
    }
  }

  private closeLedger(userId: string, open: OpenLedger): void {
    this.ledgers.delete(userId);
    open.db.close();
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
    const open = this.ledgers.get(userId);
    if (open) return this.touch(userId, open).db;
    const migrating = this.migrating.get(userId);
    if (migrating) return migrating;
    const file = this.ledgerFile(userId);
    const sqlite = this.openLedgerFile(file);
    let pending: Migration[];
    try {
      pending = pendingMigrations(sqlite, this.ledgerMigrations, file);
      if (pending.length === 0 || pending.length === this.ledgerMigrations.length)
        applyMigrations(sqlite, pending, file);
    } catch (error) {
      sqlite.close();
      throw error;
    }
    if (pending.length === 0 || pending.length === this.ledgerMigrations.length)
      return this.keep(userId, new SqliteDb<LedgerSchema>(sqlite, { groupCommit: this.groupCommit }));
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
    this.ledgers.get(userId)?.db.close();
    this.ledgers.delete(userId);
    for (const suffix of ['-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    fs.renameSync(staged, file);
  }

  close(): void {
    for (const open of this.ledgers.values()) open.db.close();
    this.ledgers.clear();
    this.identity.close();
  }
}

/** The file of a database made by `migrations` from nothing, as bytes. */
function newDatabaseImage(migrations: readonly Migration[]): Buffer {
  const sqlite = new Database(':memory:');
  try {
    migrate(sqlite, migrations, 'a new ledger');
    return sqlite.serialize();
  } finally {
    sqlite.close();
  }
}

/**
 * Writes `bytes` as `file` (owner-only) unless it exists: written and synced beside it, then linked
 * into place, so that no half-written file is ever opened, and a file made meanwhile is kept.
 */
function createFileOnce(file: string, bytes: Buffer): void {
  const temp = `${file}.new-${crypto.randomUUID()}`;
  const fd = fs.openSync(temp, 'wx', 0o600);
  try {
    fs.writeSync(fd, bytes);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/**
 * Copies a backup to `staged` for a restore and makes it fit to swap in: `PRAGMA integrity_check`
 * passes, its schema is exactly the one its migrations make (assertAppSchema: no added trigger,
 * view, table or index), and the migration runner brings it up to date (a backup written by a
 * newer app is refused). Seconds on a GB-sized ledger, so the job worker runs it. On failure nothing is left.
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
      assertAppSchema(sqlite, migrations, 'the backup');
      migrate(sqlite, migrations, 'the backup');
      restartClock(sqlite);
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
