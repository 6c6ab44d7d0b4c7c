import type { LedgerDb } from '../../db/stores.ts';
import { lastReconciledDate } from './reconciliation.cleared.repository.ts';
import { statusCounts } from './reconciliation.stats.repository.ts';

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/**
 * How much of the bank transactions in scope is matched to entries, pending review or unmatched, in
 * all and per account, and how far each account is reconciled to the bank's balance. `reconciled`
 * and `reconciliation_rate` repeat `matched` and `match_rate` for scripts written before them.
 */
export function reconciliationStats(
  db: LedgerDb,
  query: { account_id?: string | undefined; start_date?: string | undefined; end_date?: string | undefined },
) {
  const counts = statusCounts(db, {
    accountId: query.account_id,
    startDate: query.start_date,
    endDate: query.end_date,
  });
  const total = counts.reduce((s, c) => s + c.total, 0);
  const matched = counts.reduce((s, c) => s + c.matched, 0);
  const matchRate = total === 0 ? 0 : round2((matched / total) * 100);
  const pending = counts.reduce((s, c) => s + c.pending, 0);
  const scores = counts.flatMap((c) => c.scores);
  return {
    total_transactions: total,
    matched,
    reconciled: matched,
    pending_review: pending,
    unmatched: total - matched - pending,
    match_rate: matchRate,
    reconciliation_rate: matchRate,
    average_score: scores.length === 0 ? 0 : round2(scores.reduce((s, x) => s + x, 0) / scores.length),
    score_distribution: {
      '85_100': scores.filter((s) => s >= 85).length,
      '60_84': scores.filter((s) => s >= 60 && s < 85).length,
      '0_59': scores.filter((s) => s < 60).length,
    },
    by_account: counts.map((c) => ({
      account_id: c.accountId,
      account_name: c.accountName,
      matched: c.matched,
      reconciled: c.matched,
      pending: c.pending,
      unmatched: c.total - c.matched - c.pending,
      reconciled_through: lastReconciledDate(db, c.accountId),
    })),
  };
}
