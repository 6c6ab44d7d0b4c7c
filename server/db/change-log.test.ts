import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccount } from '../features/accounts/accounts.service.ts';
import { createEntry, postEntry } from '../features/journal/journal.service.ts';
import { writeSetting } from '../features/settings/settings.repository.ts';
import { changeLogOf } from './change-log.ts';
import type { LedgerSchema } from './schema.ts';
import { SqliteDb, openSqliteFile } from './sqlite.ts';
import { Stores, stageLedgerCopy, type LedgerDb } from './stores.ts';

const USER = '00000000-0000-4000-8000-000000000001';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function ledger(): { stores: Stores; db: LedgerDb } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'change-log-'));
  dirs.push(dir);
  const stores = new Stores(dir);
  return { stores, db: stores.ledger(USER) };
}

function logged(db: LedgerDb) {
  return db.allSql<{ timestamp: string; dataset: string; row_id: string; value: string | null; rank: bigint }>(
    'SELECT timestamp, dataset, row_id, value, rank FROM change_log ORDER BY timestamp',
  );
}

describe('the change log', () => {
  it('when an entry is written and posted, then each write logs one message holding the entry with its lines, marks none left', () => {
    const { stores, db } = ledger();
    const bank = createAccount(db, { name: 'Checking', type: 'ASSET' }).id;
    const food = createAccount(db, { name: 'Groceries', type: 'EXPENSE' }).id;
    const entry = createEntry(db, {
      entry_date: '2026-03-01',
      memo: 'Market',
      lines: [
        { account_id: food, direction: 'DEBIT', amount: '12.50' },
        { account_id: bank, direction: 'CREDIT', amount: '12.50' },
      ],
    });
    postEntry(db, entry.id);
    const messages = logged(db);
    expect(messages.map((m) => [m.dataset, m.row_id])).toEqual([
      ['accounts', bank],
      ['accounts', food],
      ['journal_entries', entry.id],
      ['journal_entries', entry.id],
    ]);
    const [draft, posted] = messages.slice(2).map((m) => JSON.parse(m.value!) as Record<string, unknown>);
    expect(draft!.status).toBe('draft');
    expect(posted!.status).toBe('posted');
    expect(messages.slice(2).map((m) => m.rank)).toEqual([0n, 1n]);
    expect(
      (posted!.lines as { amount_minor: string; account_id: string }[]).map((l) => [l.account_id, l.amount_minor]),
    ).toEqual([
      [food, '1250'],
      [bank, '1250'],
    ]);
    // kept on this device only: the creation order
    expect(posted).not.toHaveProperty('seq');
    expect(db.allSql('SELECT * FROM change_dirty')).toEqual([]);
    // every timestamp is this device's, in order
    const node = changeLogOf(db).node();
    expect(messages.every((m) => m.timestamp.endsWith(node))).toBe(true);
    stores.close();
  });

  it('when a write is refused, then it logs nothing', () => {
    const { stores, db } = ledger();
    const bank = createAccount(db, { name: 'Checking', type: 'ASSET' }).id;
    const before = logged(db).length;
    expect(() =>
      createEntry(db, {
        entry_date: '2026-03-01',
        lines: [
          { account_id: bank, direction: 'DEBIT', amount: '1.00' },
          { account_id: bank, direction: 'CREDIT', amount: '2.00' },
        ],
        auto_post: true,
      }),
    ).toThrow();
    expect(logged(db).length).toBe(before);
    expect(db.allSql('SELECT * FROM change_dirty')).toEqual([]);
    stores.close();
  });

  it('when a row is written by an upsert twice, then each write logs it once', () => {
    const { stores, db } = ledger();
    db.transaction(() => writeSetting(db, 'home_currency', 'EUR'));
    db.transaction(() => writeSetting(db, 'home_currency', 'GBP'));
    expect(logged(db).map((m) => JSON.parse(m.value!) as unknown)).toEqual([
      { key: 'home_currency', value: 'EUR' },
      { key: 'home_currency', value: 'GBP' },
    ]);
    stores.close();
  });

  it("when another connection (a job's) writes, then its marks become messages at the ledger's next write", () => {
    const { stores, db } = ledger();
    const file = stores.ledgerFile(USER);
    const job = new SqliteDb<LedgerSchema>(openSqliteFile(file));
    job.transaction(() => writeSetting(job, 'home_currency', 'EUR'));
    job.close();
    expect(logged(db)).toEqual([]);
    createAccount(db, { name: 'Checking', type: 'ASSET' });
    expect(logged(db).map((m) => m.dataset)).toEqual(['settings', 'accounts']);
    stores.close();
  });

  it('when books are restored from a backup, then they take a new node id and keep their log', () => {
    const { stores, db } = ledger();
    createAccount(db, { name: 'Checking', type: 'ASSET' });
    const node = changeLogOf(db).node();
    const staged = path.join(path.dirname(stores.ledgerFile(USER)), 'staged.sqlite');
    db.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    stageLedgerCopy(stores.ledgerFile(USER), staged, stores.ledgerMigrations);
    const restored = new SqliteDb<LedgerSchema>(openSqliteFile(staged));
    const [state] = restored.allSql<{ node: string }>('SELECT node FROM sync_state');
    expect(state!.node).toMatch(/^[0-9a-f]{16}$/i);
    expect(state!.node).not.toBe(node);
    expect(restored.allSql('SELECT * FROM change_log')).toHaveLength(1);
    restored.close();
    stores.close();
  });
});
