import { errorBody, idParams, jobBudgetResponse } from '../../contract/common.ts';
import { journalEntry } from '../../contract/journal.ts';
import {
  acceptResult,
  batchAcceptBody,
  batchAcceptResult,
  createEntriesBody,
  createEntriesResult,
  createEntryFromBankBody,
  decisionBody,
  match,
  matchesQuery,
  matchPage,
  pendingQuery,
  rejectBody,
  rejectResult,
  runBody,
  runResult,
  stats,
  statsQuery,
  TRANSFER_DAYS,
  transferBody,
  unmatchedPage,
  unmatchedQuery,
} from '../../contract/reconciliation.ts';
import type { Thresholds } from '../../domain/reconciliation/index.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import type { JobQueue } from '../../jobs/job.ts';
import type { reconciliationJobs } from './reconciliation.jobs.ts';
import { z } from 'zod';
import { createEntryForBankTransaction } from './reconciliation.booking.service.ts';
import { KeptPayeeModels } from './reconciliation.payees.service.ts';
import {
  acceptMatch,
  batchAccept,
  getMatch,
  listMatches,
  listPending,
  rejectMatch,
} from './reconciliation.review.service.ts';
import { reconciliationStats } from './reconciliation.stats.service.ts';
import { listUnmatched } from './reconciliation.unmatched.service.ts';
import { bookTransfer } from './reconciliation.transfers.service.ts';

const decisionErrors = [
  { status: 400, description: 'ALREADY_PROCESSED or SUPERSEDED', schema: errorBody },
  { status: 404, description: 'NOT_FOUND', schema: errorBody },
  { status: 409, description: 'VERSION_CONFLICT', schema: errorBody },
];

/** A run is a job (server/jobs): scoring 10,000 bank transactions against their candidates takes seconds. */
export function reconciliationRoutes(thresholds: Thresholds, jobs: JobQueue<typeof reconciliationJobs>): RouteDef[] {
  // the unmatched list's payee models, kept for this server's ledgers
  const payeeModels = new KeptPayeeModels(8);
  return [
    defineRoute({
      method: 'post',
      path: '/api/reconciliation/run',
      tag: 'reconciliation',
      summary: `Match a statement's (or an account's) unmatched bank transactions with posted entries: score ≥ ${thresholds.autoAccept} auto-accepted, ${thresholds.review}..${thresholds.autoAccept - 1} held for review`,
      auth: true,
      body: runBody,
      responses: [
        { status: 200, description: 'The run', schema: runResult },
        { status: 400, description: 'VALIDATION_ERROR, INVALID_ACCOUNT', schema: errorBody },
        jobBudgetResponse,
      ],
      handler: async ({ session, body }) => ({
        status: 200,
        body: await jobs.run(session.userId, 'runReconciliation', { run: body, thresholds }),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/reconciliation/pending',
      tag: 'reconciliation',
      summary: 'Matches awaiting review, highest score first',
      auth: true,
      query: pendingQuery,
      responses: [{ status: 200, description: 'A page of matches', schema: matchPage }],
      handler: ({ session, query }) => ({ status: 200, body: listPending(session.ledger, query, thresholds) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/reconciliation/matches',
      tag: 'reconciliation',
      summary:
        'Matches of one status (default auto_accepted: what runs accepted alone, to look over and undo by rejecting), optionally of one account or statement, highest score first',
      auth: true,
      query: matchesQuery,
      responses: [{ status: 200, description: 'A page of matches', schema: matchPage }],
      handler: ({ session, query }) => ({ status: 200, body: listMatches(session.ledger, query) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/reconciliation/matches/:id',
      tag: 'reconciliation',
      summary: 'One match, whatever its status',
      auth: true,
      params: idParams,
      responses: [
        { status: 200, description: 'The match', schema: match },
        { status: 404, description: 'NOT_FOUND', schema: errorBody },
      ],
      handler: ({ session, params }) => ({ status: 200, body: getMatch(session.ledger, params.id) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/reconciliation/matches/:id/accept',
      tag: 'reconciliation',
      summary: 'Accept a match under review (optional `version` for optimistic locking)',
      auth: true,
      params: idParams,
      body: decisionBody,
      responses: [{ status: 200, description: 'Accepted', schema: acceptResult }, ...decisionErrors],
      handler: ({ session, params, body }) => ({
        status: 200,
        body: acceptMatch(session.ledger, params.id, body.version),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/reconciliation/matches/:id/reject',
      tag: 'reconciliation',
      summary:
        'Reject a match under review, or undo one accepted automatically (auto_accepted, its line not reconciled); the pair is never proposed again',
      auth: true,
      params: idParams,
      body: rejectBody,
      responses: [
        { status: 200, description: 'Rejected', schema: rejectResult },
        {
          status: 400,
          description: 'ALREADY_PROCESSED, SUPERSEDED, INVALID_STATUS (the line is reconciled)',
          schema: errorBody,
        },
        { status: 404, description: 'NOT_FOUND', schema: errorBody },
        { status: 409, description: 'VERSION_CONFLICT', schema: errorBody },
      ],
      handler: ({ session, params, body }) => ({
        status: 200,
        body: rejectMatch(session.ledger, params.id, body.reason || null, body.version),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/reconciliation/batch-accept',
      tag: 'reconciliation',
      summary:
        'Accept every match under review scoring at least min_score (optionally of one account, or among match_ids)',
      auth: true,
      body: batchAcceptBody,
      responses: [{ status: 200, description: 'What was accepted', schema: batchAcceptResult }],
      handler: ({ session, body }) => ({ status: 200, body: batchAccept(session.ledger, body) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/reconciliation/stats',
      tag: 'reconciliation',
      summary:
        'How much of the bank transactions is matched to entries, pending review or unmatched, and how far each account is reconciled to the bank’s balance (`reconciled_through`)',
      auth: true,
      query: statsQuery,
      responses: [{ status: 200, description: 'Statistics', schema: stats }],
      handler: ({ session, query }) => ({ status: 200, body: reconciliationStats(session.ledger, query) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/reconciliation/unmatched',
      tag: 'reconciliation',
      summary: `Bank transactions with no live match (with suggested counter accounts, the parts a rule splits them into, and the other side of a transfer: an unmatched line of the same amount in the opposite direction on another account within ${TRANSFER_DAYS} days), then posted entries on statement accounts with none`,
      auth: true,
      query: unmatchedQuery,
      responses: [{ status: 200, description: 'A page of unmatched items', schema: unmatchedPage }],
      handler: ({ session, query }) => ({ status: 200, body: listUnmatched(session.ledger, query, payeeModels) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/reconciliation/unmatched/create-entries',
      tag: 'reconciliation',
      summary:
        'Book many unmatched bank transactions at once, as create-entry does: the items given (all or nothing), or every unmatched transaction of a statement that a rule matches',
      auth: true,
      body: createEntriesBody,
      responses: [
        {
          status: 201,
          description: 'What was booked, and the statement’s lines no rule matched',
          schema: createEntriesResult,
        },
        {
          status: 400,
          description:
            'VALIDATION_ERROR, ALREADY_PROCESSED, INVALID_ACCOUNT, INACTIVE_ACCOUNT, UNBALANCED (splits that do not add up to the line), MISSING_RATE (an account in another currency, no rate for the line’s date and no converted_amount) (errors name items.N.<field>); nothing was booked',
          schema: errorBody,
        },
        { status: 404, description: 'NOT_FOUND (the statement)', schema: errorBody },
        jobBudgetResponse,
      ],
      handler: async ({ session, body }) => ({
        status: 201,
        body: await jobs.run(session.userId, 'createEntries', { booking: body, thresholds }),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/reconciliation/unmatched/:id/create-entry',
      tag: 'reconciliation',
      summary:
        'Post an entry for an unmatched bank transaction against a counter account (or split across several, summing to the line), and record it as an accepted match; an account in another currency takes the line’s amount at the rate of its date (or converted_amount), as an exchange through the currency trading accounts',
      auth: true,
      params: idParams,
      body: createEntryFromBankBody,
      responses: [
        { status: 201, description: 'The entry and its match', schema: z.object({ entry: journalEntry, match }) },
        {
          status: 400,
          description:
            'VALIDATION_ERROR, ALREADY_PROCESSED, INVALID_ACCOUNT, INACTIVE_ACCOUNT, UNBALANCED (splits that do not add up to the line), MISSING_RATE (an account in another currency, no rate for the line’s date and no converted_amount)',
          schema: errorBody,
        },
        { status: 404, description: 'NOT_FOUND', schema: errorBody },
      ],
      handler: ({ session, params, body }) => ({
        status: 201,
        body: createEntryForBankTransaction(session.ledger, params.id, body, thresholds, payeeModels),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/reconciliation/transfers',
      tag: 'reconciliation',
      summary:
        'Book a transfer between two of your accounts: one entry from the account of the money out to the account of the money in, matched to both bank lines (in two currencies, an exchange at the two lines’ amounts)',
      auth: true,
      body: transferBody,
      responses: [
        {
          status: 201,
          description: 'The entry and its two matches (the money out’s first)',
          schema: z.object({ entry: journalEntry, matches: z.array(match) }),
        },
        {
          status: 400,
          description:
            'VALIDATION_ERROR (a line that does not exist, the wrong direction, one account, different amounts in one currency), ALREADY_PROCESSED, INACTIVE_ACCOUNT',
          schema: errorBody,
        },
      ],
      handler: ({ session, body }) => ({ status: 201, body: bookTransfer(session.ledger, body, thresholds) }),
    }),
  ];
}
