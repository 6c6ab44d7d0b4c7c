import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from './migrate.ts';
import { openSqliteFile } from './sqlite.ts';
import { Stores } from './stores.ts';

const user = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

let dir: string;
let clock: number;
let stores: Stores;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-stores-'));
  clock = 1_000_000;
  stores = new Stores(dir, { maxOpenLedgers: 3, idleMs: 60_000, now: () => clock });
});
afterEach(() => {
  stores.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function note(n: number, text: string): void {
  const db = stores.ledger(user(n));
  db.transaction(() =>
    db.runSql(
      "INSERT INTO accounts (id, name, name_key, type, currency, created_at, updated_at) VALUES (?, ?, ?, 'ASSET', 'USD', '', '')",
      `a-${n}`,
      text,
      text.toLowerCase(),
    ),
  );
}

const read = (n: number) =>
  stores
    .ledger(user(n))
    .allSql<{ name: string }>('SELECT name FROM accounts')
    .map((r) => r.name);

describe('open ledgers', () => {
  it('when more ledgers than the bound are used, then the least recently used are closed, and each is opened again with its data when used', () => {
    for (let n = 1; n <= 5; n++) note(n, `Wallet ${n}`);
    expect(stores.openLedgers).toBe(3);
    const first = stores.ledger(user(5));
    expect(first.sqlite.open).toBe(true);
    for (let n = 1; n <= 5; n++) expect(read(n)).toEqual([`Wallet ${n}`]);
    expect(stores.openLedgers).toBe(3);
  });

  it('when a ledger is leased, then it stays open past the bound and its idle time until released, and is closed after', () => {
    const lease = stores.lease(user(1));
    for (let n = 2; n <= 6; n++) note(n, `Wallet ${n}`);
    clock += 120_000;
    stores.closeIdle();
    expect(lease.db.sqlite.open).toBe(true);
    lease.release();
    lease.release(); // a second release changes nothing
    stores.closeIdle();
    expect(lease.db.sqlite.open).toBe(true); // released just now: not idle yet
    clock += 120_000;
    stores.closeIdle();
    expect(lease.db.sqlite.open).toBe(false);
    expect(stores.openLedgers).toBe(0);
  });

  it('when ledgers sit unused past the idle time, then closeIdle closes them and leaves the recently used', () => {
    note(1, 'Old');
    clock += 30_000;
    note(2, 'Recent');
    clock += 40_000;
    stores.closeIdle();
    expect(stores.openLedgers).toBe(1);
    expect(read(2)).toEqual(['Recent']);
    expect(read(1)).toEqual(['Old']);
  });
});

describe('new ledgers', () => {
  it('when a new ledger is opened, then its file is the one the migrations make: the same schema and records, owner-only, in WAL mode, nothing else left beside it', () => {
    note(1, 'First');
    const made = stores.ledger(user(1)).sqlite;
    const reference = openSqliteFile(path.join(dir, 'reference.sqlite'));
    try {
      migrate(reference, stores.ledgerMigrations, 'reference');
      const schema = (db: Database.Database) =>
        db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name').all();
      const records = (db: Database.Database) =>
        db.prepare('SELECT version, name, checksum FROM schema_migrations ORDER BY version').all();
      expect(schema(made)).toEqual(schema(reference));
      expect(records(made)).toEqual(records(reference));
      expect(records(made)).toHaveLength(stores.ledgerMigrations.length);
      expect(made.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(made.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      reference.close();
    }
    expect(read(1)).toEqual(['First']);
    const file = stores.ledgerFile(user(1));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    note(2, 'Second');
    expect(fs.readdirSync(path.dirname(file)).filter((f) => !/\.sqlite(-wal|-shm)?$/.test(f))).toEqual([]);
  });
});
