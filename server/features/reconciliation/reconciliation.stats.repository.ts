import type { LedgerDb } from '../../db/stores.ts';
import { isReconciled, LIVE_MATCH_STATUSES } from '../../domain/reconciliation/index.ts';
import { scoped, type Scope } from './reconciliation.run.repository.ts';

/** The counts behind the reconciliation statistics. */

export interface StatusCounts {
  accountId: string;
  accountName: string;
  total: number;
  matched: number;
  pending: number;
  scores: number[];
}

/** Per statement account: its bank transactions in scope and the status and score of their live matches. */
export function statusCounts(db: LedgerDb, scope: Scope): StatusCounts[] {
  const rows = db.all(
    scoped(
      db.qb
        .selectFrom('bank_transactions as t')
        .innerJoin('accounts as a', 'a.id', 't.account_id')
        .leftJoin('reconciliation_matches as m', (j) =>
          j.onRef('m.bank_transaction_id', '=', 't.id').on('m.status', 'in', [...LIVE_MATCH_STATUSES]),
        )
        .select(['t.account_id', 'a.name', 'm.status', 'm.score']),
      scope,
    ),
  );
  const byAccount = new Map<string, StatusCounts>();
  for (const r of rows) {
    const c = byAccount.get(r.account_id) ?? {
      accountId: r.account_id,
      accountName: r.name,
      total: 0,
      matched: 0,
      pending: 0,
      scores: [],
    };
    c.total += 1;
    if (isReconciled(r.status)) c.matched += 1;
    if (r.status === 'pending_review') c.pending += 1;
    if (r.score !== null) c.scores.push(Number(r.score));
    byAccount.set(r.account_id, c);
  }
  return [...byAccount.values()].sort((a, b) => a.accountName.localeCompare(b.accountName));
}
