import { errorBody } from '../../contract/common.ts';
import { historyPage as historyPageSchema, historyQuery, undoResult } from '../../contract/sync.ts';
import { localToday } from '../../domain/dates.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import type { VoidGuard } from '../journal/journal.service.ts';
import { historyPage, undoLast } from './history.service.ts';

/** `voidGuard`: what voiding an entry asks of the features that hold entries (an undo voids a posting). */
export function historyRoutes(voidGuard: VoidGuard): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/history',
      tag: 'sync',
      summary: "The books' history: every change, newest first, with its device, time and what it changed",
      auth: true,
      query: historyQuery,
      responses: [
        { status: 200, description: 'A page of changes', schema: historyPageSchema },
        { status: 400, description: 'VALIDATION_ERROR', schema: errorBody },
      ],
      handler: ({ session, query }) => ({ status: 200, body: historyPage(session.ledger, query) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/history/undo',
      tag: 'sync',
      summary:
        "Undo this computer's last change: each row back as it was; a posted entry is voided (the undo syncs like any change)",
      auth: true,
      responses: [
        { status: 200, description: 'The changes undone', schema: undoResult },
        {
          status: 409,
          description:
            'NOTHING_TO_UNDO; UNDO_NOT_POSSIBLE: a void cannot be undone, nor a posting whose line is reconciled or a trade',
          schema: errorBody,
        },
      ],
      handler: ({ session }) => ({ status: 200, body: undoLast(session.ledger, voidGuard, localToday()) }),
    }),
  ];
}
