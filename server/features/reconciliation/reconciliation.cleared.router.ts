import { errorBody, idParams } from '../../contract/common.ts';
import { journalEntry } from '../../contract/journal.ts';
import {
  adjustmentBody,
  clearedBody,
  openingBalanceBody,
  clearedResult,
  reconcileBody,
  reconcileQuery,
  reconcileStatus,
  reconciliation,
  reconciliationPage,
  reconciliationsQuery,
  unreconciledPage,
  unreconciledQuery,
} from '../../contract/reconciliation.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import {
  listReconciliationPage,
  bookAdjustment,
  listUnreconciledLines,
  setOpeningBalance,
  reconcileAccount,
  reconcileStatus as statusOf,
  setCleared,
} from './reconciliation.cleared.service.ts';

const notFound = { status: 404, description: 'NOT_FOUND (the account)', schema: errorBody };
const invalid = { status: 400, description: 'VALIDATION_ERROR', schema: errorBody };

/** Reconciling an account to the bank: cleared lines, the difference to a statement's balance, and finishing at zero (CONTRACT §14). */
export function clearedRoutes(): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/accounts/:id/cleared',
      tag: 'reconciliation',
      summary: 'Mark lines of the account cleared (the bank shows them) or uncleared, by hand; reconciled lines stay',
      auth: true,
      params: idParams,
      body: clearedBody,
      responses: [{ status: 200, description: 'The lines and their state', schema: clearedResult }, invalid, notFound],
      handler: ({ session, params, body }) => ({ status: 200, body: setCleared(session.ledger, params.id, body) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/accounts/:id/reconcile',
      tag: 'reconciliation',
      summary:
        'The cleared balance at a statement’s date beside the statement’s balance: the difference left, and how many lines are still uncleared',
      auth: true,
      cacheable: true,
      params: idParams,
      query: reconcileQuery,
      responses: [
        { status: 200, description: 'Where the reconciliation stands', schema: reconcileStatus },
        invalid,
        notFound,
      ],
      handler: ({ session, params, query }) => ({ status: 200, body: statusOf(session.ledger, params.id, query) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/accounts/:id/reconcile',
      tag: 'reconciliation',
      summary:
        'Finish a reconciliation: when the difference is zero, every cleared line dated on or before statement_date becomes reconciled',
      auth: true,
      params: idParams,
      body: reconcileBody,
      responses: [
        { status: 201, description: 'The reconciliation', schema: reconciliation },
        invalid,
        notFound,
        {
          status: 409,
          description: 'BALANCE_MISMATCH: the detail names the difference; nothing changed',
          schema: errorBody,
        },
      ],
      handler: ({ session, params, body }) => ({
        status: 201,
        body: reconcileAccount(session.ledger, params.id, body),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/accounts/:id/opening-balance',
      tag: 'reconciliation',
      summary:
        'Set the account’s opening balance: a posted entry against an equity account, dated before its first line, its line on the account cleared',
      auth: true,
      params: idParams,
      body: openingBalanceBody,
      responses: [
        { status: 201, description: 'The opening balance entry', schema: journalEntry },
        invalid,
        notFound,
        {
          status: 409,
          description:
            'OPENING_BALANCE_EXISTS (an entry already books between the account and equity) or OPENING_BALANCE_AMBIGUOUS (a line is dated on or before entry_date); nothing booked',
          schema: errorBody,
        },
      ],
      handler: ({ session, params, body }) => ({
        status: 201,
        body: setOpeningBalance(session.ledger, params.id, body),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/accounts/:id/reconcile-adjustment',
      tag: 'reconciliation',
      summary:
        'Book a reconciliation’s difference as an adjustment: a posted entry against the account picked, its line on the account cleared',
      auth: true,
      params: idParams,
      body: adjustmentBody,
      responses: [{ status: 201, description: 'The adjustment entry', schema: journalEntry }, invalid, notFound],
      handler: ({ session, params, body }) => ({ status: 201, body: bookAdjustment(session.ledger, params.id, body) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/accounts/:id/reconciliations',
      tag: 'reconciliation',
      summary: 'The account’s finished reconciliations, newest first',
      auth: true,
      cacheable: true,
      params: idParams,
      query: reconciliationsQuery,
      responses: [{ status: 200, description: 'A page of reconciliations', schema: reconciliationPage }, notFound],
      handler: ({ session, params, query }) => ({
        status: 200,
        body: listReconciliationPage(session.ledger, params.id, query),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/accounts/:id/unreconciled-lines',
      tag: 'reconciliation',
      summary:
        'The account’s lines still to reconcile (uncleared or cleared) dated on or before statement_date, newest first, each signed as the account’s balance',
      auth: true,
      cacheable: true,
      params: idParams,
      query: unreconciledQuery,
      responses: [{ status: 200, description: 'A page of lines', schema: unreconciledPage }, notFound],
      handler: ({ session, params, query }) => ({
        status: 200,
        body: listUnreconciledLines(session.ledger, params.id, query),
      }),
    }),
  ];
}
