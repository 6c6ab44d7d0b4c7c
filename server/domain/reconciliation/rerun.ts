import type { MatchStatus } from './types.ts';

/** A bank transaction of a run, with the match it is pending review in, if any. */
export interface RunTxn {
  readonly id: string;
  readonly pendingMatch: { readonly id: string; readonly entryId: string; readonly version: number } | undefined;
}

/** A pair the run's matching assigned. */
export interface AssignedPair {
  readonly txnId: string;
  readonly entryId: string;
  readonly status: MatchStatus;
}

export interface RerunPlan<P extends AssignedPair> {
  /** the pairs to record as new matches, each with its new id, in the transactions' order */
  readonly inserts: { readonly id: string; readonly pair: P }[];
  /** pending matches that lose their transaction or their entry to a new match, and that match's id */
  readonly superseded: { readonly id: string; readonly version: number; readonly by: string }[];
  readonly summary: { total: number; autoAccepted: number; pendingReview: number; unmatched: number };
}

/**
 * What a run changes, given the scope's transactions and the pairs its matching assigned: a pair
 * that a transaction is already pending review with stays as it is; any other pair becomes a new
 * match; a pending match whose transaction or entry a new match takes is superseded by it. A
 * pending match nothing takes stays pending and counts as such in the summary.
 */
export function planRerun<P extends AssignedPair>(
  txns: readonly RunTxn[],
  pairs: readonly P[],
  newId: () => string,
): RerunPlan<P> {
  const byTxn = new Map(pairs.map((p) => [p.txnId, p]));
  const newMatchOfTxn = new Map<string, string>();
  const newMatchOfEntry = new Map<string, string>();
  const inserts: { id: string; pair: P }[] = [];
  for (const t of txns) {
    const pair = byTxn.get(t.id);
    if (!pair || pair.status === 'unmatched' || t.pendingMatch?.entryId === pair.entryId) continue;
    const id = newId();
    newMatchOfTxn.set(t.id, id);
    newMatchOfEntry.set(pair.entryId, id);
    inserts.push({ id, pair });
  }
  const superseded: { id: string; version: number; by: string }[] = [];
  let pendingKept = 0;
  for (const t of txns) {
    const old = t.pendingMatch;
    if (!old) continue;
    const by = newMatchOfTxn.get(t.id) ?? newMatchOfEntry.get(old.entryId);
    if (by) superseded.push({ id: old.id, version: old.version, by });
    else pendingKept += 1;
  }
  const autoAccepted = inserts.filter((m) => m.pair.status === 'auto_accepted').length;
  const pendingReview = inserts.length - autoAccepted + pendingKept;
  return {
    inserts,
    superseded,
    summary: {
      total: txns.length,
      autoAccepted,
      pendingReview,
      unmatched: txns.length - autoAccepted - pendingReview,
    },
  };
}
