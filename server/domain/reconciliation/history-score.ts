/**
 * The history score of a match: how surely the payee model says the bank line goes to one of the
 * entry's counter accounts, from evidence the model prepares once per bank line.
 */

/** What the history score needs about one bank description, computed once per transaction. */
export interface HistoryEvidence {
  /** Accounts an earlier booking with the very same payee key went to. */
  readonly exactAccounts: ReadonlySet<string>;
  /** Calibrated confidence per account that has evidence (the payee's key, or a word in common). */
  readonly confidence: ReadonlyMap<string, number>;
}

export const EMPTY_HISTORY_EVIDENCE: HistoryEvidence = Object.freeze({
  exactAccounts: new Set<string>(),
  confidence: new Map<string, number>(),
});

/**
 * History score from prepared evidence and the entry's counter accounts:
 * - 100 when an earlier booking with the same payee key went to one of the counter accounts;
 * - otherwise round(100·c), clamped to 1..99, where c is the highest calibrated confidence the
 *   model gives any of the counter accounts that the line has evidence for;
 * - 0 when c is 0: a new payee sharing no word with any booking, or no counter account with evidence.
 */
export function scoreHistoryPrepared(evidence: HistoryEvidence, counterAccountIds: readonly string[]): number {
  let best = 0;
  for (const id of counterAccountIds) {
    if (evidence.exactAccounts.has(id)) return 100;
    best = Math.max(best, evidence.confidence.get(id) ?? 0);
  }
  return confidenceScore(best);
}

/** The highest history score the evidence gives any counter accounts: a bound on `scoreHistoryPrepared`. */
export function bestHistoryScore(evidence: HistoryEvidence): number {
  if (evidence.exactAccounts.size > 0) return 100;
  return confidenceScore(Math.max(0, ...evidence.confidence.values()));
}

function confidenceScore(confidence: number): number {
  if (confidence <= 0) return 0;
  return Math.min(99, Math.max(1, Math.floor(confidence * 100 + 0.5)));
}
