import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LedgerDb } from '../../db/stores.ts';
import { DomainError } from '../../domain/errors.ts';
import { importJournal } from '../journal-import/journal-import.service.ts';
import { createEntry, postEntry, voidEntry } from '../journal/journal.service.ts';
import { createStatement, removeStatement } from '../statements/statements.service.ts';
import { createEntries } from './reconciliation.booking.service.ts';
import { reconcileAccount, reconcileStatus, setCleared } from './reconciliation.cleared.service.ts';
import { acceptMatch, matchedEntryVoidGuard, rejectMatch } from './reconciliation.review.service.ts';
import { runReconciliation } from './reconciliation.run.service.ts';
import { useLedgerFiles } from '../../../test/support/ledger-files.ts';

/**
 * reconcile-status reads the cleared day totals that triggers keep (the rules_and_cleared
 * migration). Random books (entries posted as drafts or at once, voided, imported; statements,
 * runs, matches accepted, rejected and undone, lines booked in bulk, ticked and unticked by hand,
 * reconciliations) are compared with a recount from the lines, and every line a live match
 * reconciles is cleared.
 */

const THRESHOLDS = { autoAccept: 90, review: 30 };

const ledgers = useLedgerFiles('cleared');

const ACCOUNTS = [
  ['Checking', 'ASSET'],
  ['Card', 'LIABILITY'],
  ['Groceries', 'EXPENSE'],
  ['Salary', 'INCOME'],
] as const;
const [CHECKING, CARD, GROCERIES, SALARY] = [0, 1, 2, 3];
const day = (d: number) => `2026-03-${String(d + 1).padStart(2, '0')}`;
const money = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const amounts = [3, 12, 40, 75];

const freshLedger = () => ledgers.fresh(ACCOUNTS);

const actionArb = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('entry' as const),
      day: fc.nat(8),
      bank: fc.constantFrom(CHECKING, CARD),
      other: fc.constantFrom(GROCERIES, SALARY),
      amount: fc.nat(3),
      moneyIn: fc.boolean(),
      post: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('post' as const), i: fc.nat(40) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('void' as const), i: fc.nat(40) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('import' as const), day: fc.nat(8), voided: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('statement' as const),
      bank: fc.constantFrom(CHECKING, CARD),
      rows: fc.array(fc.record({ day: fc.nat(8), amount: fc.nat(3), credit: fc.boolean() }), {
        minLength: 1,
        maxLength: 4,
      }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeStatement' as const), i: fc.nat(10) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('run' as const), bank: fc.constantFrom(CHECKING, CARD) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('decide' as const),
      i: fc.nat(40),
      how: fc.constantFrom('accept', 'reject', 'undo'),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('book' as const), n: fc.integer({ min: 1, max: 3 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('tick' as const),
      bank: fc.constantFrom(CHECKING, CARD),
      i: fc.nat(40),
      on: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('reconcile' as const),
      bank: fc.constantFrom(CHECKING, CARD),
      day: fc.nat(8),
    }),
  },
);
type Action = typeof actionArb extends fc.Arbitrary<infer A> ? A : never;

function apply(db: LedgerDb, accounts: string[], a: Action, entries: string[], statements: string[]): void {
  const account = (i: number) => accounts[i]!;
  if (a.kind === 'entry') {
    const amount = money(amounts[a.amount]! * 100 + 5);
    const lines = [
      { account_id: account(a.other), direction: a.moneyIn ? ('CREDIT' as const) : ('DEBIT' as const), amount },
      { account_id: account(a.bank), direction: a.moneyIn ? ('DEBIT' as const) : ('CREDIT' as const), amount },
    ];
    entries.push(createEntry(db, { entry_date: day(a.day), memo: `Shop ${a.amount}`, lines, auto_post: a.post }).id);
  } else if (a.kind === 'post' || a.kind === 'void') {
    if (entries.length === 0) return;
    const id = entries[a.i % entries.length]!;
    if (a.kind === 'post') postEntry(db, id);
    else voidEntry(db, id, null, matchedEntryVoidGuard, day(8));
  } else if (a.kind === 'import') {
    const text = `${day(a.day)} * Imported\n    Expenses:Groceries  7.00 USD\n    Assets:Checking  -7.00 USD\n`;
    importJournal(db, text, 'hledger');
  } else if (a.kind === 'statement') {
    const transactions = a.rows.map((r) => ({
      date: day(r.day),
      description: `Shop ${r.amount}`,
      amount: money(amounts[r.amount]! * 100 + 5),
      type: r.credit ? ('credit' as const) : ('debit' as const),
    }));
    const result = createStatement(db, { account_id: account(a.bank), transactions });
    if (result.id) statements.push(result.id);
  } else if (a.kind === 'removeStatement') {
    if (statements.length > 0) removeStatement(db, statements.splice(a.i % statements.length, 1)[0]!);
  } else if (a.kind === 'run') {
    runReconciliation(db, { account_id: account(a.bank) }, THRESHOLDS);
  } else if (a.kind === 'decide') {
    const status = a.how === 'undo' ? 'auto_accepted' : 'pending_review';
    const ids = db.allSql<{ id: string }>('SELECT id FROM reconciliation_matches WHERE status = ? ORDER BY id', status);
    if (ids.length === 0) return;
    const id = ids[a.i % ids.length]!.id;
    if (a.how === 'accept') acceptMatch(db, id);
    else rejectMatch(db, id, null);
  } else if (a.kind === 'book') {
    const open = db.allSql<{ id: string }>(
      "SELECT t.id FROM bank_transactions t WHERE NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.bank_transaction_id = t.id AND m.status IN ('auto_accepted', 'accepted', 'pending_review')) ORDER BY t.seq",
    );
    const items = open.slice(0, a.n).map((t) => ({ bank_transaction_id: t.id, account_id: account(GROCERIES) }));
    if (items.length > 0) createEntries(db, { items }, THRESHOLDS);
  } else if (a.kind === 'tick') {
    const lines = db.allSql<{ id: string }>(
      'SELECT id FROM journal_lines WHERE account_id = ? ORDER BY id',
      account(a.bank),
    );
    if (lines.length === 0) return;
    setCleared(db, account(a.bank), { line_ids: [lines[a.i % lines.length]!.id], cleared: a.on });
  } else {
    // finish at the cleared balance itself: the difference is zero
    const status = reconcileStatus(db, account(a.bank), { statement_date: day(a.day), statement_balance: '0' });
    reconcileAccount(db, account(a.bank), { statement_date: day(a.day), statement_balance: status.cleared_balance });
  }
}

/** The kept rows (all-zero rows left out: a row that falls to zero stays) and the same recounted from every line. */
function totals(db: LedgerDb) {
  const kept = db.allSql(
    `SELECT account_id, day, cleared_debit_minor AS d, cleared_credit_minor AS c, uncleared_lines AS u, cleared_lines AS k
       FROM account_cleared_day_totals
      WHERE cleared_debit_minor <> 0 OR cleared_credit_minor <> 0 OR uncleared_lines <> 0 OR cleared_lines <> 0
      ORDER BY account_id, day`,
  );
  const recounted = db.allSql(
    `SELECT l.account_id, l.entry_date AS day,
            SUM(CASE WHEN l.cleared <> 'uncleared' AND l.direction = 'DEBIT' THEN l.amount_minor ELSE 0 END) AS d,
            SUM(CASE WHEN l.cleared <> 'uncleared' AND l.direction = 'CREDIT' THEN l.amount_minor ELSE 0 END) AS c,
            SUM(l.cleared = 'uncleared') AS u, SUM(l.cleared = 'cleared') AS k
       FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
      WHERE e.status = 'posted' AND e.reverses_entry_id IS NULL
      GROUP BY l.account_id, l.entry_date ORDER BY l.account_id, l.entry_date`,
  );
  return { kept, recounted };
}

/** Lines a live accepted or automatic match reconciles with a bank line of their account that are still uncleared. */
function matchedButUncleared(db: LedgerDb): unknown[] {
  return db.allSql(
    `SELECT l.id FROM reconciliation_matches m JOIN bank_transactions t ON t.id = m.bank_transaction_id
       JOIN journal_lines l ON l.entry_id = m.entry_id AND l.account_id = t.account_id
      WHERE m.status IN ('accepted', 'auto_accepted') AND l.cleared = 'uncleared'`,
  );
}

/** The cleared balance of an account at a day, recounted from its lines. */
function recountedClearedBalance(db: LedgerDb, accountId: string, asOf: string, debitNormal: boolean): bigint {
  const [row] = db.allSql<{ net: bigint | null }>(
    `SELECT SUM(CASE l.direction WHEN 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) AS net
       FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
      WHERE l.account_id = ? AND l.entry_date <= ? AND l.cleared <> 'uncleared' AND e.status = 'posted' AND e.reverses_entry_id IS NULL`,
    accountId,
    asOf,
  );
  const net = row?.net ?? 0n;
  return debitNormal ? net : -net;
}

describe('cleared balance from the maintained totals', () => {
  it('when books change at random, then the cleared totals equal a recount from the lines, reconcile-status equals the recounted cleared balance, and matched lines are cleared', () => {
    fc.assert(
      fc.property(fc.array(actionArb, { minLength: 1, maxLength: 30 }), fc.nat(8), (actions, asOf) => {
        const { db, accounts } = freshLedger();
        const entries: string[] = [];
        const statements: string[] = [];
        for (const a of actions) {
          try {
            apply(db, accounts, a, entries, statements);
          } catch (error) {
            // a refused action (a reconciled entry voided, a posted entry posted again…) changes nothing
            if (!(error instanceof DomainError)) throw error;
          }
        }
        const { kept, recounted } = totals(db);
        expect(kept).toEqual(recounted);
        expect(matchedButUncleared(db)).toEqual([]);
        for (const [i, debitNormal] of [
          [CHECKING, true],
          [CARD, false],
        ] as const) {
          const status = reconcileStatus(db, accounts[i]!, { statement_date: day(asOf), statement_balance: '0' });
          const recount = recountedClearedBalance(db, accounts[i]!, day(asOf), debitNormal);
          const cents = BigInt(status.cleared_balance.replace('.', ''));
          expect(cents).toBe(recount);
        }
      }),
      { numRuns: 40 },
    );
  });
});
