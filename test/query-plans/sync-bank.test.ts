import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { Stores, type LedgerDb } from '../../server/db/stores.ts';
import { DEFAULT_THRESHOLDS } from '../../server/domain/reconciliation/scoring.ts';
import { createAccount } from '../../server/features/accounts/accounts.service.ts';
import { createEntryForBankTransaction } from '../../server/features/reconciliation/reconciliation.booking.service.ts';
import {
  reconcileAccount,
  reconcileStatus,
} from '../../server/features/reconciliation/reconciliation.cleared.service.ts';
import { KeptPayeeModels } from '../../server/features/reconciliation/reconciliation.payees.service.ts';
import { createStatement, removeStatement } from '../../server/features/statements/statements.service.ts';
import { exchange } from '../support/bank-books.ts';
import { BIG_TABLES, offenders, readOnly } from './plans.ts';

/** The queries a sync runs to apply received statements, bank lines, matches and reconciliations. */
describe('the queries of a sync applying bank changes', () => {
  it('when statements (the same file on two devices), bookings of one line on two devices, reconciliations and a deletion are applied, then no query scans the lines, entries, bank lines, statements, matches, reconciliations or the log whole', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'query-plans-sync-'));
    const stores = new Stores(dir);
    const seen = new Map<string, Set<string>>();
    let catching = false;
    const sync = (from: LedgerDb, to: LedgerDb) => {
      catching = true;
      exchange(from, to);
      catching = false;
    };
    const before = Database.prototype.prepare;
    Database.prototype.prepare = function (this: Database.Database, sql: string) {
      if (!catching) return before.call(this, sql);
      let set = seen.get(this.name);
      if (!set) seen.set(this.name, (set = new Set()));
      set.add(sql);
      return before.call(this, sql);
    } as typeof before;
    try {
      const [a, b] = [1, 2].map((i) => stores.ledger(`00000000-0000-4000-8000-00000000000${i}`)) as [
        LedgerDb,
        LedgerDb,
      ];
      const checking = createAccount(a, { name: 'Checking', type: 'ASSET' }).id;
      const food = createAccount(a, { name: 'Food', type: 'EXPENSE' }).id;
      sync(a, b);
      const rows = [0, 1, 2].map((i) => ({
        date: `2026-03-0${i + 1}`,
        description: `SHOP ${i}`,
        amount: `${i + 3}.00`,
        type: 'debit' as const,
        external_id: `FIT-${i}`,
      }));
      const models = new KeptPayeeModels(2);
      createStatement(a, { account_id: checking, transactions: rows });
      sync(a, b);
      const line = a.allSql<{ id: string }>('SELECT id FROM bank_transactions ORDER BY id')[0]!.id;
      createEntryForBankTransaction(a, line, { account_id: food }, DEFAULT_THRESHOLDS, models);
      createEntryForBankTransaction(b, line, { account_id: food }, DEFAULT_THRESHOLDS, models);
      const twice = createStatement(b, {
        account_id: checking,
        transactions: [...rows, { ...rows[0]!, external_id: 'FIT-9' }],
      });
      const tick = (db: LedgerDb) =>
        db.allSql<{ id: string }>(
          "SELECT id FROM journal_lines WHERE account_id = ? AND cleared = 'cleared'",
          checking,
        );
      for (const db of [a, b])
        reconcileAccount(db, checking, {
          statement_date: '2026-03-31',
          statement_balance: reconcileStatus(db, checking, { statement_date: '2026-03-31', statement_balance: '0' })
            .cleared_balance,
        });
      expect(tick(a).length + tick(b).length).toBe(0);
      sync(a, b);
      sync(b, a);
      removeStatement(b, twice.id!);
      sync(b, a);
      sync(a, b);
    } finally {
      Database.prototype.prepare = before;
    }
    const tables = [...BIG_TABLES, 'change_log', 'statements', 'reconciliation_matches', 'bank_reconciliations'];
    try {
      const found: string[] = [];
      const rivals = [...seen.values()].flatMap((set) => [...set]).filter((sql) => /UNION ALL/.test(sql));
      expect(rivals.length).toBeGreaterThan(0);
      for (const [file, statements] of seen) {
        if (!file.endsWith('.sqlite')) continue;
        const checked = [...statements].filter(
          (sql) => /^\s*(SELECT|UPDATE|DELETE)/i.test(sql) && !/sqlite_master|pragma_/i.test(sql),
        );
        found.push(...readOnly(file, (db) => offenders(db, checked, tables)));
      }
      expect(found).toEqual([]);
    } finally {
      stores.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
