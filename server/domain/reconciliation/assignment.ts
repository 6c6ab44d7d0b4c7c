/**
 * The order of one-to-one assignment of scored (bank transaction, entry) pairs.
 *
 * Greedy, highest total first: the spec says "highest scores are assigned first", and greedy is
 * that rule exactly. It is also easy to explain to a reviewer (a pair is taken unless a better or
 * equal pair, ranked earlier, already took its transaction or its entry), deterministic, and
 * O(n log n). An optimal assignment (Hungarian) maximises the sum instead and may give away a 95
 * pair to make two 80s, which contradicts the rule and surprises users.
 *
 * Ties on the total are broken by: smaller date difference, then higher amount score, then
 * transaction id, then entry id (ids compared by UTF-16 code units, not locale).
 */

export interface Assignable {
  readonly txnId: string;
  readonly entryId: string;
  readonly total: number;
  /** Absolute difference in days between the bank date and the entry date. */
  readonly dateDiffDays: number;
  readonly breakdown: { readonly amount: number };
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The order in which pairs are assigned (negative: `a` is assigned before `b`). */
export function compareForAssignment(a: Assignable, b: Assignable): number {
  return (
    b.total - a.total ||
    a.dateDiffDays - b.dateDiffDays ||
    b.breakdown.amount - a.breakdown.amount ||
    compareIds(a.txnId, b.txnId) ||
    compareIds(a.entryId, b.entryId)
  );
}
