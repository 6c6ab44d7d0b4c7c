import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountTotals, doubleMatches, keptAndRecounted, syncedRows } from '../../../test/support/bank-books.ts';
import { createKeyedGroup } from '../../../test/support/relay.ts';
import { useRelayMember } from '../../../test/support/relay-member.ts';
import { Stores, type LedgerDb } from '../../db/stores.ts';
import { DomainError } from '../../domain/errors.ts';
import type { SyncGroup } from '../../sync/sync-client.ts';
import { createAccount } from '../accounts/accounts.service.ts';
import { createEntry, postEntry, voidEntry } from '../journal/journal.service.ts';
import { createEntries } from '../reconciliation/reconciliation.booking.service.ts';
import {
  listReconciliationPage,
  reconcileAccount,
  reconcileStatus,
  setCleared,
} from '../reconciliation/reconciliation.cleared.service.ts';
import { KeptPayeeModels } from '../reconciliation/reconciliation.payees.service.ts';
import { acceptMatch, matchedEntryVoidGuard, rejectMatch } from '../reconciliation/reconciliation.review.service.ts';
import { runReconciliation } from '../reconciliation/reconciliation.run.service.ts';
import { listUnmatched } from '../reconciliation/reconciliation.unmatched.service.ts';
import {
  createStatement,
  listStatementPage,
  listTransactionPage,
  removeStatement,
} from '../statements/statements.service.ts';
import { syncLedger } from './ledger-store.ts';

/**
 * Three devices reconcile one set of books: each, offline, imports bank files (the same file on two
 * devices, files that overlap), enters and voids entries, runs the matcher, accepts, rejects and
 * undoes matches, books bank lines, ticks lines and finishes reconciliations; they sync through a
 * real relay in random orders and partitions. Once all have synced (until a round moves nothing):
 * every device holds the same rows and lists the same statements, lines and unmatched lines, no
 * bank line or entry has two live matches, every posted entry balances, the trial balance is zero,
 * and the maintained totals and counts equal a recount.
 */

const ACCOUNTS = [
  ['Checking', 'ASSET'],
  ['Card', 'LIABILITY'],
  ['Groceries', 'EXPENSE'],
  ['Salary', 'INCOME'],
] as const;
const [GROCERIES] = [2];
const THRESHOLDS = { autoAccept: 90, review: 30 };
const day = (d: number) => `2026-03-${String(d + 1).padStart(2, '0')}`;
const money = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const AMOUNTS = [3, 12, 40, 75];

/** The bank's rows, each with its bank id: a file is a window of them, so files overlap. */
const BANK_ROWS = Array.from({ length: 8 }, (_, i) => ({
  date: day(i),
  description: `Shop ${AMOUNTS[i % 4]}`,
  amount: money(AMOUNTS[i % 4]! * 100 + 5),
  type: i % 3 === 0 ? ('credit' as const) : ('debit' as const),
  external_id: `FIT-${i}`,
}));

type Op =
  | { kind: 'entry'; device: number; bank: number; amount: number; day: number; post: boolean; moneyIn: boolean }
  | { kind: 'post' | 'void'; device: number; i: number }
  | { kind: 'statement'; device: number; bank: number; from: number; count: number }
  | { kind: 'removeStatement'; device: number; i: number }
  | { kind: 'run'; device: number; bank: number }
  | { kind: 'decide'; device: number; i: number; how: 'accept' | 'reject' | 'undo' }
  | { kind: 'book'; device: number; n: number }
  | { kind: 'tick'; device: number; bank: number; i: number; on: boolean }
  | { kind: 'reconcile'; device: number; bank: number; day: number }
  | { kind: 'sync'; devices: number[] };

const device = fc.integer({ min: 0, max: 2 });
const bank = fc.integer({ min: 0, max: 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('entry' as const),
      device,
      bank,
      amount: fc.nat(3),
      day: fc.nat(7),
      post: fc.constantFrom(true, true, true, false),
      moneyIn: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constantFrom('post' as const, 'void' as const), device, i: fc.nat(40) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('statement' as const),
      device,
      bank,
      from: fc.nat(4),
      count: fc.integer({ min: 1, max: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeStatement' as const), device, i: fc.nat(10) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('run' as const), device, bank }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('decide' as const),
      device,
      i: fc.nat(20),
      how: fc.constantFrom('accept' as const, 'reject' as const, 'undo' as const),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('book' as const), device, n: fc.integer({ min: 1, max: 3 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('tick' as const), device, bank, i: fc.nat(20), on: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reconcile' as const), device, bank, day: fc.nat(7) }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('sync' as const), devices: fc.subarray([0, 1, 2], { minLength: 1 }) }),
  },
);

function ids(db: LedgerDb, sql: string, ...params: unknown[]): string[] {
  return db.allSql<{ id: string }>(sql, ...params).map((r) => r.id);
}

/** Plays one step on a device; a refusal the app would answer with a 4xx changes nothing and is passed over. */
function play(db: LedgerDb, accounts: string[], step: Exclude<Op, { kind: 'sync' }>): void {
  try {
    if (step.kind === 'entry') {
      const amount = money(AMOUNTS[step.amount]! * 100 + 5);
      const other = accounts[GROCERIES + (step.moneyIn ? 1 : 0)]!;
      createEntry(db, {
        entry_date: day(step.day),
        memo: `Shop ${AMOUNTS[step.amount]}`,
        auto_post: step.post,
        lines: [
          { account_id: other, direction: step.moneyIn ? 'CREDIT' : 'DEBIT', amount },
          { account_id: accounts[step.bank]!, direction: step.moneyIn ? 'DEBIT' : 'CREDIT', amount },
        ],
      });
    } else if (step.kind === 'post' || step.kind === 'void') {
      const entries = ids(
        db,
        'SELECT id FROM journal_entries WHERE status = ? AND reverses_entry_id IS NULL ORDER BY id',
        step.kind === 'post' ? 'draft' : 'posted',
      );
      if (entries.length === 0) return;
      const id = entries[step.i % entries.length]!;
      if (step.kind === 'post') postEntry(db, id);
      else voidEntry(db, id, null, matchedEntryVoidGuard, day(8));
    } else if (step.kind === 'statement') {
      const transactions = BANK_ROWS.slice(step.from, step.from + step.count);
      createStatement(db, { account_id: accounts[step.bank]!, transactions });
    } else if (step.kind === 'removeStatement') {
      const statements = ids(db, 'SELECT id FROM statements ORDER BY id');
      if (statements.length > 0) removeStatement(db, statements[step.i % statements.length]!);
    } else if (step.kind === 'run') {
      runReconciliation(db, { account_id: accounts[step.bank]! }, THRESHOLDS);
    } else if (step.kind === 'decide') {
      const status = step.how === 'undo' ? 'auto_accepted' : 'pending_review';
      const matches = ids(db, 'SELECT id FROM reconciliation_matches WHERE status = ? ORDER BY id', status);
      if (matches.length === 0) return;
      const id = matches[step.i % matches.length]!;
      if (step.how === 'accept') acceptMatch(db, id);
      else rejectMatch(db, id, null);
    } else if (step.kind === 'book') {
      const open = ids(
        db,
        "SELECT t.id FROM bank_transactions t WHERE NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.bank_transaction_id = t.id AND m.status IN ('auto_accepted', 'accepted', 'pending_review')) ORDER BY t.id",
      );
      const items = open.slice(0, step.n).map((id) => ({ bank_transaction_id: id, account_id: accounts[GROCERIES]! }));
      if (items.length > 0) createEntries(db, { items }, THRESHOLDS);
    } else if (step.kind === 'tick') {
      const lines = ids(db, 'SELECT id FROM journal_lines WHERE account_id = ? ORDER BY id', accounts[step.bank]!);
      if (lines.length === 0) return;
      setCleared(db, accounts[step.bank]!, { line_ids: [lines[step.i % lines.length]!], cleared: step.on });
    } else if (step.kind === 'reconcile') {
      const account = accounts[step.bank]!;
      const status = reconcileStatus(db, account, { statement_date: day(step.day), statement_balance: '0' });
      reconcileAccount(db, account, { statement_date: day(step.day), statement_balance: status.cleared_balance });
    }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
  }
}

const models = new KeptPayeeModels(8);

/** What the statements, reconciliation and unmatched screens list (suggestions aside: the payee model is each device's). */
function listed(db: LedgerDb, accounts: string[]): string {
  const statements = listStatementPage(db, { page: 1, per_page: 100 });
  const unmatched = listUnmatched(db, { type: 'bank_transaction', page: 1, per_page: 100 }, models);
  const entries = listUnmatched(db, { type: 'journal_entry', page: 1, per_page: 100 }, models);
  return JSON.stringify({
    statements,
    lines: statements.items.map((s) => listTransactionPage(db, s.id, { page: 1, per_page: 100 })),
    reconciliations: accounts.slice(0, 2).map((a) => listReconciliationPage(db, a, { page: 1, per_page: 100 })),
    unmatchedLines: unmatched.items.map((i) => [i.type, i.transaction.id, i.transaction.description]),
    unmatchedTotal: unmatched.total,
    // entries of one day are listed in this device's creation order: compared as a set
    unmatchedEntries: entries.items.map((i) => `${i.type} ${i.transaction.id}`).sort(),
  });
}

describe('three devices reconcile one set of books through a relay', () => {
  const { dir, member } = useRelayMember('ledger-sync-bank-');

  it('when three devices import, match, book and reconcile offline and sync in random orders, then after all sync they hold and list the same valid books', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 40 }), async (ops) => {
        runs += 1;
        const group: SyncGroup = await createKeyedGroup(member());
        const transport = member().transport();
        const stores = [0, 1, 2].map((i) => new Stores(path.join(dir, `run${runs}-device${i}`)));
        const dbs = stores.map((s) => s.ledger('00000000-0000-4000-8000-000000000001'));
        const since: (string | null)[] = [null, null, null];
        const sync = async (i: number) => {
          const result = await syncLedger(dbs[i]!, transport, group, since[i]!);
          since[i] = result.since;
          return result.sent + result.received;
        };
        try {
          const accounts = ACCOUNTS.map(([name, type]) => createAccount(dbs[0]!, { name, type }).id);
          for (const i of [0, 1, 2]) await sync(i);
          for (const step of ops) {
            if (step.kind === 'sync') for (const i of step.devices) await sync(i);
            else play(dbs[step.device]!, accounts, step);
          }
          // until a round moves nothing: what one device's merge logs (a match superseded) goes round
          let rounds = 0;
          for (let moved = 1; moved > 0; rounds++) {
            expect(rounds).toBeLessThan(8);
            moved = 0;
            for (const i of [0, 1, 2]) moved += await sync(i);
          }

          const rows = syncedRows(dbs[0]!);
          const lists = listed(dbs[0]!, accounts);
          for (const db of dbs) {
            expect(syncedRows(db)).toBe(rows);
            expect(listed(db, accounts)).toBe(lists);
            expect(doubleMatches(db)).toEqual([]);
            const counts = keptAndRecounted(db);
            expect(counts.kept).toEqual(counts.recounted);
            const totals = accountTotals(db);
            expect(totals.kept).toBe(totals.recount);
            expect(
              db.allSql(
                `SELECT l.currency, SUM(CASE WHEN l.direction = 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) AS net
                   FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
                  WHERE e.status IN ('posted', 'void') GROUP BY l.currency HAVING net <> 0`,
              ),
            ).toEqual([]);
            expect(
              db.allSql(
                `SELECT e.id FROM journal_entries e JOIN journal_lines l ON l.entry_id = e.id WHERE e.status <> 'draft'
                  GROUP BY e.id, l.currency HAVING SUM(CASE WHEN l.direction = 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) <> 0`,
              ),
            ).toEqual([]);
          }
        } finally {
          for (const s of stores) s.close();
        }
      }),
      { numRuns: 15 },
    );
    expect(runs).toBe(15);
  });
});
