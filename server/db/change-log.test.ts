import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccount } from '../features/accounts/accounts.service.ts';
import { createEntry, postEntry } from '../features/journal/journal.service.ts';
import { writeSetting } from '../features/settings/settings.repository.ts';
import { changeLogOf, DATASETS, readRowJson } from './change-log.ts';
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

/**
 * The oracle of a message's value, written here apart from the log's code: each synced table's row
 * read column by column (SELECT *), the columns kept on one device dropped, the child rows in their
 * order without their parent column, integers as decimal strings, through JSON.stringify.
 */
const SHAPES: Record<
  string,
  { table: string; key: string[]; local?: string[]; children?: [string, string, string, string][] }
> = {
  accounts: { table: 'accounts', key: ['id'], local: ['name_key'] },
  currency_trading_accounts: { table: 'currency_trading_accounts', key: ['currency'] },
  journal_entries: {
    table: 'journal_entries',
    key: ['id'],
    local: ['seq'],
    children: [['lines', 'journal_lines', 'entry_id', 'line_no']],
  },
  rules: { table: 'rules', key: ['id'], local: ['seq'], children: [['splits', 'rule_splits', 'rule_id', 'position']] },
  budget_lines: { table: 'budget_lines', key: ['month', 'account_id'] },
  schedules: {
    table: 'schedules',
    key: ['id'],
    local: ['seq'],
    children: [['lines', 'schedule_lines', 'schedule_id', 'line_no']],
  },
  schedule_occurrences: { table: 'schedule_occurrences', key: ['schedule_id', 'date'] },
  prices: { table: 'prices', key: ['id'] },
  settings: { table: 'settings', key: ['key'] },
  csv_mappings: { table: 'csv_mappings', key: ['account_id'] },
};

function expectedValue(db: LedgerDb, dataset: string, rowId: string): string | null {
  const shape = SHAPES[dataset]!;
  const keys = rowId.split(' ');
  const [row] = db.allSql<Record<string, unknown>>(
    `SELECT * FROM ${shape.table} WHERE ${shape.key.map((k) => `${k} = ?`).join(' AND ')}`,
    ...keys,
  );
  if (!row) return null;
  for (const column of shape.local ?? []) delete row[column];
  for (const [name, table, parent, order] of shape.children ?? []) {
    const rows = db.allSql<Record<string, unknown>>(
      `SELECT * FROM ${table} WHERE ${parent} = ? ORDER BY ${order}`,
      keys[0],
    );
    for (const r of rows) delete r[parent];
    row[name] = rows;
  }
  return JSON.stringify(row, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

describe("the change log's values", () => {
  it('when rows of every synced table are written, then each message holds the row as read column by column, its children in order, integers as decimal strings', () => {
    const { stores, db } = ledger();
    const odd = 'Caf\u00e9 "quoted" \\ back/slash\nnew line\ttab \u0001\u001f \u2028\u2029 \u4e2d\u6587 \u{1f600}';
    const bank = createAccount(db, { name: 'Checking', type: 'ASSET', description: odd }).id;
    const food = createAccount(db, { name: 'Groceries', type: 'EXPENSE' }).id;
    const entry = createEntry(db, {
      entry_date: '2026-03-01',
      memo: odd,
      lines: [
        { account_id: food, direction: 'DEBIT', amount: '12.50' },
        { account_id: bank, direction: 'CREDIT', amount: '12.50' },
      ],
    });
    const at = '2026-03-01T00:00:00.000Z';
    db.transaction(() => {
      // past 2^53: exact only as a string
      db.runSql('UPDATE journal_lines SET amount_minor = 9007199254740993 WHERE entry_id = ?', entry.id);
      db.runSql(
        `INSERT INTO rules (id, seq, name, description_op, description_value, type, amount_min, amount_max, account_id, memo, priority, created_at, updated_at)
         VALUES ('r1', 7, ?, 'contains', 'MARKET', 'debit', '1.00', NULL, ?, NULL, -3, ?, ?)`,
        odd,
        food,
        at,
        at,
      );
      // written out of order: the value lists them by position
      db.runSql(
        "INSERT INTO rule_splits (rule_id, position, account_id, amount, percent) VALUES ('r1', 2, ?, NULL, '40')",
        bank,
      );
      db.runSql(
        "INSERT INTO rule_splits (rule_id, position, account_id, amount, percent) VALUES ('r1', 1, ?, '2.50', NULL)",
        food,
      );
      db.runSql(
        "INSERT INTO budget_lines (month, account_id, amount_minor, carry_over) VALUES ('2026-03', ?, 123456789012345678, 1)",
        food,
      );
      db.runSql(
        `INSERT INTO schedules (id, seq, name, memo, frequency, interval, start_date, end_date, auto_post, next_date, created_at, updated_at)
         VALUES ('s1', 3, 'Rent', NULL, 'monthly', 1, '2026-01-01', NULL, 0, '2026-04-01', ?, ?)`,
        at,
        at,
      );
      db.runSql("INSERT INTO schedule_lines VALUES ('s1', 2, ?, 'CREDIT', 90000, 'USD', NULL, NULL)", bank);
      db.runSql("INSERT INTO schedule_lines VALUES ('s1', 1, ?, 'DEBIT', 90000, 'USD', 5, 'EUR')", food);
      db.runSql("INSERT INTO schedule_occurrences VALUES ('s1', '2026-03-01', NULL, 1, ?)", at);
      db.runSql("INSERT INTO prices VALUES ('p1', '2026-03-01', 'EUR', 'USD', '1.0812', ?)", at);
      db.runSql("INSERT INTO prices VALUES ('p2', '2026-03-01', 'JPY', 'USD', '0.0067', ?)", at);
      db.runSql('INSERT INTO csv_mappings VALUES (?, ?, ?)', bank, '{"date":0,"amount":"x"}', at);
      db.runSql('INSERT INTO currency_trading_accounts VALUES (?, ?)', 'EUR', food);
      writeSetting(db, 'home_currency', odd);
    });
    db.transaction(() => db.runSql("DELETE FROM prices WHERE id = 'p2'"));
    const messages = db.allSql<{ dataset: string; row_id: string; value: string | null; timestamp: string }>(
      'SELECT dataset, row_id, value, timestamp FROM change_log ORDER BY timestamp',
    );
    expect(new Set(messages.map((m) => m.dataset))).toEqual(new Set(Object.keys(SHAPES)));
    // each row's latest message holds the row as it is now
    const latest = new Map(messages.map((m) => [`${m.dataset} ${m.row_id}`, m]));
    for (const m of latest.values()) {
      expect(m.value, `${m.dataset} ${m.row_id}`).toBe(expectedValue(db, m.dataset, m.row_id));
      const dataset = DATASETS.find((d) => d.name === m.dataset)!;
      expect(readRowJson(db, dataset, m.row_id)).toBe(m.value);
    }
    expect(latest.get('prices p2')!.value).toBeNull();
    const lines = (
      JSON.parse(latest.get(`journal_entries ${entry.id}`)!.value!) as { lines: { amount_minor: string }[] }
    ).lines;
    expect(lines.map((l) => l.amount_minor)).toEqual(['9007199254740993', '9007199254740993']);
    stores.close();
  });
});
