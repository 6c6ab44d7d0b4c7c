import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from '../server/db/migrate.ts';
import { openSqliteFile } from '../server/db/sqlite.ts';
import { DEFAULT_MIGRATIONS_DIR } from '../server/db/stores.ts';

/**
 * Books written before migration search_bank_and_accounts (version 17) are searchable by their
 * matched bank lines and their accounts once it runs: it fills both indexes from what is there.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-search-migration-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const BOOKS = `
  INSERT INTO accounts (id, name, name_key, type, currency, parent_id, created_at, updated_at) VALUES
    ('checking', 'Checking', 'checking', 'ASSET', 'USD', NULL, 'T', 'T'),
    ('bills', 'Bills', 'bills', 'EXPENSE', 'USD', NULL, 'T', 'T'),
    ('utilities', 'Utilities', 'utilities', 'EXPENSE', 'USD', 'bills', 'T', 'T'),
    ('dining', '餐饮', '餐饮', 'EXPENSE', 'USD', NULL, 'T', 'T');
  INSERT INTO journal_entries (id, seq, entry_date, memo, status, source_type, created_at, updated_at, posted_at) VALUES
    ('electric', 1, '2026-01-05', 'Electric', 'posted', 'manual', 'T', 'T', 'T'),
    ('coffee', 2, '2026-01-06', NULL, 'posted', 'reconciliation', 'T', 'T', 'T'),
    ('shop', 3, '2026-01-07', 'Weekly shop', 'posted', 'reconciliation', 'T', 'T', 'T');
  INSERT INTO journal_lines (id, entry_id, line_no, account_id, direction, amount_minor, currency, entry_date) VALUES
    ('l1', 'electric', 1, 'utilities', 'DEBIT', 6000, 'USD', '2026-01-05'),
    ('l2', 'electric', 2, 'checking', 'CREDIT', 6000, 'USD', '2026-01-05'),
    ('l3', 'coffee', 1, 'dining', 'DEBIT', 3000, 'USD', '2026-01-06'),
    ('l4', 'coffee', 2, 'checking', 'CREDIT', 3000, 'USD', '2026-01-06'),
    ('l5', 'shop', 1, 'bills', 'DEBIT', 1234, 'USD', '2026-01-07'),
    ('l6', 'shop', 2, 'checking', 'CREDIT', 1234, 'USD', '2026-01-07');
  INSERT INTO statements (id, seq, account_id, name, source, imported_count, duplicate_count, created_at) VALUES
    ('january', 1, 'checking', 'January', 'json', 3, 0, 'T');
  INSERT INTO bank_transactions (id, seq, statement_id, account_id, date, description, amount_minor, type, dedupe_key, created_at) VALUES
    ('t1', 1, 'january', 'checking', '2026-01-07', 'CARD PAYMENT TO TESCO STORES 3297', 1234, 'debit', 'k1', 'T'),
    ('t2', 2, 'january', 'checking', '2026-01-06', '支付宝 星巴克咖啡', 3000, 'debit', 'k2', 'T'),
    ('t3', 3, 'january', 'checking', '2026-01-05', 'DIRECT DEBIT POWERCO', 6000, 'debit', 'k3', 'T');
  INSERT INTO reconciliation_matches (id, bank_transaction_id, entry_id, status, score, score_amount, score_date,
      score_description, score_business, score_history, created_at, updated_at) VALUES
    ('m1', 't1', 'shop', 'accepted', 100, 100, 100, 100, 100, 100, 'T', 'T'),
    ('m2', 't2', 'coffee', 'auto_accepted', 99, 100, 100, 100, 100, 100, 'T', 'T'),
    ('m3', 't3', 'electric', 'rejected', 60, 100, 100, 0, 100, 0, 'T', 'T');
`;

describe('migration search_bank_and_accounts on existing books', () => {
  it('when books written before it are migrated, then their matched bank lines and account paths are indexed, a rejected match left out', () => {
    const file = path.join(dir, 'ledger.sqlite');
    const sqlite = openSqliteFile(file);
    try {
      const all = loadMigrations(path.join(DEFAULT_MIGRATIONS_DIR, 'ledger'));
      const search = all.find((m) => m.name === 'search_bank_and_accounts')!;
      migrate(
        sqlite,
        all.filter((m) => m.version < search.version),
        file,
      );
      sqlite.exec(BOOKS);
      migrate(sqlite, all, file);

      const entries = (phrase: string) =>
        (
          sqlite
            .prepare('SELECT rowid & 4294967295 AS seq FROM entry_search WHERE entry_search MATCH ? ORDER BY rowid')
            .all(phrase) as { seq: bigint | number }[]
        ).map((r) => Number(r.seq));
      const accounts = (phrase: string) =>
        (
          sqlite
            .prepare('SELECT account_id FROM account_search WHERE account_search MATCH ? ORDER BY account_id')
            .all(phrase) as { account_id: string }[]
        ).map((r) => r.account_id);

      expect(entries('"tesco"')).toEqual([3]);
      expect(entries('"星 巴 克"')).toEqual([2]);
      expect(entries('"weekly"')).toEqual([3]);
      expect(entries('"electric"')).toEqual([1]);
      // the rejected match's description is not the entry's
      expect(entries('"powerco"')).toEqual([]);
      expect(accounts('"utilities"')).toEqual(['utilities']);
      expect(accounts('"bills"')).toEqual(['bills', 'utilities']);
      expect(accounts('"expenses bills utilities"')).toEqual(['utilities']);
      expect(accounts('"餐 饮"')).toEqual(['dining']);
      expect(accounts('"支 出 餐 饮"')).toEqual(['dining']);
      expect(accounts('"assets"')).toEqual(['checking']);
    } finally {
      sqlite.close();
    }
  });
});
