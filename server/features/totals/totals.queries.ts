/**
 * What other features read of the maintained totals, each in the caller's transaction: sums over a
 * range or per period, balances as of a day, and the invariant's two sides (the totals as kept and
 * as recounted from the lines) for the checks that compare them.
 */
export {
  accountTotalsAsOf,
  maintainedTotals,
  recomputeFromLines,
  sumEachPeriod,
  sumRange,
} from './totals.repository.ts';
