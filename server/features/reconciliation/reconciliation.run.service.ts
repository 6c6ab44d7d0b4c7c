import type { LedgerDb } from '../../db/stores.ts';
import { newRowId } from '../../db/ids.ts';
import { addDays } from '../../domain/dates.ts';
import { DomainError } from '../../domain/errors.ts';
import { currencyDigits } from '../../domain/currencies.ts';
import {
  CANDIDATE_WINDOW_DAYS,
  matchInDateOrder,
  planRerun,
  type CandidateEntry,
  type CounterAccount,
  type RerunPlan,
  type ScoredPair,
  type Thresholds,
} from '../../domain/reconciliation/index.ts';
import { allAccounts, findAccount } from '../accounts/accounts.queries.ts';
import type { Account } from '../accounts/accounts.model.ts';
import { findStatement } from '../statements/statements.queries.ts';
import { decide, insertMatch, linkSupersededBy } from './reconciliation.matches.repository.ts';
import { addPayeeExample } from './reconciliation.payees.repository.ts';
import { payeeModel } from './reconciliation.payees.service.ts';
import {
  candidateEntries,
  insertRun,
  rejectedEntriesByTransaction,
  unreconciledTransactions,
  type Scope,
  type TxnInScope,
} from './reconciliation.run.repository.ts';

/**
 * A reconciliation run: the scope's unreconciled bank transactions matched with posted entries,
 * the matches recorded, the pending ones they displace superseded, the payee model taught.
 *
 * The matching's rule (candidates, score, the passes best to weakest) is stated at the head of
 * server/domain/reconciliation/sweep.ts. A run adds what the ledger holds: the candidates are the
 * account's posted entries not taken by a live match (reconciled, or pending review with a
 * transaction outside the run), the refused pairs are the rejected matches, and a pair a
 * transaction is already pending review with stays as it is (`planRerun`).
 */

export interface RunInput {
  statement_id?: string | undefined;
  account_id?: string | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
}

/** What a run's matching is given: the scope's unreconciled transactions and what bounds their pairs. */
export interface RunMatching {
  account: Account;
  txns: TxnInScope[];
  /** the ids of `txns`: an entry pending with a transaction outside them is taken */
  inScope: ReadonlySet<string>;
  /** entry ids refused before, per transaction id */
  rejected: ReadonlyMap<string, ReadonlySet<string>>;
  digits: number;
  thresholds: Thresholds;
}

/** The pairs a run assigns, and each matched entry's counter accounts (once each), which the payee model learns from. */
export interface RunMatches {
  matches: readonly ScoredPair[];
  counterAccountsOf: ReadonlyMap<string, readonly string[]>;
}

/**
 * Scores the scope's unreconciled bank transactions against posted entries on the same account,
 * in the right direction and within 30 days, assigns one-to-one from the highest score down, and
 * records auto-accepted and review matches. A transaction whose pending match loses to a better
 * candidate has that match superseded. The entries are streamed in date order as the match walks
 * through the statement (`matchInDateOrder`): a run over years of a busy account holds a few weeks
 * of its entries, not all of them.
 */
export function runReconciliation(db: LedgerDb, input: RunInput, thresholds: Thresholds) {
  return runWithMatching(db, input, thresholds, matchInDateSweep);
}

function matchInDateSweep(db: LedgerDb, run: RunMatching): RunMatches {
  const { txns } = run;
  const entries =
    txns.length === 0
      ? []
      : candidatesInDateOrder(
          db,
          run.account.id,
          addDays(txns[0]!.date, -CANDIDATE_WINDOW_DAYS),
          addDays(txns.at(-1)!.date, CANDIDATE_WINDOW_DAYS),
          run.inScope,
        );
  const result = matchInDateOrder(txns, entries, {
    digits: run.digits,
    thresholds: run.thresholds,
    payeeModel: payeeModel(db),
    rejected: run.rejected,
  });
  return {
    matches: result.matches,
    counterAccountsOf: new Map(result.matches.map((m) => [m.entryId, m.counterAccountIds])),
  };
}

/**
 * The account's posted entries dated in [from, to], in date order, streamed as the run walks
 * forward, without those taken already: reconciled, or pending with a transaction outside the run
 * (`inScope`). Entries with the same counter accounts share one list of them.
 */
function* candidatesInDateOrder(
  db: LedgerDb,
  accountId: string,
  from: string,
  to: string,
  inScope: ReadonlySet<string>,
): Generator<CandidateEntry> {
  const accounts = new Map(allAccounts(db).map((a) => [a.id, { id: a.id, type: a.type }]));
  const counterLists = new Map<string, CounterAccount[]>();
  for (const r of candidateEntries(db, accountId, from, to)) {
    // an entry already reconciled, or pending with a transaction outside this run, is taken
    if (r.liveMatch && !(r.liveMatch.status === 'pending_review' && inScope.has(r.liveMatch.bankTransactionId)))
      continue;
    let counterAccounts = counterLists.get(r.counters);
    if (!counterAccounts)
      counterLists.set(
        r.counters,
        (counterAccounts = r.counters === '' ? [] : r.counters.split(' ').map((id) => accounts.get(id)!)),
      );
    yield {
      id: r.entryId,
      entryDate: r.entryDate,
      memo: r.memo,
      accountLine: {
        direction: r.netMinor >= 0n ? 'DEBIT' : 'CREDIT',
        amountMinor: r.netMinor < 0n ? -r.netMinor : r.netMinor,
      },
      counterAccounts,
    };
  }
}

/**
 * A run with the matching given: the scope resolved, the matching's pairs stored, pending matches
 * they displace superseded, the payee model taught.
 */
function runWithMatching(
  db: LedgerDb,
  input: RunInput,
  thresholds: Thresholds,
  matching: (db: LedgerDb, run: RunMatching) => RunMatches,
) {
  return db.transaction(() => {
    const account = runAccount(db, input);
    const scope: Scope = {
      statementId: input.statement_id,
      accountId: account.id,
      startDate: input.start_date,
      endDate: input.end_date,
    };
    const createdAt = new Date().toISOString();
    const txns = unreconciledTransactions(db, scope);
    const ids = txns.map((t) => t.id);
    const result = matching(db, {
      account,
      txns,
      inScope: new Set(ids),
      rejected: rejectedEntriesByTransaction(db, ids),
      digits: currencyDigits(account.currency),
      thresholds,
    });
    const plan = planRerun(txns, result.matches, newRowId);
    const runId = newRowId();
    const completedAt = new Date().toISOString();
    storeRun(db, { id: runId, scope, createdAt, completedAt }, plan, txns, result.counterAccountsOf);
    const { summary } = plan;
    return {
      run_id: runId,
      status: 'completed' as const,
      summary: {
        total_transactions: summary.total,
        auto_accepted: summary.autoAccepted,
        pending_review: summary.pendingReview,
        unmatched: summary.unmatched,
      },
      completed_at: completedAt,
    };
  });
}

/** The bank account a run is for: the statement's, which `account_id`, if given too, must be. */
function runAccount(db: LedgerDb, input: RunInput): Account {
  let accountId = input.account_id;
  if (input.statement_id !== undefined) {
    const statement = findStatement(db, input.statement_id);
    if (!statement)
      throw new DomainError('VALIDATION_ERROR', 'The statement does not exist', [
        { field: 'statement_id', message: 'no such statement' },
      ]);
    if (accountId !== undefined && accountId !== statement.accountId) {
      throw new DomainError('VALIDATION_ERROR', 'The statement belongs to another account', [
        { field: 'account_id', message: 'differs from the statement’s account' },
      ]);
    }
    accountId = statement.accountId;
  }
  const account = findAccount(db, accountId!);
  if (!account)
    throw new DomainError('INVALID_ACCOUNT', 'The account does not exist', [
      { field: 'account_id', message: 'no such account' },
    ]);
  if (account.type !== 'ASSET' && account.type !== 'LIABILITY') {
    throw new DomainError(
      'INVALID_ACCOUNT',
      `Reconciliation is for ASSET or LIABILITY accounts; ${account.name} is ${account.type}`,
      [{ field: 'account_id', message: 'not a bank account' }],
    );
  }
  return account;
}

/**
 * Writes what the plan says. Foreign keys are checked per statement: the run exists before its
 * matches, and a superseded match is linked to its replacement only once the replacement exists.
 * Pending matches are superseded before the new ones are inserted, so that at no point two live
 * matches share a transaction or an entry. The payee model learns the auto-accepted entries'
 * counter accounts (already read for scoring).
 */
function storeRun(
  db: LedgerDb,
  run: { id: string; scope: Scope; createdAt: string; completedAt: string },
  plan: RerunPlan<ScoredPair>,
  txns: readonly TxnInScope[],
  counterAccountsOf: ReadonlyMap<string, readonly string[]>,
): void {
  const { summary } = plan;
  const at = run.createdAt;
  insertRun(db, {
    id: run.id,
    scope: run.scope,
    total: summary.total,
    autoAccepted: summary.autoAccepted,
    pendingReview: summary.pendingReview,
    unmatched: summary.unmatched,
    createdAt: at,
    completedAt: run.completedAt,
  });
  for (const old of plan.superseded) decide(db, old.id, old.version, { status: 'superseded', at });
  const txnOf = new Map(txns.map((t) => [t.id, t]));
  for (const { id, pair } of plan.inserts) {
    insertMatch(db, {
      id,
      runId: run.id,
      bankTransactionId: pair.txnId,
      entryId: pair.entryId,
      status: pair.status,
      score: pair.total,
      breakdown: pair.breakdown,
      version: 1,
      supersededById: null,
      createdAt: at,
      updatedAt: at,
      acceptedAt: pair.status === 'auto_accepted' ? at : null,
      rejectedAt: null,
      rejectReason: null,
    });
    if (pair.status !== 'auto_accepted') continue;
    for (const accountId of counterAccountsOf.get(pair.entryId) ?? [])
      addPayeeExample(db, txnOf.get(pair.txnId)!.description, accountId, 'accepted_match', at, txnOf.get(pair.txnId)!);
  }
  for (const old of plan.superseded) linkSupersededBy(db, old.id, old.by);
}
