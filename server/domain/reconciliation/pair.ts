import { assignOneToOne } from './assignment.ts';
import { prepareDescription, scoreDescriptionPrepared } from './description.ts';
import type { PreparedDescription } from './description.ts';
import { EMPTY_HISTORY_EVIDENCE, scoreHistoryPrepared } from './payee-model.ts';
import type { HistoryEvidence, PayeeModel } from './payee-model.ts';
import { classify, dayNumber, DEFAULT_THRESHOLDS, scoreAmount, scoreBusiness, scoreDays, totalScore, validateThresholds } from './scoring.ts';
import type { BankTxn, CandidateEntry, MatchStatus, ScoreBreakdown, Thresholds } from './types.ts';

/** A bank transaction with everything per-transaction computed once. */
export interface PreparedTxn {
  readonly txn: BankTxn;
  readonly day: number;
  readonly amountMinor: bigint;
  readonly description: PreparedDescription;
  readonly history: HistoryEvidence;
}

/** A candidate entry with everything per-entry computed once. */
export interface PreparedEntry {
  readonly entry: CandidateEntry;
  readonly day: number;
  readonly amountMinor: bigint;
  readonly memo: PreparedDescription;
  readonly counterAccountIds: readonly string[];
}

export interface ScoredPair {
  readonly txnId: string;
  readonly entryId: string;
  readonly breakdown: ScoreBreakdown;
  readonly total: number;
  readonly status: MatchStatus;
  readonly dateDiffDays: number;
}

function magnitude(x: bigint): bigint {
  return x < 0n ? -x : x;
}

/** Prepares a bank transaction; without a payee model its history evidence is empty (history 0). */
export function prepareTxn(txn: BankTxn, payeeModel?: PayeeModel): PreparedTxn {
  return {
    txn,
    day: dayNumber(txn.date),
    amountMinor: magnitude(txn.amountMinor),
    description: prepareDescription(txn.description),
    history: payeeModel ? payeeModel.historyEvidence(txn.description) : EMPTY_HISTORY_EVIDENCE,
  };
}

export function prepareEntry(entry: CandidateEntry): PreparedEntry {
  return {
    entry,
    day: dayNumber(entry.entryDate),
    amountMinor: magnitude(entry.accountLine.amountMinor),
    memo: prepareDescription(entry.memo),
    counterAccountIds: [...new Set(entry.counterAccounts.map((c) => c.id))],
  };
}

/**
 * Scores one prepared pair. `digits` are the minor-unit digits of the statement account's
 * currency; thresholds must already be valid (see `validateThresholds`).
 */
export function scorePrepared(t: PreparedTxn, e: PreparedEntry, digits: number, thresholds: Thresholds = DEFAULT_THRESHOLDS): ScoredPair {
  const dateDiffDays = Math.abs(t.day - e.day);
  const breakdown: ScoreBreakdown = {
    amount: scoreAmount(t.amountMinor, e.amountMinor, digits),
    date: scoreDays(dateDiffDays),
    description: scoreDescriptionPrepared(t.description, e.memo),
    business: scoreBusiness(t.txn, e.entry),
    history: scoreHistoryPrepared(t.history, e.counterAccountIds),
  };
  const total = totalScore(breakdown);
  return { txnId: t.txn.id, entryId: e.entry.id, breakdown, total, status: classify(total, thresholds), dateDiffDays };
}

export interface ScoreOptions {
  readonly digits: number;
  readonly payeeModel?: PayeeModel;
  readonly thresholds?: Thresholds;
}

/** Scores one pair from raw inputs (convenient; use the prepared forms in bulk). */
export function scorePair(txn: BankTxn, entry: CandidateEntry, options: ScoreOptions): ScoredPair {
  return scorePrepared(prepareTxn(txn, options.payeeModel), prepareEntry(entry), options.digits, options.thresholds);
}

export interface MatchResult {
  /** Assigned pairs with status auto_accepted or pending_review, highest total first. */
  readonly matches: ScoredPair[];
  /** Transactions left without a match, in input order. */
  readonly unmatchedTxnIds: string[];
}

/**
 * A whole run in memory: scores every transaction against its candidates (as the database gives
 * them: same account, right direction, within the date window), drops pairs below the review
 * threshold, and assigns one-to-one (see `assignOneToOne`).
 */
export function matchTransactions(
  txns: readonly PreparedTxn[],
  candidatesFor: (txn: PreparedTxn) => Iterable<PreparedEntry>,
  options: { readonly digits: number; readonly thresholds?: Thresholds },
): MatchResult {
  const thresholds = validateThresholds(options.thresholds ?? DEFAULT_THRESHOLDS);
  const scored: ScoredPair[] = [];
  for (const t of txns) {
    for (const e of candidatesFor(t)) {
      const pair = scorePrepared(t, e, options.digits, thresholds);
      if (pair.status !== 'unmatched') scored.push(pair);
    }
  }
  const matches = assignOneToOne(scored, { minTotal: thresholds.review });
  const matched = new Set(matches.map((m) => m.txnId));
  return { matches, unmatchedTxnIds: txns.filter((t) => !matched.has(t.txn.id)).map((t) => t.txn.id) };
}
