import { answer, api, type Answer, type Body, type Page, type Schemas } from './client.ts';

export type MatchDto = Schemas['ReconciliationMatch'];
export type UnmatchedItemDto = Answer<'/api/reconciliation/unmatched', 'get'>['items'][number];
/** How one bank line is booked: to an account (with its amount in that account's currency) or split. */
export type BookingChoice = Body<'/api/reconciliation/unmatched/{id}/create-entry', 'post'>;
export type RunResult = Answer<'/api/reconciliation/run', 'post'>;
export type ReconciliationStats = Answer<'/api/reconciliation/stats', 'get'>;
export type AcceptResult = Answer<'/api/reconciliation/matches/{id}/accept', 'post'>;
export type RejectResult = Answer<'/api/reconciliation/matches/{id}/reject', 'post'>;
export type BatchAcceptResult = Answer<'/api/reconciliation/batch-accept', 'post'>;
export type CreateEntryResult = Answer<'/api/reconciliation/unmatched/{id}/create-entry', 'post'>;
export type CreateEntriesResult = Answer<'/api/reconciliation/unmatched/create-entries', 'post'>;
export type TransferResult = Answer<'/api/reconciliation/transfers', 'post'>;
export type ReconcileStatus = Schemas['ReconcileStatus'];
export type Reconciliation = Schemas['Reconciliation'];
export type UnreconciledLine = Answer<'/api/accounts/{id}/unreconciled-lines', 'get'>['items'][number];
/** The entry that closes a first reconciliation's difference: `amount` signed as the account's balance. */
export type DifferenceEntry = Body<'/api/accounts/{id}/opening-balance', 'post'>;

export function runReconciliation(scope: Body<'/api/reconciliation/run', 'post'>): Promise<RunResult> {
  return answer(api.POST('/api/reconciliation/run', { body: scope }));
}

export function pendingMatches(page: number, perPage = 20, minScore?: number): Promise<Page<MatchDto>> {
  return answer(
    api.GET('/api/reconciliation/pending', {
      params: { query: { page, per_page: perPage, min_score: minScore } },
    }),
  );
}

export function acceptMatch(id: string, version: number): Promise<AcceptResult> {
  return answer(api.POST('/api/reconciliation/matches/{id}/accept', { params: { path: { id } }, body: { version } }));
}

export function rejectMatch(id: string, version: number, reason: string): Promise<RejectResult> {
  return answer(
    api.POST('/api/reconciliation/matches/{id}/reject', {
      params: { path: { id } },
      body: reason.trim() ? { version, reason: reason.trim() } : { version },
    }),
  );
}

export function batchAccept(minScore: number): Promise<BatchAcceptResult> {
  return answer(api.POST('/api/reconciliation/batch-accept', { body: { min_score: minScore } }));
}

export function reconciliationStats(): Promise<ReconciliationStats> {
  return answer(api.GET('/api/reconciliation/stats'));
}

export function unmatchedItems(
  page: number,
  perPage = 20,
  filter: { accountId?: string | undefined; statementId?: string | undefined } = {},
): Promise<Page<UnmatchedItemDto>> {
  return answer(
    api.GET('/api/reconciliation/unmatched', {
      params: {
        query: { page, per_page: perPage, account_id: filter.accountId, statement_id: filter.statementId },
      },
    }),
  );
}

/** Books one bank line: to an account (with its amount in that account's currency) or split across several. */
export function createEntryForBankTransaction(
  bankTransactionId: string,
  booking: BookingChoice,
): Promise<CreateEntryResult> {
  return answer(
    api.POST('/api/reconciliation/unmatched/{id}/create-entry', {
      params: { path: { id: bankTransactionId } },
      body: booking,
    }),
  );
}

/** Books many bank lines at once: these, or every line of a statement that a rule matches. */
export function createEntries(
  booking: Body<'/api/reconciliation/unmatched/create-entries', 'post'>,
): Promise<CreateEntriesResult> {
  return answer(api.POST('/api/reconciliation/unmatched/create-entries', { body: booking }));
}

/** Books two bank lines as one transfer between the user's accounts: the money out, then the money in. */
export function bookTransfer(fromTransactionId: string, toTransactionId: string): Promise<TransferResult> {
  return answer(
    api.POST('/api/reconciliation/transfers', {
      body: { from_transaction_id: fromTransactionId, to_transaction_id: toTransactionId },
    }),
  );
}

/** Matches of one status, highest score first (automatic ones by default). */
export function listMatches(
  page: number,
  perPage = 20,
  status: MatchDto['status'] = 'auto_accepted',
): Promise<Page<MatchDto>> {
  return answer(api.GET('/api/reconciliation/matches', { params: { query: { status, page, per_page: perPage } } }));
}

export function reconcileStatusOf(
  accountId: string,
  statementDate: string,
  statementBalance: string,
): Promise<ReconcileStatus> {
  return answer(
    api.GET('/api/accounts/{id}/reconcile', {
      params: {
        path: { id: accountId },
        query: { statement_date: statementDate, statement_balance: statementBalance },
      },
    }),
  );
}

export function reconcileAccount(
  accountId: string,
  statementDate: string,
  statementBalance: string,
): Promise<Reconciliation> {
  return answer(
    api.POST('/api/accounts/{id}/reconcile', {
      params: { path: { id: accountId } },
      body: { statement_date: statementDate, statement_balance: statementBalance },
    }),
  );
}

export async function setLinesCleared(accountId: string, lineIds: string[], cleared: boolean): Promise<void> {
  await api.POST('/api/accounts/{id}/cleared', {
    params: { path: { id: accountId } },
    body: { line_ids: lineIds, cleared },
  });
}

export function unreconciledLines(
  accountId: string,
  statementDate: string,
  page: number,
  perPage = 50,
): Promise<Page<UnreconciledLine>> {
  return answer(
    api.GET('/api/accounts/{id}/unreconciled-lines', {
      params: { path: { id: accountId }, query: { statement_date: statementDate, page, per_page: perPage } },
    }),
  );
}

export function reconciliations(accountId: string, page = 1, perPage = 5): Promise<Page<Reconciliation>> {
  return answer(
    api.GET('/api/accounts/{id}/reconciliations', {
      params: { path: { id: accountId }, query: { page, per_page: perPage } },
    }),
  );
}

export function setOpeningBalance(accountId: string, body: DifferenceEntry): Promise<Schemas['JournalEntry']> {
  return answer(api.POST('/api/accounts/{id}/opening-balance', { params: { path: { id: accountId } }, body }));
}

export function bookReconcileAdjustment(accountId: string, body: DifferenceEntry): Promise<Schemas['JournalEntry']> {
  return answer(api.POST('/api/accounts/{id}/reconcile-adjustment', { params: { path: { id: accountId } }, body }));
}
