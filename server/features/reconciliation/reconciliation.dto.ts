import type { MatchDto } from '../../contract/reconciliation.ts';
import { formatMinor } from '../../domain/money.ts';
import type { MatchView } from './reconciliation.matches.repository.ts';

/** A match as the API shows it, with its bank transaction and its entry. */
export function toMatchDto(m: MatchView): MatchDto {
  const net = m.entry.netMinor < 0n ? -m.entry.netMinor : m.entry.netMinor;
  return {
    id: m.id,
    status: m.status as MatchDto['status'],
    score: m.score,
    score_breakdown: m.breakdown,
    bank_transaction: {
      id: m.txn.id,
      account_id: m.txn.accountId,
      date: m.txn.date,
      description: m.txn.description,
      amount: formatMinor(m.txn.amountMinor, m.currency),
      currency: m.currency,
      type: m.txn.type,
    },
    journal_entries: [
      { id: m.entry.id, entry_date: m.entry.entryDate, memo: m.entry.memo, total_amount: formatMinor(net, m.currency) },
    ],
    version: m.version,
    superseded_by_id: m.supersededById,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    accepted_at: m.acceptedAt,
    rejected_at: m.rejectedAt,
    reject_reason: m.rejectReason,
  };
}
