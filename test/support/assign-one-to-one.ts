import { compareForAssignment, type Assignable } from '../../server/domain/reconciliation/assignment.ts';

/**
 * Greedy one-to-one assignment over a whole list of scored pairs, in `compareForAssignment`'s
 * order: the sweep's rule written the plain way, as the oracle its streaming walk is checked against.
 */

export interface AssignOptions {
  /** Pairs with a total below this are dropped before assigning (e.g. the review threshold). */
  readonly minTotal?: number;
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
