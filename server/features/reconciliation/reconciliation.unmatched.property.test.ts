import crypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openSqliteFile, SqliteDb } from '../../db/sqlite.ts';
import type { LedgerDb } from '../../db/stores.ts';
import type { LedgerSchema } from '../../db/schema.ts';
import { importJournal } from '../journal-import/journal-import.service.ts';
import { createEntry, postEntry, voidEntry } from '../journal/journal.service.ts';
import { statementAccountIds } from '../statements/statements.queries.ts';
import { createStatement, removeStatement } from '../statements/statements.service.ts';
import { createEntryForBankTransaction } from './reconciliation.booking.service.ts';
import { KeptPayeeModels } from './reconciliation.payees.service.ts';
import { acceptMatch, matchedEntryVoidGuard, rejectMatch } from './reconciliation.review.service.ts';
import { runReconciliation } from './reconciliation.run.service.ts';
import { unmatchedEntries, unmatchedTransactions } from './reconciliation.unmatched.repository.ts';
import { listUnmatched as listUnmatchedWith } from './reconciliation.unmatched.service.ts';
import { useLedgerFiles } from '../../../test/support/ledger-files.ts';

/**
 * The unmatched list reads its totals and page positions from counts that triggers keep (migration
 * 0005). Random books (entries posted, voided, imported with their voids; statements imported and
 * deleted; runs, accepted and rejected matches, entries made for bank lines) are listed with random
 * pages and compared with the plain queries over every transaction and entry that the counts
 * replace; the counts themselves are compared with a recount.
 */

// a low review threshold: most pairs wait for review, to be accepted, rejected or superseded
const THRESHOLDS = { autoAccept: 95, review: 20 };

const ledgers = useLedgerFiles('unmatched');

const ACCOUNTS = [
  ['Checking', 'ASSET'],
  ['Card', 'LIABILITY'],
  ['Groceries', 'EXPENSE'],
  ['Salary', 'INCOME'],
] as const;
const [CHECKING, CARD, GROCERIES, SALARY] = [0, 1, 2, 3];

const freshLedger = () => ledgers.fresh(ACCOUNTS);

const LIVE = "('auto_accepted', 'accepted', 'pending_review')";

/** The payee models the list keeps between requests, as a server keeps them. */
const payeeModels = new KeptPayeeModels(8);
const listUnmatched = (db: LedgerDb, query: Parameters<typeof listUnmatchedWith>[1]) =>
  listUnmatchedWith(db, query, payeeModels);

/** The accounts the list covers: those with a statement, or the one asked for if it has one. */
function listedAccounts(db: LedgerDb, accountId: string | undefined): string[] {
  return statementAccountIds(db).filter((id) => accountId === undefined || id === accountId);
}

/** The list's two parts without the counts: every unmatched transaction and entry counted and sorted. */
function referenceTransactions(db: LedgerDb, accountId: string | undefined, limit: number, offset: number) {
  const where = `NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.bank_transaction_id = t.id AND m.status IN ${LIVE})${accountId ? ' AND t.account_id = ?' : ''}`;
  const params = accountId ? [accountId] : [];
  const total = db.allSql<{ n: bigint }>(`SELECT COUNT(*) AS n FROM bank_transactions t WHERE ${where}`, ...params)[0]!
    .n;
  const ids = db.allSql<{ id: string }>(
    `SELECT t.id FROM bank_transactions t WHERE ${where} ORDER BY t.date DESC, t.seq DESC LIMIT ? OFFSET ?`,
    ...params,
    limit,
    offset,
  );
  return { ids: ids.map((r) => r.id), total: Number(total) };
}

function referenceEntries(db: LedgerDb, accountId: string | undefined, limit: number, offset: number) {
  const where = `l.account_id IN (SELECT account_id FROM statements)${accountId ? ' AND l.account_id = ?' : ''}
    AND e.status = 'posted' AND e.reverses_entry_id IS NULL
    AND NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.entry_id = e.id AND m.status IN ${LIVE})`;
  const params = accountId ? [accountId] : [];
  const rows = db.allSql<{ id: string; net: bigint }>(
    `SELECT e.id, SUM(CASE l.direction WHEN 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) AS net
       FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id WHERE ${where}
      GROUP BY e.id, l.account_id ORDER BY e.entry_date DESC, e.seq DESC, l.account_id`,
    ...params,
  );
  return { items: rows.slice(offset, offset + limit).map((r) => `${r.id} ${r.net}`), total: rows.length };
}

/** The counts as triggers keep them, and as a recount from every row gives them. */
function counts(db: LedgerDb) {
  // rows that fell to zero stay
  const kept = {
    transactions: db.allSql(
      'SELECT account_id, day, transactions AS n FROM unmatched_transaction_day_counts WHERE transactions > 0 ORDER BY 1, 2',
    ),
    entries: db.allSql(
      'SELECT account_id, day, entries AS n FROM unmatched_entry_day_counts WHERE entries > 0 ORDER BY 1, 2',
    ),
  };
  const recounted = {
    transactions: db.allSql(
      `SELECT t.account_id, t.date AS day, COUNT(*) AS n FROM bank_transactions t
        WHERE NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.bank_transaction_id = t.id AND m.status IN ${LIVE}) GROUP BY 1, 2 ORDER BY 1, 2`,
    ),
    entries: db.allSql(
      `SELECT l.account_id, l.entry_date AS day, COUNT(DISTINCT l.entry_id) AS n FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
        WHERE e.status = 'posted' AND e.reverses_entry_id IS NULL
          AND NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.entry_id = e.id AND m.status IN ${LIVE}) GROUP BY 1, 2 ORDER BY 1, 2`,
    ),
  };
  return { kept, recounted };
}

const day = (n: number) => `2026-03-${String(1 + n).padStart(2, '0')}`;
const money = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const amounts = [12, 25, 40, 75];
const payees = ['MARKET', 'PAYROLL', 'COFFEE', 'BOOKS'];

const actionArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('entry' as const),
      day: fc.nat(6),
      bank: fc.constantFrom(CHECKING, CARD),
      other: fc.constantFrom(GROCERIES, SALARY, CHECKING, CARD),
      amount: fc.nat(3),
      payee: fc.nat(3),
      twoLinesOnBank: fc.boolean(),
      post: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('post' as const), i: fc.nat(50) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('void' as const), i: fc.nat(50) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('import' as const),
      day: fc.nat(6),
      amount: fc.nat(3),
      voided: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('statement' as const),
      bank: fc.constantFrom(CHECKING, CARD),
      rows: fc.array(
        fc.record({ day: fc.nat(6), amount: fc.nat(3), off: fc.nat(2), payee: fc.nat(3), credit: fc.boolean() }),
        { minLength: 1, maxLength: 5 },
      ),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('removeStatement' as const), i: fc.nat(10) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('run' as const), bank: fc.constantFrom(CHECKING, CARD) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('decide' as const), i: fc.nat(50), accept: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('createEntry' as const),
      i: fc.nat(50),
      other: fc.constantFrom(GROCERIES, SALARY),
    }),
  },
);

const queryArb = fc.record({
  account: fc.option(fc.constantFrom(CHECKING, CARD, GROCERIES), { nil: undefined }),
  type: fc.option(fc.constantFrom('bank_transaction' as const, 'journal_entry' as const), { nil: undefined }),
  perPage: fc.integer({ min: 1, max: 7 }),
  page: fc.nat(),
});

type Action = typeof actionArb extends fc.Arbitrary<infer A> ? A : never;

function apply(db: LedgerDb, accounts: string[], a: Action, entries: string[], statements: string[]): void {
  const account = (i: number) => accounts[i]!;
  if (a.kind === 'entry') {
    const cents = amounts[a.amount]! * 100 + 5;
    const half = Math.floor(cents / 2);
    const bankLines = a.twoLinesOnBank
      ? [
          { account_id: account(a.bank), direction: 'CREDIT' as const, amount: money(half) },
          { account_id: account(a.bank), direction: 'CREDIT' as const, amount: money(cents - half) },
        ]
      : [{ account_id: account(a.bank), direction: 'CREDIT' as const, amount: money(cents) }];
    const other = a.other === a.bank ? GROCERIES : a.other;
    const lines = [{ account_id: account(other), direction: 'DEBIT' as const, amount: money(cents) }, ...bankLines];
    entries.push(createEntry(db, { entry_date: day(a.day), memo: payees[a.payee]!, lines, auto_post: a.post }).id);
  } else if (a.kind === 'post' || a.kind === 'void') {
    if (entries.length === 0) return;
    const id = entries[a.i % entries.length]!;
    if (a.kind === 'post') postEntry(db, id);
    else voidEntry(db, id, null, matchedEntryVoidGuard, day(6));
  } else if (a.kind === 'import') {
    const amount = `${amounts[a.amount]}.00 USD`;
    // our export's marks link a voided entry and its reversal again (status void, reverses set afterwards)
    const [x, y] = [crypto.randomUUID(), crypto.randomUUID()];
    const text = a.voided
      ? `${day(a.day)} * Imported  ; id: ${x}\n    ; voided-by: ${y}\n    Expenses:Groceries  ${amount}\n    Assets:Checking  -${amount}\n\n` +
        `${day(6)} * Void: Imported  ; id: ${y}\n    ; reverses: ${x}\n    Expenses:Groceries  -${amount}\n    Assets:Checking  ${amount}\n`
      : `${day(a.day)} * Imported\n    Expenses:Groceries  ${amount}\n    Assets:Checking  -${amount}\n`;
    importJournal(db, text, 'hledger');
  } else if (a.kind === 'statement') {
    const transactions = a.rows.map((r) => ({
      date: day(r.day),
      description: `${payees[r.payee]} ${r.day}`,
      amount: money((amounts[r.amount]! + 6 * r.off) * 100 + 5),
      type: r.credit ? 'credit' : 'debit',
    }));
    const result = createStatement(db, { account_id: account(a.bank), transactions } as Parameters<
      typeof createStatement
    >[1]);
    if (result.id) statements.push(result.id);
  } else if (a.kind === 'removeStatement') {
    if (statements.length > 0) removeStatement(db, statements.splice(a.i % statements.length, 1)[0]!);
  } else if (a.kind === 'run') {
    runReconciliation(db, { account_id: account(a.bank) }, THRESHOLDS);
  } else if (a.kind === 'decide') {
    const pending = db.allSql<{ id: string }>(
      "SELECT id FROM reconciliation_matches WHERE status = 'pending_review' ORDER BY id",
    );
    if (pending.length === 0) return;
    const id = pending[a.i % pending.length]!.id;
    if (a.accept) acceptMatch(db, id);
    else rejectMatch(db, id, 'not this one');
  } else {
    const open = db.allSql<{ id: string }>(
      `SELECT t.id FROM bank_transactions t WHERE NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.bank_transaction_id = t.id AND m.status IN ${LIVE}) ORDER BY t.seq`,
    );
    if (open.length === 0) return;
    createEntryForBankTransaction(
      db,
      open[a.i % open.length]!.id,
      { account_id: account(a.other) },
      THRESHOLDS,
      payeeModels,
    );
  }
}

describe('unmatched list from the maintained counts', () => {
  it('when a statement whose lines wait for review is deleted, then its matches go with it and their entries are unmatched again', () => {
    const { db, accounts } = freshLedger();
    const entries: string[] = [];
    const statements: string[] = [];
    apply(
      db,
      accounts,
      {
        kind: 'entry',
        day: 1,
        bank: CHECKING,
        other: GROCERIES,
        amount: 0,
        payee: 0,
        twoLinesOnBank: true,
        post: true,
      },
      entries,
      statements,
    );
    apply(
      db,
      accounts,
      { kind: 'statement', bank: CHECKING, rows: [{ day: 2, amount: 0, off: 1, payee: 0, credit: false }] },
      entries,
      statements,
    );
    apply(db, accounts, { kind: 'run', bank: CHECKING }, entries, statements);
    expect(
      db.allSql<{ n: bigint }>("SELECT COUNT(*) AS n FROM reconciliation_matches WHERE status = 'pending_review'")[0]!
        .n,
    ).toBe(1n);
    expect(listUnmatched(db, { page: 1, per_page: 10 }).total).toBe(0);
    apply(db, accounts, { kind: 'removeStatement', i: 0 }, entries, statements);
    const { kept, recounted } = counts(db);
    expect(kept).toEqual(recounted);
    expect(listUnmatched(db, { page: 1, per_page: 10 }).total).toBe(0); // no statement left: no account to list
    apply(
      db,
      accounts,
      { kind: 'statement', bank: CHECKING, rows: [{ day: 5, amount: 3, off: 2, payee: 3, credit: true }] },
      entries,
      statements,
    );
    expect(listUnmatched(db, { page: 1, per_page: 10 }).items.map((i) => i.type)).toEqual([
      'bank_transaction',
      'journal_entry',
    ]);
  });

  it('when books, statements and matches change at random, then every page and total equals the plain query, and the counts a recount', () => {
    fc.assert(
      fc.property(
        fc.array(actionArb, { minLength: 1, maxLength: 30 }),
        fc.array(actionArb, { maxLength: 15 }),
        fc.array(queryArb, { minLength: 6, maxLength: 6 }),
        (before, after, queries) => {
          const { db, file, accounts } = freshLedger();
          const entries: string[] = [];
          const statements: string[] = [];
          // runs on both accounts in the middle, so that there are matches to accept, reject, supersede or lose
          const runs: Action[] = [
            { kind: 'run', bank: CHECKING },
            { kind: 'run', bank: CARD },
          ];
          for (const a of [...before, ...runs, ...after]) {
            try {
              apply(db, accounts, a, entries, statements);
            } catch (error) {
              // refusals of the use cases themselves (posting a posted entry, deleting a reconciled statement)
              expect(['INVALID_STATUS', 'HAS_RECONCILED', 'INVALID_ACCOUNT']).toContain(
                (error as { code?: string }).code,
              );
            }
            // the list keeps its payee model between requests and learns new examples into it
            listUnmatched(db, { type: 'bank_transaction', page: 1, per_page: 3 });
          }
          const { kept, recounted } = counts(db);
          expect(kept).toEqual(recounted);

          // a second connection has no kept payee model: the suggestions must be the same as from a fresh one
          const fresh = new SqliteDb<LedgerSchema>(openSqliteFile(file));
          try {
            for (const q of queries) {
              const accountId = q.account === undefined ? undefined : accounts[q.account];
              const txnTotal = referenceTransactions(db, accountId, 1, 0).total;
              const entryTotal = referenceEntries(db, accountId, 1, 0).total;
              const offset = (q.page % (Math.ceil((txnTotal + entryTotal) / q.perPage) + 1)) * q.perPage;

              const txns = unmatchedTransactions(db, listedAccounts(db, accountId), q.perPage, offset);
              expect({ ids: txns.items.map((t) => t.id), total: txns.total }).toEqual(
                referenceTransactions(db, accountId, q.perPage, offset),
              );
              const ents = unmatchedEntries(db, listedAccounts(db, accountId), q.perPage, offset);
              expect({ items: ents.items.map((e) => `${e.entryId} ${e.netMinor}`), total: ents.total }).toEqual(
                referenceEntries(db, accountId, q.perPage, offset),
              );

              const query = {
                account_id: accountId,
                type: q.type,
                page: Math.floor(offset / q.perPage) + 1,
                per_page: q.perPage,
              };
              const listed = listUnmatched(db, query);
              expect(listed.total).toBe(
                (q.type === 'journal_entry' ? 0 : txnTotal) + (q.type === 'bank_transaction' ? 0 : entryTotal),
              );
              expect(listed).toEqual(listUnmatchedWith(fresh, query, new KeptPayeeModels(1)));
            }
          } finally {
            fresh.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
