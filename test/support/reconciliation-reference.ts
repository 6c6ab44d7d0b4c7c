import type { LedgerDb } from '../../server/db/stores.ts';
import { addDays } from '../../server/domain/dates.ts';
import type { AccountType } from '../../server/domain/double-entry.ts';
import type { Minor } from '../../server/domain/money.ts';
import {
  compareForAssignment,
  DEFAULT_THRESHOLDS,
  expectedLineDirection,
  prepareEntry,
  prepareTxn,
  scoreDays,
  scoreDescriptionPrepared,
  scoreHistoryPrepared,
  scorePrepared,
  sharedPreparation,
  validateThresholds,
  type CandidateEntry,
  type PreparedDescription,
  type PreparedEntry,
  type PreparedTxn,
  type ScoredPair,
  type Thresholds,
} from '../../server/domain/reconciliation/index.ts';
import { counterAccounts } from '../../server/features/reconciliation/reconciliation.payees.repository.ts';
import { payeeModel } from '../../server/features/reconciliation/reconciliation.payees.service.ts';
import {
  runWithMatching,
  type RunInput,
  type RunMatches,
  type RunMatching,
} from '../../server/features/reconciliation/reconciliation.run.service.ts';

/**
 * The reconciliation run as it was before the date sweep (commit 933921c): every candidate entry
 * of the statement's span read at once, pairs scored level by level and assigned greedily. The
 * matching and its candidate query are kept verbatim, only renamed; the steps around them (scope,
 * storing, superseding, learning) are today's (`runWithMatching`). It is the reference the sweep
 * (`matchInDateOrder`) and the run built on it are tested against: same matches, scores, statuses
 * and explanations for every input.
 */

const WINDOW_DAYS = 30;

// --- the old matching (server/domain/reconciliation/pair.ts) ---

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
  const amount =
    diff === 0 ? 100 : diff >= limit ? 0 : Math.min(99, Math.floor((100 * (limit - diff) + limit - 1) / limit));
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
function collectBand(
  txns: readonly PreparedTxn[],
  candidatesFor: (txn: PreparedTxn) => Iterable<PreparedEntry>,
  digits: number,
  lo: number,
  hi: number,
): Band {
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
export function levelByLevel(
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
          if (description === undefined)
            scores.set(e.memo, (description = scoreDescriptionPrepared(c.t.description, e.memo)));
          const pair = scorePrepared(c.t, e, options.digits, thresholds, description);
          // the bound is never below the score; were it, the pair would be skipped silently
          if (pair.total > level)
            throw new Error(`reconciliation bound ${band.bounds[c.next - 1]} is below the score ${pair.total}`);
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

// --- the old candidate queries (reconciliation.run.repository.ts) ---

interface CandidateRow {
  entryId: string;
  entryDate: string;
  memo: string | null;
  /** debits minus credits of the entry's lines on the account */
  netMinor: Minor;
  liveMatch: { id: string; status: string; bankTransactionId: string } | undefined;
}

/**
 * Posted entries with a line on the account dated within [from, to] (an index range on
 * journal_lines by account and date), with the live match each takes part in, if any.
 * Reversal entries (the system's voids) are never candidates.
 */
function candidateEntries(db: LedgerDb, accountId: string, from: string, to: string): CandidateRow[] {
  const rows = db.allSql<{
    entry_id: string;
    entry_date: string;
    memo: string | null;
    net: bigint;
    match_id: string | null;
    match_status: string | null;
    match_txn: string | null;
  }>(
    `SELECT e.id AS entry_id, e.entry_date, e.memo,
            SUM(CASE l.direction WHEN 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) AS net,
            m.id AS match_id, m.status AS match_status, m.bank_transaction_id AS match_txn
       FROM journal_lines l
       JOIN journal_entries e ON e.id = l.entry_id
       LEFT JOIN reconciliation_matches m ON m.entry_id = e.id AND m.status IN ('auto_accepted', 'accepted', 'pending_review')
      WHERE l.account_id = ? AND l.entry_date >= ? AND l.entry_date <= ?
        AND e.status = 'posted' AND e.reverses_entry_id IS NULL
      GROUP BY e.id
      ORDER BY e.entry_date, e.seq`,
    accountId,
    from,
    to,
  );
  return rows.map((r) => ({
    entryId: r.entry_id,
    entryDate: r.entry_date,
    memo: r.memo,
    netMinor: r.net,
    liveMatch: r.match_id ? { id: r.match_id, status: r.match_status!, bankTransactionId: r.match_txn! } : undefined,
  }));
}

// --- the old run (reconciliation.run.service.ts) ---

/** The run as it was: the same steps as today's (`runWithMatching`), with the old matching. */
export function referenceRunReconciliation(db: LedgerDb, input: RunInput, thresholds: Thresholds) {
  return runWithMatching(db, input, thresholds, oldMatching);
}

function oldMatching(db: LedgerDb, { account, txns, inScope, rejected, digits, thresholds }: RunMatching): RunMatches {
  // candidates by the direction of their line on the account, each sorted by date
  const byDirection: Record<'DEBIT' | 'CREDIT', PreparedEntry[]> = { DEBIT: [], CREDIT: [] };
  let counters = new Map<string, { id: string; type: AccountType }[]>();
  if (txns.length > 0) {
    const rows = candidateEntries(
      db,
      account.id,
      addDays(txns[0]!.date, -WINDOW_DAYS),
      addDays(txns.at(-1)!.date, WINDOW_DAYS),
    )
      // an entry already reconciled, or pending with a transaction outside this run, is taken
      .filter(
        (r) => !r.liveMatch || (r.liveMatch.status === 'pending_review' && inScope.has(r.liveMatch.bankTransactionId)),
      );
    counters = counterAccounts(
      db,
      rows.map((r) => r.entryId),
      account.id,
    );
    const shared = sharedPreparation();
    for (const r of rows) {
      const candidate: CandidateEntry = {
        id: r.entryId,
        entryDate: r.entryDate,
        memo: r.memo,
        accountLine: {
          direction: r.netMinor >= 0n ? 'DEBIT' : 'CREDIT',
          amountMinor: r.netMinor < 0n ? -r.netMinor : r.netMinor,
        },
        counterAccounts: counters.get(r.entryId) ?? [],
      };
      byDirection[candidate.accountLine.direction].push(prepareEntry(candidate, shared));
    }
  }
  const model = payeeModel(db);
  const prepared = txns.map((t) =>
    prepareTxn({ id: t.id, date: t.date, description: t.description, amountMinor: t.amountMinor, type: t.type }, model),
  );
  const amountLimit = 50n * 10n ** BigInt(digits);
  // The amounts as plain numbers when they all fit exactly (they nearly always do): this test
  // runs for every pair in the windows, millions of them in a large run.
  const safe = (x: bigint) => x < BigInt(Number.MAX_SAFE_INTEGER);
  const inNumbers =
    safe(amountLimit) &&
    prepared.every((t) => safe(t.amountMinor)) &&
    [...byDirection.DEBIT, ...byDirection.CREDIT].every((e) => safe(e.amountMinor));
  const amounts = {
    DEBIT: Float64Array.from(byDirection.DEBIT, (e) => Number(e.amountMinor)),
    CREDIT: Float64Array.from(byDirection.CREDIT, (e) => Number(e.amountMinor)),
  };
  const limit = Number(amountLimit);
  const result = levelByLevel(
    prepared,
    function* candidatesFor(t) {
      const direction = expectedLineDirection(t.txn.type);
      const entries = byDirection[direction];
      const entryAmounts = amounts[direction];
      const amount = Number(t.amountMinor);
      const refused = rejected.get(t.txn.id);
      for (let i = firstInWindow(entries, t.day); i < entries.length && entries[i]!.day <= t.day + WINDOW_DAYS; i++) {
        const e = entries[i]!;
        if (refused?.has(e.entry.id)) continue;
        const far = inNumbers
          ? Math.abs(entryAmounts[i]! - amount) >= limit
          : (e.amountMinor > t.amountMinor ? e.amountMinor - t.amountMinor : t.amountMinor - e.amountMinor) >=
            amountLimit;
        // Past 50 units the amount scores 0 and the total can reach the review band only with
        // everything else perfect: the same day and the same description.
        if (far && !(e.day === t.day && e.memo.normalised === t.description.normalised)) continue;
        yield e;
      }
    },
    { digits, thresholds },
  );

  return {
    matches: result.matches,
    counterAccountsOf: new Map(
      [...counters].map(([entryId, accounts]) => [entryId, [...new Set(accounts.map((a) => a.id))]]),
    ),
  };
}

/** The first of the entries (sorted by date) dated at most 30 days before a day (binary search). */
function firstInWindow(entries: readonly PreparedEntry[], day: number): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid]!.day < day - WINDOW_DAYS) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
