import type { LedgerDb } from '../../db/stores.ts';
import type { MatchDto } from '../../contract/reconciliation.ts';
import { DomainError } from '../../domain/errors.ts';
import { isReconciled, type Thresholds } from '../../domain/reconciliation/index.ts';
import { findBankTransaction } from '../statements/statements.queries.ts';
import type { VoidGuard } from '../journal/journal.service.ts';
import { toMatchDto } from './reconciliation.dto.ts';
import {
  decide,
  findMatch,
  liveMatchesOfEntry,
  matchView,
  pendingMatches,
} from './reconciliation.matches.repository.ts';
import type { Match } from './reconciliation.model.ts';
import { forgetCounterAccounts, learnCounterAccounts } from './reconciliation.payees.service.ts';
import { entryHasReconciledLine, entryLineReconciledOn } from './reconciliation.cleared.repository.ts';

/**
 * The review of matches: the queue of those awaiting a decision, one match, and the decisions
 * (accept, reject, accept many; and the rejection that voiding an entry forces).
 */

export function getMatch(db: LedgerDb, id: string): MatchDto {
  const view = matchView(db, id);
  if (!view) throw new DomainError('NOT_FOUND', 'Match not found');
  return toMatchDto(view);
}

/** Matches of one status (auto_accepted by default: what runs decided alone), highest score first. */
export function listMatches(
  db: LedgerDb,
  query: {
    status: MatchDto['status'];
    account_id?: string | undefined;
    statement_id?: string | undefined;
    page: number;
    per_page: number;
  },
) {
  const { items, total } = pendingMatches(
    db,
    { status: query.status, accountId: query.account_id, statementId: query.statement_id, minScore: 0, maxScore: 100 },
    query.per_page,
    (query.page - 1) * query.per_page,
  );
  return { items: items.map(toMatchDto), total, page: query.page, per_page: query.per_page };
}

export function listPending(
  db: LedgerDb,
  query: {
    account_id?: string | undefined;
    min_score?: number | undefined;
    max_score?: number | undefined;
    page: number;
    per_page: number;
  },
  thresholds: Thresholds,
) {
  const { items, total } = pendingMatches(
    db,
    {
      accountId: query.account_id,
      minScore: query.min_score ?? thresholds.review,
      maxScore: query.max_score ?? Math.max(thresholds.review, thresholds.autoAccept - 1),
    },
    query.per_page,
    (query.page - 1) * query.per_page,
  );
  return { items: items.map(toMatchDto), total, page: query.page, per_page: query.per_page };
}

function requireMatch(db: LedgerDb, id: string): Match {
  const m = findMatch(db, id);
  if (!m) throw new DomainError('NOT_FOUND', 'Match not found');
  return m;
}

/**
 * Only a match under review can be decided (and an automatic one undone by rejecting it), and only
 * at the version the caller saw (when given).
 */
function assertDecidable(m: Match, version: number | undefined, undoAutomatic = false): void {
  if (m.status === 'superseded')
    throw new DomainError(
      'SUPERSEDED',
      'This match was replaced by a newer one' + (m.supersededById ? ` (${m.supersededById})` : ''),
    );
  if (m.status !== 'pending_review' && !(undoAutomatic && m.status === 'auto_accepted'))
    throw new DomainError('ALREADY_PROCESSED', `This match is already ${m.status.replace('_', '-')}`);
  if (version !== undefined && version !== m.version) {
    throw new DomainError(
      'VERSION_CONFLICT',
      `The match was changed meanwhile (version ${m.version}, not ${version}); reload it`,
    );
  }
}

function accept(db: LedgerDb, m: Match, at: string): void {
  if (!decide(db, m.id, m.version, { status: 'accepted', at, acceptedAt: at })) {
    throw new DomainError('VERSION_CONFLICT', 'The match was changed meanwhile; reload it');
  }
  const txn = findBankTransaction(db, m.bankTransactionId)!;
  learnCounterAccounts(db, txn, m.entryId, 'accepted_match', at);
}

export function acceptMatch(db: LedgerDb, id: string, version?: number) {
  return db.transaction(() => {
    const m = requireMatch(db, id);
    assertDecidable(m, version);
    const at = new Date().toISOString();
    accept(db, m, at);
    return { id, status: 'accepted' as const, accepted_at: at, version: m.version + 1 };
  });
}

/**
 * Rejects a match under review, or undoes one a run accepted alone (auto_accepted): its bank
 * transaction is unmatched again, its entry's line uncleared, the payee model forgets it, and the
 * pair is never proposed again. A match whose line is reconciled stays.
 */
export function rejectMatch(db: LedgerDb, id: string, reason: string | null, version?: number) {
  return db.transaction(() => {
    const m = requireMatch(db, id);
    assertDecidable(m, version, true);
    const txn = findBankTransaction(db, m.bankTransactionId)!;
    if (m.status === 'auto_accepted' && entryLineReconciledOn(db, m.entryId, txn.accountId))
      throw new DomainError(
        'INVALID_STATUS',
        'The entry’s line is reconciled with a bank statement; a reconciled match cannot be undone',
      );
    const at = new Date().toISOString();
    if (!decide(db, id, m.version, { status: 'rejected', at, rejectedAt: at, rejectReason: reason })) {
      throw new DomainError('VERSION_CONFLICT', 'The match was changed meanwhile; reload it');
    }
    if (m.status === 'auto_accepted') forgetCounterAccounts(db, txn.description, m.entryId, txn.accountId);
    return { id, status: 'rejected' as const, reject_reason: reason, rejected_at: at, version: m.version + 1 };
  });
}

export function batchAccept(
  db: LedgerDb,
  input: { min_score: number; account_id?: string | undefined; match_ids?: string[] | undefined },
) {
  return db.transaction(() => {
    const { items } = pendingMatches(
      db,
      { accountId: input.account_id, minScore: input.min_score, maxScore: 100, ids: input.match_ids },
      1_000_000,
      0,
    );
    const at = new Date().toISOString();
    for (const m of items) accept(db, m, at);
    return { accepted_count: items.length, match_ids: items.map((m) => m.id) };
  });
}

/**
 * Journal's void guard (wired in server/index.ts): an entry with a reconciled line, or reconciled
 * with a bank transaction, cannot be voided; one only awaiting review has its pending match
 * rejected, since the entry it proposes is going away.
 */
export const matchedEntryVoidGuard: VoidGuard = {
  beforeVoid(db, entryId, at, action) {
    if (entryHasReconciledLine(db, entryId))
      throw new DomainError(
        'INVALID_STATUS',
        `The entry has a line reconciled with a bank statement and cannot be ${action}`,
      );
    for (const m of liveMatchesOfEntry(db, entryId)) {
      if (isReconciled(m.status)) {
        const bank = findBankTransaction(db, m.bankTransactionId);
        throw new DomainError(
          'INVALID_STATUS',
          `The entry is matched to the bank line "${bank?.description ?? ''}" of ${bank?.date ?? ''} and cannot be ${action}`,
        );
      }
      decide(db, m.id, m.version, { status: 'rejected', at, rejectedAt: at, rejectReason: 'the entry was voided' });
    }
  },
};
