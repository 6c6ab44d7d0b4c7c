import type { z } from 'zod';
import type { JournalEntryDto } from '../../../server/contract/journal.ts';
import type {
  MatchDto,
  UnmatchedItemDto,
  acceptResult,
  batchAcceptResult,
  rejectResult,
  runResult,
  stats,
} from '../../../server/contract/reconciliation.ts';
import { json, type Page } from './http.ts';

export type { MatchDto, UnmatchedItemDto };
export type RunResult = z.infer<typeof runResult>;
export type ReconciliationStats = z.infer<typeof stats>;
export type AcceptResult = z.infer<typeof acceptResult>;
export type RejectResult = z.infer<typeof rejectResult>;
export type BatchAcceptResult = z.infer<typeof batchAcceptResult>;

export function runReconciliation(scope: { statement_id: string } | { account_id: string }): Promise<RunResult> {
  return json('POST', '/api/reconciliation/run', { json: scope });
}

export function pendingMatches(page: number, perPage = 20, minScore?: number): Promise<Page<MatchDto>> {
  return json('GET', '/api/reconciliation/pending', { query: { page, per_page: perPage, min_score: minScore } });
}

export function acceptMatch(id: string, version: number): Promise<AcceptResult> {
  return json('POST', `/api/reconciliation/matches/${encodeURIComponent(id)}/accept`, { json: { version } });
}

export function rejectMatch(id: string, version: number, reason: string): Promise<RejectResult> {
  return json('POST', `/api/reconciliation/matches/${encodeURIComponent(id)}/reject`, {
    json: reason.trim() ? { version, reason: reason.trim() } : { version },
  });
}

export function batchAccept(minScore: number): Promise<BatchAcceptResult> {
  return json('POST', '/api/reconciliation/batch-accept', { json: { min_score: minScore } });
}

export function reconciliationStats(): Promise<ReconciliationStats> {
  return json('GET', '/api/reconciliation/stats');
}

export function unmatchedItems(page: number, perPage = 20): Promise<Page<UnmatchedItemDto>> {
  return json('GET', '/api/reconciliation/unmatched', { query: { page, per_page: perPage } });
}

export function createEntryForBankTransaction(
  bankTransactionId: string,
  accountId: string,
  memo: string,
): Promise<{ entry: JournalEntryDto; match: MatchDto }> {
  return json('POST', `/api/reconciliation/unmatched/${encodeURIComponent(bankTransactionId)}/create-entry`, {
    json: memo.trim() ? { account_id: accountId, memo: memo.trim() } : { account_id: accountId },
  });
}
