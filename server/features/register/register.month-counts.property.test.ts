import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_PLAN, actionArb, day, play, RandomLedgers } from '../../../test/support/random-journal.ts';
import { DEFAULT_MIGRATIONS_DIR, Stores, type LedgerDb } from '../../db/stores.ts';
import { createAccount } from '../accounts/accounts.service.ts';
import { importJournal } from '../journal-import/journal-import.service.ts';
import { createEntries, listEntryPage } from '../journal/journal.service.ts';
import { addDays } from '../../domain/dates.ts';
import { registerPage } from './register.service.ts';

/**
 * The month counts (migration month_counts) are the sums of the day counts, kept by triggers on the
 * day rows. Random histories, written by every path that writes the journal (entries one by one,
 * drafts rewritten, postings, voids, a batch, a journal import, entries deleted), and books made
 * before the migration and migrated, are compared with a recount from the entries and lines.
 */

let ledgers: RandomLedgers;
beforeAll(() => {
  ledgers = new RandomLedgers();
});
afterAll(() => ledgers.close());

const ROWS = {
  account_day_lines: 'SELECT account_id, day, lines AS n FROM account_day_lines',
  account_month_lines: 'SELECT account_id, month, lines AS n FROM account_month_lines',
  account_day_counts: 'SELECT account_id, day, status, source_type, entries AS n FROM account_day_counts',
  account_month_counts: 'SELECT account_id, month, status, source_type, entries AS n FROM account_month_counts',
  journal_day_counts: 'SELECT day, status, source_type, entries AS n FROM journal_day_counts',
  journal_month_counts: 'SELECT month, status, source_type, entries AS n FROM journal_month_counts',
};

/** The same rows counted from the entries and lines themselves. */
const RECOUNT = {
  account_day_lines: `SELECT l.account_id, l.entry_date AS day, COUNT(*) AS n
      FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
     WHERE e.status IN ('posted', 'void') GROUP BY 1, 2`,
  account_month_lines: `SELECT l.account_id, substr(l.entry_date, 1, 7) AS month, COUNT(*) AS n
      FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
     WHERE e.status IN ('posted', 'void') GROUP BY 1, 2`,
  account_day_counts: `SELECT l.account_id, l.entry_date AS day, e.status, e.source_type, COUNT(DISTINCT e.id) AS n
      FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id GROUP BY 1, 2, 3, 4`,
  account_month_counts: `SELECT l.account_id, substr(l.entry_date, 1, 7) AS month, e.status, e.source_type, COUNT(DISTINCT e.id) AS n
      FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id GROUP BY 1, 2, 3, 4`,
  journal_day_counts:
    'SELECT entry_date AS day, status, source_type, COUNT(*) AS n FROM journal_entries GROUP BY 1, 2, 3',
  journal_month_counts: `SELECT substr(entry_date, 1, 7) AS month, status, source_type, COUNT(*) AS n
      FROM journal_entries GROUP BY 1, 2, 3`,
};

function expectCountsEqualRecount(db: LedgerDb): void {
  for (const table of Object.keys(ROWS) as (keyof typeof ROWS)[]) {
    const sorted = (sql: string) => db.allSql<Record<string, unknown>>(`${sql} ORDER BY 1, 2, 3`);
    expect(sorted(ROWS[table]), table).toEqual(sorted(RECOUNT[table]));
  }
}

const moreArb = fc.oneof(
  fc.record({ kind: fc.constant('batch' as const), days: fc.array(fc.nat(5), { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant('import' as const), days: fc.array(fc.nat(5), { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant('delete' as const), i: fc.nat(60) }),
);
type More = typeof moreArb extends fc.Arbitrary<infer A> ? A : never;

/** A batch of posted entries, a journal import, or an entry deleted with its lines (as a restore's rollback would). */
function playMore(db: LedgerDb, accounts: string[], actions: readonly More[]): void {
  for (const a of actions) {
    if (a.kind === 'batch')
      createEntries(
        db,
        a.days.map((d, i) => ({
          entry_date: day(d),
          memo: 'batch',
          auto_post: i % 2 === 0,
          lines: [
            { account_id: accounts[3]!, direction: 'DEBIT' as const, amount: '3.00' },
            { account_id: accounts[0]!, direction: 'CREDIT' as const, amount: '3.00' },
          ],
        })),
      );
    else if (a.kind === 'import')
      importJournal(
        db,
        a.days.map((d) => `${day(d)} * Imported\n    Expenses:Food  7.00 USD\n    Assets:Cash  -7.00 USD\n`).join('\n'),
        'hledger',
      );
    else {
      const ids = db.allSql<{ id: string }>('SELECT id FROM journal_entries ORDER BY seq').map((r) => r.id);
      if (ids.length > 0) db.runSql('DELETE FROM journal_entries WHERE id = ?', ids[a.i % ids.length]!);
    }
  }
}

describe('month counts beside the day counts', () => {
  it('when entries are created, rewritten, posted, voided, batched, imported and deleted at random, then every month and day count equals a recount from the lines', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            actionArb.map((a) => ({ core: a })),
            moreArb.map((m) => ({ more: m })),
          ),
          {
            minLength: 1,
            maxLength: 40,
          },
        ),
        (steps) => {
          const { db, accounts } = ledgers.fresh();
          for (const step of steps) {
            if ('core' in step) play(db, accounts, [step.core]);
            else playMore(db, accounts, [step.more]);
          }
          expectCountsEqualRecount(db);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('when the migration runs over books kept before it, then the month counts are filled from them, and kept as the books change', () => {
    // books of the current schema stripped of what the migration makes, then its own SQL run over
    // them: later migrations change the tables the journal writes, so older books cannot be written
    // by this code
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-month-counts-'));
    try {
      const file = fs
        .readdirSync(path.join(DEFAULT_MIGRATIONS_DIR, 'ledger'))
        .find((f) => f.endsWith('_month_counts.sql'))!;
      const migration = fs.readFileSync(path.join(DEFAULT_MIGRATIONS_DIR, 'ledger', file), 'utf8');
      const made = [...migration.matchAll(/CREATE (TABLE|TRIGGER) (\w+)/g)].map(
        ([, kind, name]) => `DROP ${kind} ${name};`,
      );
      expect(made.length).toBeGreaterThan(3);
      fc.assert(
        fc.property(
          fc.array(actionArb, { minLength: 1, maxLength: 30 }),
          fc.array(actionArb, { maxLength: 10 }),
          fc.integer({ min: 1, max: 1_000_000 }),
          (before, after, n) => {
            const user = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
            const dataDir = path.join(dir, `data-${n}`);
            fs.rmSync(dataDir, { recursive: true, force: true });
            const old = new Stores(dataDir);
            const oldDb = old.ledger(user);
            const accounts = ACCOUNT_PLAN.map(([name, type]) => createAccount(oldDb, { name, type }).id);
            play(oldDb, accounts, before);
            const ledger = old.ledgerFile(user);
            old.close();
            const raw = new Database(ledger);
            raw.exec(made.join('\n'));
            expect(raw.prepare("SELECT name FROM sqlite_schema WHERE name = 'account_month_lines'").all()).toEqual([]);
            raw.exec(migration);
            raw.close();
            const current = new Stores(dataDir);
            try {
              const db = current.ledger(user);
              expectCountsEqualRecount(db);
              play(db, accounts, after);
              expectCountsEqualRecount(db);
            } finally {
              current.close();
            }
          },
        ),
        { numRuns: 10 },
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a page found from the month counts', () => {
  it('when an account has lines on 730 days, then any of its register and entry-list pages reads its months and at most a month and a page of days', () => {
    const { db, accounts } = ledgers.fresh();
    const [checking, , , groceries] = accounts as [string, string, string, string];
    for (let start = 0; start < 730; start += 365)
      createEntries(
        db,
        Array.from({ length: Math.min(365, 730 - start) }, (_, i) => ({
          entry_date: addDays('2024-01-01', start + i),
          memo: 'Shop',
          auto_post: true,
          lines: [
            { account_id: groceries, direction: 'DEBIT' as const, amount: '2.00' },
            { account_id: checking, direction: 'CREDIT' as const, amount: '2.00' },
          ],
        })),
      );
    /** rows read from the count tables while `read` runs */
    const rowsRead = (read: () => void) => {
      let rows = 0;
      const all = db.allSql.bind(db);
      const iterate = db.iterateSql.bind(db);
      const counts = (sql: string) => /FROM (account|journal)_(day|month)_(lines|counts)/.test(sql);
      const spies = [
        vi.spyOn(db, 'allSql').mockImplementation(<R>(sql: string, ...params: unknown[]) => {
          const out = all<R>(sql, ...params);
          if (counts(sql)) rows += out.length;
          return out;
        }),
        vi.spyOn(db, 'iterateSql').mockImplementation(function* <R>(sql: string, ...params: unknown[]) {
          for (const row of iterate<R>(sql, ...params)) {
            if (counts(sql)) rows += 1;
            yield row;
          }
        }),
      ];
      try {
        read();
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
      return rows;
    };
    // 24 months, then at most 31 days of the page's first month and the 5 days of its lines
    const bound = 24 + 31 + 5;
    for (const page of [1, 2, 73, 100, 146]) {
      let answer: { items: unknown[] } = { items: [] };
      expect(rowsRead(() => (answer = registerPage(db, checking, { page, per_page: 5 })))).toBeLessThanOrEqual(bound);
      expect(answer.items).toHaveLength(5);
      expect(
        rowsRead(() => (answer = listEntryPage(db, { account_id: checking, page, per_page: 5 }))),
      ).toBeLessThanOrEqual(bound);
      expect(answer.items).toHaveLength(5);
      expect(rowsRead(() => (answer = listEntryPage(db, { page, per_page: 5 })))).toBeLessThanOrEqual(bound);
      expect(answer.items).toHaveLength(5);
    }
  });
});
