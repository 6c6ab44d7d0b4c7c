import type { z } from 'zod';
import type { JournalEntryDto } from '../../../server/contract/journal.ts';
import type {
  BookingChoice,
  MatchDto,
  UnmatchedItemDto,
  acceptResult,
  batchAcceptResult,
  createEntriesResult,
  reconcileStatus,
  reconciliation,
  rejectResult,
  runResult,
  stats,
  unreconciledLine,
} from '../../../server/contract/reconciliation.ts';
import { json, type Page } from './http.ts';

export type { BookingChoice, MatchDto, UnmatchedItemDto };
export type RunResult = z.infer<typeof runResult>;
export type ReconciliationStats = z.infer<typeof stats>;
export type AcceptResult = z.infer<typeof acceptResult>;
export type RejectResult = z.infer<typeof rejectResult>;
export type BatchAcceptResult = z.infer<typeof batchAcceptResult>;
export type CreateEntriesResult = z.infer<typeof createEntriesResult>;
export type ReconcileStatus = z.infer<typeof reconcileStatus>;
export type Reconciliation = z.infer<typeof reconciliation>;
export type UnreconciledLine = z.infer<typeof unreconciledLine>;

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

export function unmatchedItems(
  page: number,
  perPage = 20,
  filter: { accountId?: string | undefined; statementId?: string | undefined } = {},
): Promise<Page<UnmatchedItemDto>> {
  return json('GET', '/api/reconciliation/unmatched', {
    query: { page, per_page: perPage, account_id: filter.accountId, statement_id: filter.statementId },
  });
}

/** Books one bank line: to an account (with its amount in that account's currency) or split across several. */
export function createEntryForBankTransaction(
  bankTransactionId: string,
  booking: BookingChoice,
): Promise<{ entry: JournalEntryDto; match: MatchDto }> {
  return json('POST', `/api/reconciliation/unmatched/${encodeURIComponent(bankTransactionId)}/create-entry`, {
    json: booking,
  });
}

/** Books many bank lines at once: these, or every line of a statement that a rule matches. */
export function createEntries(
  booking: { items: (BookingChoice & { bank_transaction_id: string })[] } | { statement_id: string },
): Promise<CreateEntriesResult> {
  return json('POST', '/api/reconciliation/unmatched/create-entries', { json: booking });
}

/** Books two bank lines as one transfer between the user's accounts: the money out, then the money in. */
export function bookTransfer(
  fromTransactionId: string,
  toTransactionId: string,
): Promise<{ entry: JournalEntryDto; matches: MatchDto[] }> {
  return json('POST', '/api/reconciliation/transfers', {
    json: { from_transaction_id: fromTransactionId, to_transaction_id: toTransactionId },
  });
}

/** Matches of one status, highest score first (automatic ones by default). */
export function listMatches(
  page: number,
  perPage = 20,
  status: MatchDto['status'] = 'auto_accepted',
): Promise<Page<MatchDto>> {
  return json('GET', '/api/reconciliation/matches', { query: { status, page, per_page: perPage } });
}

export function reconcileStatusOf(
  accountId: string,
  statementDate: string,
  statementBalance: string,
): Promise<ReconcileStatus> {
  return json('GET', `/api/accounts/${encodeURIComponent(accountId)}/reconcile`, {
    query: { statement_date: statementDate, statement_balance: statementBalance },
  });
}

export function reconcileAccount(
  accountId: string,
  statementDate: string,
  statementBalance: string,
): Promise<Reconciliation> {
  return json('POST', `/api/accounts/${encodeURIComponent(accountId)}/reconcile`, {
    json: { statement_date: statementDate, statement_balance: statementBalance },
  });
}

export function setLinesCleared(accountId: string, lineIds: string[], cleared: boolean): Promise<unknown> {
  return json('POST', `/api/accounts/${encodeURIComponent(accountId)}/cleared`, {
    json: { line_ids: lineIds, cleared },
  });
}

export function unreconciledLines(
  accountId: string,
  statementDate: string,
  page: number,
  perPage = 50,
): Promise<Page<UnreconciledLine>> {
  return json('GET', `/api/accounts/${encodeURIComponent(accountId)}/unreconciled-lines`, {
    query: { statement_date: statementDate, page, per_page: perPage },
  });
}

export function reconciliations(accountId: string, page = 1, perPage = 5): Promise<Page<Reconciliation>> {
  return json('GET', `/api/accounts/${encodeURIComponent(accountId)}/reconciliations`, {
    query: { page, per_page: perPage },
  });
}

/** The entry that closes a first reconciliation's difference: `amount` signed as the account's balance. */
export interface DifferenceEntry {
  entry_date: string;
  amount: string;
  offset_account_id: string;
  memo: string;
}

export function setOpeningBalance(accountId: string, body: DifferenceEntry): Promise<JournalEntryDto> {
  return json('POST', `/api/accounts/${encodeURIComponent(accountId)}/opening-balance`, { json: body });
}

export function bookReconcileAdjustment(accountId: string, body: DifferenceEntry): Promise<JournalEntryDto> {
  return json('POST', `/api/accounts/${encodeURIComponent(accountId)}/reconcile-adjustment`, { json: body });
}
