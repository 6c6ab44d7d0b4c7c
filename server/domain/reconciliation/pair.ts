import { prepareDescription, scoreDescriptionPrepared } from './description.ts';
import type { PreparedDescription } from './description.ts';
import { EMPTY_HISTORY_EVIDENCE, scoreHistoryPrepared, type HistoryEvidence } from './history-score.ts';
import type { PayeeModel } from './payee-model.ts';
import {
  classify,
  dayNumber,
  DEFAULT_THRESHOLDS,
  scoreAmount,
  scoreBusiness,
  scoreDays,
  totalScore,
} from './scoring.ts';
import type {
  BankTxn,
  CandidateEntry,
  CounterAccount,
  Direction,
  MatchStatus,
  ScoreBreakdown,
  Thresholds,
} from './types.ts';

/** A bank transaction with everything per-transaction computed once. */
export interface PreparedTxn {
  readonly txn: BankTxn;
  readonly day: number;
  readonly amountMinor: bigint;
  /** the amount as a number, for bounds (exact below 2^53) */
  readonly amountNumber: number;
  readonly description: PreparedDescription;
  readonly history: HistoryEvidence;
}

/** A candidate entry with everything per-entry computed once. */
export interface PreparedEntry {
  readonly entry: CandidateEntry;
  readonly day: number;
  readonly amountMinor: bigint;
  readonly amountNumber: number;
  /** the business score against a bank debit and a bank credit */
  readonly business: { readonly debit: number; readonly credit: number };
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
  const amountMinor = magnitude(txn.amountMinor);
  return {
    txn,
    day: dayNumber(txn.date),
    amountMinor,
    amountNumber: Number(amountMinor),
    description: prepareDescription(txn.description),
    history: payeeModel
      ? payeeModel.historyEvidence(txn.description, { type: txn.type, amountMinor })
      : EMPTY_HISTORY_EVIDENCE,
  };
}

/** What a list of counter accounts decides. */
interface CounterFacts {
  readonly ids: readonly string[];
  /** the business scores against a bank debit and a bank credit, per direction of the entry's line */
  readonly business: Record<Direction, { readonly debit: number; readonly credit: number }>;
}

/**
 * What entries prepared together may share, kept and bounded by whoever prepares them: prepared
 * memo texts by text (books repeat their payees, which also lets a run score each memo once per
 * transaction), and what each list of counter accounts decides, by list (a run gives entries with
 * the same counter accounts one list, so that its hundreds of thousands of entries share a few
 * hundred of these).
 */
export interface SharedPreparation {
  readonly memos: Map<string, PreparedDescription>;
  readonly counters: Map<readonly CounterAccount[], CounterFacts>;
}

export function sharedPreparation(): SharedPreparation {
  return { memos: new Map(), counters: new Map() };
}

function factsOf(counterAccounts: readonly CounterAccount[]): CounterFacts {
  const business = (direction: Direction) => {
    const entry = { accountLine: { direction, amountMinor: 0n }, counterAccounts };
    return { debit: scoreBusiness({ type: 'debit' }, entry), credit: scoreBusiness({ type: 'credit' }, entry) };
  };
  return {
    ids: [...new Set(counterAccounts.map((c) => c.id))],
    business: { DEBIT: business('DEBIT'), CREDIT: business('CREDIT') },
  };
}

/** Prepares a candidate entry, with what `shared` holds already, adding to it what it does not. */
export function prepareEntry(entry: CandidateEntry, shared?: SharedPreparation): PreparedEntry {
  const amountMinor = magnitude(entry.accountLine.amountMinor);
  let memo = shared?.memos.get(entry.memo ?? '');
  if (!memo) {
    memo = prepareDescription(entry.memo);
    shared?.memos.set(entry.memo ?? '', memo);
  }
  let facts = shared?.counters.get(entry.counterAccounts);
  if (!facts) {
    facts = factsOf(entry.counterAccounts);
    shared?.counters.set(entry.counterAccounts, facts);
  }
  return {
    entry,
    day: dayNumber(entry.entryDate),
    amountMinor,
    amountNumber: Number(amountMinor),
    business: facts.business[entry.accountLine.direction],
    memo,
    counterAccountIds: facts.ids,
  };
}

/**
 * Scores one prepared pair. `digits` are the minor-unit digits of the statement account's
 * currency; thresholds must already be valid (see `validateThresholds`).
 */
export function scorePrepared(
  t: PreparedTxn,
  e: PreparedEntry,
  digits: number,
  thresholds: Thresholds = DEFAULT_THRESHOLDS,
  /** the description score when already known (it depends on the two texts only) */
  description: number = scoreDescriptionPrepared(t.description, e.memo),
): ScoredPair {
  const dateDiffDays = Math.abs(t.day - e.day);
  const breakdown: ScoreBreakdown = {
    amount: scoreAmount(t.amountMinor, e.amountMinor, digits),
    date: scoreDays(dateDiffDays),
    description,
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
