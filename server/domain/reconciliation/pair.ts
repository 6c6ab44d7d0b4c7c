import { compareForAssignment } from './assignment.ts';
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
    history: payeeModel ? payeeModel.historyEvidence(txn.description) : EMPTY_HISTORY_EVIDENCE,
  };
}

/**
 * Prepares a candidate entry. Given a `memos` map, entries with the same memo share one prepared
 * description (books repeat their payees), which also lets a run score each memo once per
 * transaction.
 */
export function prepareEntry(entry: CandidateEntry, memos?: Map<string, PreparedDescription>): PreparedEntry {
  const amountMinor = magnitude(entry.accountLine.amountMinor);
  let memo = memos?.get(entry.memo ?? '');
  if (!memo) {
    memo = prepareDescription(entry.memo);
    memos?.set(entry.memo ?? '', memo);
  }
  return {
    entry,
    day: dayNumber(entry.entryDate),
    amountMinor,
    amountNumber: Number(amountMinor),
    business: { debit: scoreBusiness({ type: 'debit' }, entry), credit: scoreBusiness({ type: 'credit' }, entry) },
    memo,
    counterAccountIds: [...new Set(entry.counterAccounts.map((c) => c.id))],
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

export interface MatchResult {
  /** Assigned pairs with status auto_accepted or pending_review, highest total first. */
  readonly matches: ScoredPair[];
  /** Transactions left without a match, in input order. */
  readonly unmatchedTxnIds: string[];
}

const SAFE_LIMIT = Number.MAX_SAFE_INTEGER / 128;

/**
 * The highest total a pair can reach whatever its descriptions say: its exact amount, date,
 * business and history scores with the description taken as 100. Computed in plain numbers (it
 * is asked for every candidate pair); when the amounts are too large for that, 100.
 */
function upperBoundTotal(t: PreparedTxn, e: PreparedEntry, digits: number): number {
  const limit = 50 * 10 ** digits;
  const a = t.amountNumber;
  const b = e.amountNumber;
  if (!(a < SAFE_LIMIT && b < SAFE_LIMIT && limit < SAFE_LIMIT)) return 100;
  const diff = Math.abs(a - b);
  // scoreAmount's rounding (see linearFallBig), exact in numbers this small
  const amount = diff === 0 ? 100 : diff >= limit ? 0 : Math.min(99, Math.floor((100 * (limit - diff) + limit - 1) / limit));
  const dateDiff = Math.abs(t.day - e.day);
  const date = scoreDays(dateDiff);
  const business = e.business[t.txn.type];
  const history = scoreHistoryPrepared(t.history, e.counterAccountIds);
  return Math.floor((40 * amount + 25 * date + 20 * 100 + 10 * business + 5 * history + 50) / 100);
}

interface TxnCandidates {
  readonly t: PreparedTxn;
  /** this transaction's candidates in the band: `band.entries[start..end)`, highest upper bound first */
  readonly start: number;
  readonly end: number;
  next: number;
}

interface Band {
  readonly entries: PreparedEntry[];
  readonly bounds: Uint8Array;
  readonly perTxn: TxnCandidates[];
}

/**
 * The transactions' candidates whose upper bound lies in [lo, hi], all in one array (millions of
 * pairs: one allocation, not one per transaction), each transaction's highest bound first.
 */
function collectBand(txns: readonly PreparedTxn[], candidatesFor: (txn: PreparedTxn) => Iterable<PreparedEntry>, digits: number, lo: number, hi: number): Band {
  const entries: PreparedEntry[] = [];
  let bounds = new Uint8Array(1 << 16);
  let size = 0;
  const perTxn: TxnCandidates[] = [];
  const count = new Uint32Array(101);
  for (const t of txns) {
    const start = size;
    count.fill(0);
    for (const e of candidatesFor(t)) {
      const bound = upperBoundTotal(t, e, digits);
      if (bound < lo || bound > hi) continue;
      if (size === bounds.length) {
        const grown = new Uint8Array(bounds.length * 2);
        grown.set(bounds);
        bounds = grown;
      }
      entries.push(e);
      bounds[size++] = bound;
      count[bound]! += 1;
    }
    // highest bound first, in place (a counting sort; the order within a bound does not matter)
    if (size - start > 1) {
      const found = entries.slice(start, size);
      const keys = bounds.slice(start, size);
      for (let b = hi, at = start; b >= lo; b--) {
        const n = count[b]!;
        count[b] = at;
        at += n;
      }
      for (let i = 0; i < found.length; i++) {
        const at = count[keys[i]!]!++;
        entries[at] = found[i]!;
        bounds[at] = keys[i]!;
      }
    }
    if (size > start) perTxn.push({ t, start, end: size, next: start });
  }
  return { entries, bounds, perTxn };
}

/**
 * A whole run in memory: scores every transaction against its candidates (as the database gives
 * them: same account, right direction, within the date window), drops pairs below the review
 * threshold, and assigns one-to-one (see `assignOneToOne`).
 *
 * The result is exactly that of scoring every pair and sorting them all, but most pairs are never
 * scored: totals are taken level by level, from 100 down to the review threshold, and at each
 * level only the pairs whose upper bound (see `upperBoundTotal`) reaches it are scored, for
 * transactions and entries not taken yet. A pair scored at level L has a total of at most L, so
 * when level L is assigned every pair of total L is known; within a level the order is
 * `compareForAssignment`'s, as in the full sort. A transaction matched at 95 never has its
 * hundreds of other candidates scored: with 10,000 bank transactions against a year of a busy
 * account, that is the difference between scoring millions of pairs and a few hundred thousand.
 *
 * Candidates are gathered in two bands of upper bound: first those that could be auto-accepted,
 * for every transaction; then, once those levels are assigned, the rest, for the transactions
 * still unmatched (most are matched by then). So the pairs held at once are a fraction of all the
 * pairs in the date windows.
 */
export function matchTransactions(
  txns: readonly PreparedTxn[],
  candidatesFor: (txn: PreparedTxn) => Iterable<PreparedEntry>,
  options: { readonly digits: number; readonly thresholds?: Thresholds },
): MatchResult {
  const thresholds = validateThresholds(options.thresholds ?? DEFAULT_THRESHOLDS);
  const review = thresholds.review;
  const high = Math.max(review, thresholds.autoAccept);
  const bands = high > review ? [[high, 100] as const, [review, high - 1] as const] : [[review, 100] as const];
  const usedEntries = new Set<string>();
  const usedTxnIds = new Set<string>();
  const levels: ScoredPair[][] = Array.from({ length: 101 }, () => []);
  const matches: ScoredPair[] = [];
  // description scores of one transaction by the entry memo's prepared text (shared between equal memos)
  const descriptionScores = new Map<PreparedTxn, Map<PreparedDescription, number>>();
  for (const [lo, hi] of bands) {
    const band = collectBand(
      txns.filter((t) => !usedTxnIds.has(t.txn.id)),
      candidatesFor,
      options.digits,
      lo,
      hi,
    );
    for (let level = hi; level >= lo; level--) {
      for (const c of band.perTxn) {
        if (usedTxnIds.has(c.t.txn.id)) continue;
        while (c.next < c.end && band.bounds[c.next]! >= level) {
          const e = band.entries[c.next++]!;
          if (usedEntries.has(e.entry.id)) continue;
          let scores = descriptionScores.get(c.t);
          if (!scores) descriptionScores.set(c.t, (scores = new Map()));
          let description = scores.get(e.memo);
          if (description === undefined) scores.set(e.memo, (description = scoreDescriptionPrepared(c.t.description, e.memo)));
          const pair = scorePrepared(c.t, e, options.digits, thresholds, description);
          // the bound is never below the score; were it, the pair would be skipped silently
          if (pair.total > level) throw new Error(`reconciliation bound ${band.bounds[c.next - 1]} is below the score ${pair.total}`);
          if (pair.status !== 'unmatched') levels[pair.total]!.push(pair);
        }
      }
      const ranked = levels[level]!.sort(compareForAssignment);
      levels[level] = [];
      for (const p of ranked) {
        if (usedTxnIds.has(p.txnId) || usedEntries.has(p.entryId)) continue;
        usedTxnIds.add(p.txnId);
        usedEntries.add(p.entryId);
        matches.push(p);
      }
      for (const c of band.perTxn) if (usedTxnIds.has(c.t.txn.id)) descriptionScores.delete(c.t);
    }
  }
  return { matches, unmatchedTxnIds: txns.filter((t) => !usedTxnIds.has(t.txn.id)).map((t) => t.txn.id) };
}
