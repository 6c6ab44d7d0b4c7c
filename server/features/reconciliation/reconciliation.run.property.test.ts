import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRunReconciliation } from '../../../test/support/reconciliation-reference.ts';
import { Stores, type LedgerDb } from '../../db/stores.ts';
import { addDays } from '../../domain/dates.ts';
import type { Thresholds } from '../../domain/reconciliation/index.ts';
import { createAccount } from '../accounts/accounts.service.ts';
import { createEntry, voidEntry } from '../journal/journal.service.ts';
import { createStatement } from '../statements/statements.service.ts';
import { acceptMatch, matchedEntryVoidGuard, rejectMatch } from './reconciliation.review.service.ts';
import { runReconciliation, type RunInput } from './reconciliation.run.service.ts';

/**
 * The run walks the statement's span in date order, streaming candidate entries as it goes
 * (`matchInDateOrder`). On random seeded books — entries with ties, splits, two lines on the bank
 * account, drafts, voids, several statements, accepted, rejected, pending and superseded matches,
 * learnt payees — each run is made twice on the same state: first by the run as it was before
 * (test/support/reconciliation-reference.ts, rolled back), then by the current one. Every row
 * they leave (matches, their scores and explanations, superseded links, learnt examples, the
 * run's counts) must be the same.
 */

let dir: string;
let stores: Stores;
let ledgers = 0;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-run-'));
  stores = new Stores(dir);
});
afterAll(() => {
  stores.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

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

/** Everything a run leaves, with the run's own ids replaced by positions. */
function state(db: LedgerDb, runId: string) {
  const matches = db.allSql<Record<string, unknown>>('SELECT * FROM reconciliation_matches ORDER BY rowid');
  const position = new Map(matches.map((m, i) => [m.id as string, i]));
  return {
    matches: matches.map((m) => [
      m.bank_transaction_id,
      m.entry_id,
      m.status,
      m.score,
      m.score_amount,
      m.score_date,
      m.score_description,
      m.score_business,
      m.score_history,
      m.version,
      m.superseded_by_id === null ? null : position.get(m.superseded_by_id as string),
      m.run_id === runId ? 'this run' : m.run_id,
      m.accepted_at === null,
      m.rejected_at === null,
    ]),
    examples: db.allSql('SELECT description, account_id, source FROM payee_examples ORDER BY id'),
    run: db.allSql(
      'SELECT statement_id, account_id, start_date, end_date, total_transactions, auto_accepted, pending_review, unmatched FROM reconciliation_runs WHERE id = ?',
      runId,
    ),
  };
}

/** The run by both: the old one in a transaction rolled back, then the current one. */
function runBoth(db: LedgerDb, input: RunInput, thresholds: Thresholds) {
  db.sqlite.exec('BEGIN IMMEDIATE');
  let expected;
  try {
    const result = referenceRunReconciliation(db, input, thresholds);
    expected = { summary: result.summary, ...state(db, result.run_id) };
  } finally {
    db.sqlite.exec('ROLLBACK');
  }
  const result = runReconciliation(db, input, thresholds);
  expect({ summary: result.summary, ...state(db, result.run_id) }).toEqual(expected);
}

function books(seed: number, thresholds: Thresholds) {
  const r = random(seed);
  ledgers += 1;
  const db = stores.ledger(`00000000-0000-4000-8000-${String(ledgers).padStart(12, '0')}`);
  const account = (name: string, type: 'ASSET' | 'LIABILITY' | 'EXPENSE' | 'INCOME' | 'EQUITY') =>
    createAccount(db, { name, type }).id;
  const checking = account('Checking', 'ASSET');
  const card = account('Card', 'LIABILITY');
  const savings = account('Savings', 'ASSET');
  const groceries = account('Groceries', 'EXPENSE');
  const fun = account('Fun', 'EXPENSE');
  const salary = account('Salary', 'INCOME');
  const equity = account('Opening', 'EQUITY');
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
  if (first) runBoth(db, { statement_id: first }, thresholds);
  decide();
  const second = statement(checking, Math.floor(span / 3), span - 1);
  const cardStatement = statement(card, 0, span - 1);
  // a rerun of the account (pending matches may be superseded), a date range, the card
  runBoth(db, { account_id: checking }, thresholds);
  decide();
  if (second) runBoth(db, { statement_id: second, start_date: addDays(START, Math.floor(span / 2)) }, thresholds);
  if (cardStatement) runBoth(db, { statement_id: cardStatement, account_id: card }, thresholds);
  runBoth(db, { account_id: checking, end_date: addDays(START, span - 5) }, thresholds);
}

describe('reconciliation run, against the run before the date sweep', () => {
  it('when random books are reconciled again and again, then every match, score, status, superseded link and learnt payee is the old run’s', () => {
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
