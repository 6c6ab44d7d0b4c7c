import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  referenceRun,
  type ReferenceEntry,
  type ReferenceOutcome,
  type ReferenceRunTxn,
} from '../../../test/support/reconciliation-reference.ts';
import type { LedgerDb } from '../../db/stores.ts';
import { addDays } from '../../domain/dates.ts';
import type { Thresholds } from '../../domain/reconciliation/index.ts';
import { createEntry, voidEntry } from '../journal/journal.service.ts';
import { createStatement } from '../statements/statements.service.ts';
import { payeeModel } from './reconciliation.payees.service.ts';
import { acceptMatch, matchedEntryVoidGuard, rejectMatch } from './reconciliation.review.service.ts';
import { runReconciliation, type RunInput } from './reconciliation.run.service.ts';
import { useLedgerFiles } from '../../../test/support/ledger-files.ts';

/**
 * The run walks the statement's span in date order, streaming candidate entries as it goes
 * (`matchInDateOrder`). On random seeded books — entries with ties, splits, two lines on the bank
 * account, drafts, voids, several statements, accepted, rejected, pending and superseded matches,
 * learnt payees — each run is checked against the run its definition gives on the same state
 * (test/support/reconciliation-reference.ts, fed with plain rows read from the ledger): the
 * summary, every bank line's live match with its score and explanation (or the pending match it
 * kept), the pending matches superseded and by which line's match, and the bookings learnt.
 */

const ledgers = useLedgerFiles('run');

/** mulberry32: a small seeded generator, so that a failing ledger is rebuilt from its seed */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!,
    chance: (p: number) => next() < p,
  };
}

const money = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const PAYEES = ['Tesco', 'Rent', 'Gym', 'Coffee', 'Shell', 'Amazon', 'Salary', 'Café Olé'];
const START = '2026-01-01';

/** What a run starts from, read from the ledger as plain rows: its scope's bank lines, the candidate entries, the refusals. */
function before(db: LedgerDb, input: RunInput) {
  const accountId =
    input.statement_id === undefined
      ? input.account_id!
      : db.allSql<{ account_id: string }>('SELECT account_id FROM statements WHERE id = ?', input.statement_id)[0]!
          .account_id;
  const filters = [
    ['t.account_id = ?', accountId],
    ['t.statement_id = ?', input.statement_id],
    ['t.date >= ?', input.start_date],
    ['t.date <= ?', input.end_date],
  ].filter(([, v]) => v !== undefined) as [string, string][];
  const txns: ReferenceRunTxn[] = db
    .allSql<{ id: string; date: string; description: string; amount_minor: bigint; type: 'debit' | 'credit' }>(
      `SELECT t.id, t.date, t.description, t.amount_minor, t.type FROM bank_transactions t
        WHERE ${filters.map(([f]) => f).join(' AND ')}
          AND NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.bank_transaction_id = t.id AND m.status IN ('accepted', 'auto_accepted'))
        ORDER BY t.date, t.seq`,
      ...filters.map(([, v]) => v),
    )
    .map((t) => {
      const pending = db.allSql<{ id: string; entry_id: string }>(
        "SELECT id, entry_id FROM reconciliation_matches WHERE bank_transaction_id = ? AND status = 'pending_review'",
        t.id,
      )[0];
      return {
        id: t.id,
        date: t.date,
        description: t.description,
        amountMinor: t.amount_minor,
        type: t.type,
        pending: pending && { id: pending.id, entryId: pending.entry_id },
      };
    });
  const inScope = new Set(txns.map((t) => t.id));
  const entries: ReferenceEntry[] = [];
  if (txns.length > 0) {
    const rows = db.allSql<{ id: string; entry_date: string; memo: string | null }>(
      `SELECT DISTINCT e.id, e.entry_date, e.memo FROM journal_entries e JOIN journal_lines l ON l.entry_id = e.id
        WHERE l.account_id = ? AND e.entry_date >= ? AND e.entry_date <= ? AND e.status = 'posted' AND e.reverses_entry_id IS NULL`,
      accountId,
      addDays(txns[0]!.date, -30),
      addDays(txns.at(-1)!.date, 30),
    );
    for (const e of rows) {
      const live = db.allSql<{ status: string; bank_transaction_id: string }>(
        "SELECT status, bank_transaction_id FROM reconciliation_matches WHERE entry_id = ? AND status IN ('accepted', 'auto_accepted', 'pending_review')",
        e.id,
      )[0];
      // taken: reconciled, or pending with a bank line outside the run
      if (live && !(live.status === 'pending_review' && inScope.has(live.bank_transaction_id))) continue;
      const lines = db.allSql<{ account_id: string; type: string; direction: string; amount_minor: bigint }>(
        'SELECT l.account_id, a.type, l.direction, l.amount_minor FROM journal_lines l JOIN accounts a ON a.id = l.account_id WHERE l.entry_id = ? ORDER BY l.line_no',
        e.id,
      );
      let net = 0n;
      for (const l of lines)
        if (l.account_id === accountId) net += l.direction === 'DEBIT' ? l.amount_minor : -l.amount_minor;
      entries.push({
        id: e.id,
        entryDate: e.entry_date,
        memo: e.memo,
        accountLine: net < 0n ? { direction: 'CREDIT', amountMinor: -net } : { direction: 'DEBIT', amountMinor: net },
        counterAccounts: lines
          .filter((l) => l.account_id !== accountId)
          .map((l) => ({ id: l.account_id, type: l.type })),
      });
    }
  }
  const rejected = new Map<string, Set<string>>();
  for (const t of txns)
    for (const r of db.allSql<{ entry_id: string }>(
      "SELECT entry_id FROM reconciliation_matches WHERE bank_transaction_id = ? AND status = 'rejected'",
      t.id,
    ))
      rejected.set(t.id, (rejected.get(t.id) ?? new Set()).add(r.entry_id));
  return { txns, entries, rejected };
}

/** The run, checked against the run its definition gives (test/support/reconciliation-reference.ts) on the same state. */
function runChecked(db: LedgerDb, input: RunInput, thresholds: Thresholds) {
  const { txns, entries, rejected } = before(db, input);
  const model = payeeModel(db);
  const expected = referenceRun(txns, entries, {
    digits: 2,
    thresholds,
    rejected,
    history: (t) => model.historyEvidence(t.description, { type: t.type, amountMinor: t.amountMinor }),
  });
  const lastExample = db.allSql<{ id: bigint | null }>('SELECT MAX(id) AS id FROM payee_examples')[0]!.id ?? 0n;

  const result = runReconciliation(db, input, thresholds);

  expect(result.summary).toEqual(expected.summary);
  const outcomes = new Map<string, ReferenceOutcome>();
  for (const t of txns) {
    const live = db.allSql<Record<string, unknown>>(
      "SELECT * FROM reconciliation_matches WHERE bank_transaction_id = ? AND status IN ('auto_accepted', 'pending_review')",
      t.id,
    )[0];
    if (!live) continue;
    outcomes.set(t.id, {
      entryId: live.entry_id as string,
      status: live.status as ReferenceOutcome['status'],
      scored:
        live.run_id === result.run_id
          ? {
              total: Number(live.score),
              breakdown: {
                amount: Number(live.score_amount),
                date: Number(live.score_date),
                description: Number(live.score_description),
                business: Number(live.score_business),
                history: Number(live.score_history),
              },
            }
          : 'kept',
    });
  }
  expect(outcomes).toEqual(expected.outcomes);
  const superseded = new Map<string, string>();
  for (const t of txns) {
    if (!t.pending) continue;
    const old = db.allSql<{ status: string; by_txn: string | null }>(
      'SELECT m.status, n.bank_transaction_id AS by_txn FROM reconciliation_matches m LEFT JOIN reconciliation_matches n ON n.id = m.superseded_by_id WHERE m.id = ?',
      t.pending.id,
    )[0]!;
    if (old.status === 'superseded') superseded.set(t.pending.id, old.by_txn!);
  }
  expect(superseded).toEqual(expected.superseded);
  const learnt = db
    .allSql<{ description: string; account_id: string; txn_type: 'debit' | 'credit'; amount_minor: bigint }>(
      'SELECT description, account_id, txn_type, amount_minor FROM payee_examples WHERE id > ? ORDER BY id',
      lastExample,
    )
    .map((r) => ({
      description: r.description,
      accountId: r.account_id,
      type: r.txn_type,
      amountMinor: r.amount_minor,
    }));
  expect(learnt).toEqual(expected.learnt);
}

function books(seed: number, thresholds: Thresholds) {
  const r = random(seed);
  const { db, accounts } = ledgers.fresh([
    ['Checking', 'ASSET'],
    ['Card', 'LIABILITY'],
    ['Savings', 'ASSET'],
    ['Groceries', 'EXPENSE'],
    ['Fun', 'EXPENSE'],
    ['Salary', 'INCOME'],
    ['Opening', 'EQUITY'],
  ]);
  const [checking, card, savings, groceries, fun, salary, equity] = accounts as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const banks = [checking, card];
  const counters = [groceries, fun, salary, savings, equity, card, checking];
  // dense days and sparse ones, several months: windows open and close on the way
  const span = r.pick([20, 60, 150]);
  const perDay = r.pick([1, 3, 8]);
  const amounts = [1250, 1250, 4200, 999, 10000, 7500, 5, 260000];
  const posted: { id: string; date: string; memo: string; cents: number; bank: string; out: boolean }[] = [];
  for (let d = 0; d < span; d++) {
    for (let k = r.int(perDay + 1); k > 0; k--) {
      const bank = r.pick(banks);
      const out = r.chance(0.8);
      const cents = r.chance(0.5) ? r.pick(amounts) : 100 + r.int(20000);
      const memo = r.chance(0.1) ? '' : `${r.pick(PAYEES)}${r.chance(0.3) ? ` ${r.int(5)}` : ''}`;
      const date = addDays(START, d);
      const other = r.pick(counters.filter((c) => c !== bank));
      const split = r.chance(0.15) ? r.pick(counters.filter((c) => c !== bank && c !== other)) : undefined;
      const bankDirection = out ? 'CREDIT' : 'DEBIT';
      const otherDirection = out ? 'DEBIT' : 'CREDIT';
      const half = Math.floor(cents / 2);
      const lines = [
        ...(split && cents > 1
          ? [
              { account_id: other, direction: otherDirection, amount: money(half) },
              { account_id: split, direction: otherDirection, amount: money(cents - half) },
            ]
          : [{ account_id: other, direction: otherDirection, amount: money(cents) }]),
        ...(r.chance(0.1) && cents > 1
          ? [
              { account_id: bank, direction: bankDirection, amount: money(half) },
              { account_id: bank, direction: bankDirection, amount: money(cents - half) },
            ]
          : [{ account_id: bank, direction: bankDirection, amount: money(cents) }]),
      ] as { account_id: string; direction: 'DEBIT' | 'CREDIT'; amount: string }[];
      const entry = createEntry(db, { entry_date: date, memo, lines, auto_post: !r.chance(0.05) });
      if (entry.status === 'posted' && r.chance(0.05))
        voidEntry(db, entry.id, null, matchedEntryVoidGuard, addDays(date, r.int(10)));
      else if (entry.status === 'posted') posted.push({ id: entry.id, date, memo, cents, bank, out });
    }
  }
  const statement = (bank: string, from: number, to: number) => {
    const transactions = [];
    for (const e of posted) {
      if (e.bank !== bank || e.date < addDays(START, from) || e.date > addDays(START, to) || !r.chance(0.7)) continue;
      const shift = r.chance(0.6) ? 0 : r.int(7) - 2;
      const cents = r.chance(0.8) ? e.cents : Math.max(1, e.cents + r.int(3000) - 1500);
      const description = r.chance(0.5)
        ? `CARD PAYMENT ${e.memo.toUpperCase()} ${100000 + r.int(900000)}`
        : r.chance(0.5)
          ? e.memo
          : r.pick(PAYEES);
      transactions.push({
        date: addDays(e.date, shift),
        description: description || 'X',
        amount: money(cents),
        type: e.out ? 'debit' : 'credit',
      });
    }
    for (let k = r.int(5); k > 0; k--) {
      transactions.push({
        date: addDays(START, from + r.int(to - from + 1)),
        description: r.pick(PAYEES),
        amount: money(r.pick(amounts)),
        type: r.chance(0.8) ? 'debit' : 'credit',
      });
    }
    if (transactions.length === 0) return undefined;
    return (
      createStatement(db, { account_id: bank, name: 'Statement', transactions } as Parameters<
        typeof createStatement
      >[1]).id ?? undefined
    );
  };
  const decide = () => {
    for (const m of db.allSql<{ id: string }>(
      "SELECT id FROM reconciliation_matches WHERE status = 'pending_review' ORDER BY rowid",
    )) {
      if (r.chance(0.3)) acceptMatch(db, m.id);
      else if (r.chance(0.3)) rejectMatch(db, m.id, 'not this one');
    }
  };
  const first = statement(checking, 0, Math.floor(span / 2));
  if (first) runChecked(db, { statement_id: first }, thresholds);
  decide();
  const second = statement(checking, Math.floor(span / 3), span - 1);
  const cardStatement = statement(card, 0, span - 1);
  // a rerun of the account (pending matches may be superseded), a date range, the card
  runChecked(db, { account_id: checking }, thresholds);
  decide();
  if (second) runChecked(db, { statement_id: second, start_date: addDays(START, Math.floor(span / 2)) }, thresholds);
  if (cardStatement) runChecked(db, { statement_id: cardStatement, account_id: card }, thresholds);
  runChecked(db, { account_id: checking, end_date: addDays(START, span - 5) }, thresholds);
}

describe('reconciliation run, against its definition', () => {
  it('when random books are reconciled again and again, then every match, score, status, superseded link and learnt payee is the one its definition gives', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.oneof(
          fc.constant({ autoAccept: 85, review: 60 }),
          fc.constant({ autoAccept: 95, review: 20 }),
          fc
            .tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }))
            .map(([x, y]) => ({ autoAccept: Math.max(x, y), review: Math.min(x, y) })),
        ),
        (seed, thresholds) => books(seed, thresholds),
      ),
      { numRuns: 40 },
    );
    // its work is bounded by the 40 ledgers, each run twice; the suite's 10-minute hang guard applies
  });
});
