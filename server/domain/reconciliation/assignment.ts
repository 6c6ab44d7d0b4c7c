/**
 * One-to-one assignment of scored (bank transaction, entry) pairs.
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

export interface AssignOptions {
  /** Pairs with a total below this are dropped before assigning (e.g. the review threshold). */
  readonly minTotal?: number;
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The ranking order used by `assignOneToOne` (negative: `a` is assigned before `b`). */
export function compareForAssignment(a: Assignable, b: Assignable): number {
  return (
    b.total - a.total ||
    a.dateDiffDays - b.dateDiffDays ||
    b.breakdown.amount - a.breakdown.amount ||
    compareIds(a.txnId, b.txnId) ||
    compareIds(a.entryId, b.entryId)
  );
}

/**
 * Picks pairs so that each transaction and each entry is used at most once, best-ranked first.
 * Returns the chosen pairs (the same objects) in ranking order. The input is not modified.
 */
export function assignOneToOne<T extends Assignable>(scored: readonly T[], options: AssignOptions = {}): T[] {
  const minTotal = options.minTotal ?? -Infinity;
  for (const p of scored) {
    if (!Number.isFinite(p.total) || !Number.isFinite(p.dateDiffDays) || !Number.isFinite(p.breakdown.amount)) {
      throw new RangeError(`pair ${p.txnId}/${p.entryId} has a non-finite score or date difference`);
    }
  }
  const ranked = scored.filter((p) => p.total >= minTotal).sort(compareForAssignment);
  const usedTxns = new Set<string>();
  const usedEntries = new Set<string>();
  const chosen: T[] = [];
  for (const p of ranked) {
    if (usedTxns.has(p.txnId) || usedEntries.has(p.entryId)) continue;
    usedTxns.add(p.txnId);
    usedEntries.add(p.entryId);
    chosen.push(p);
  }
  return chosen;
}
