import { errorBody, idParams } from '../../contract/common.ts';
import {
  correctEntryBody,
  correctResult,
  createEntriesBody,
  createEntryBody,
  entryList,
  entryPage,
  MAX_BATCH_ENTRIES,
  journalEntry,
  listEntriesQuery,
  updateEntryBody,
  voidEntryBody,
  voidResult,
} from '../../contract/journal.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import { getEntry, journalWrites, listEntryPage, type VoidGuard } from './journal.service.ts';

const notFound = { status: 404, description: 'NOT_FOUND', schema: errorBody };
const invalid = {
  status: 400,
  description:
    'INVALID_STATUS, UNBALANCED, TOO_FEW_LINES, INACTIVE_ACCOUNT, INVALID_ACCOUNT, CURRENCY_MISMATCH, VALIDATION_ERROR',
  schema: errorBody,
};

/** `voidGuard`: what voiding asks of the features that hold on to entries (see `VoidGuard`). */
export function journalRoutes(voidGuard: VoidGuard): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/journal-entries',
      tag: 'journal',
      summary:
        'List entries by date, newest first, with filters; q= searches words in memos, in the descriptions of the bank lines matched to entries (their payees) and in the names and full paths of the accounts entries have lines in, and exact amounts (newest first by date, then by creation)',
      auth: true,
      cacheable: true,
      query: listEntriesQuery,
      responses: [{ status: 200, description: 'A page of entries', schema: entryPage }],
      handler: ({ session, query }) => ({ status: 200, body: listEntryPage(session.ledger, query) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/journal-entries',
      tag: 'journal',
      summary: 'Create an entry as a draft (which need not balance yet), or posted with auto_post (which must balance)',
      auth: true,
      body: createEntryBody,
      responses: [{ status: 201, description: 'The entry', schema: journalEntry }, invalid],
      handler: async ({ session, body }) => ({ status: 201, body: await journalWrites.create(session.ledger, body) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/journal-entries/batch',
      tag: 'journal',
      summary: `Create 1 to ${MAX_BATCH_ENTRIES} entries in one request, all or none, answered in the order given`,
      auth: true,
      body: createEntriesBody,
      responses: [
        { status: 201, description: 'The entries, in the order of the request', schema: entryList },
        {
          status: 400,
          description:
            'Nothing is stored. `errors` names each failing entry by its index: `entries.3.lines.1.amount`, or `entries.3.lines` for a fault of the entry as a whole; ' +
            "the code is the first failing entry's: UNBALANCED, TOO_FEW_LINES, INACTIVE_ACCOUNT, INVALID_ACCOUNT, CURRENCY_MISMATCH, VALIDATION_ERROR",
          schema: errorBody,
        },
      ],
      handler: async ({ session, body }) => ({
        status: 201,
        body: { items: await journalWrites.createMany(session.ledger, body.entries) },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/journal-entries/:id',
      tag: 'journal',
      summary: 'One entry with its lines',
      auth: true,
      cacheable: true,
      params: idParams,
      responses: [{ status: 200, description: 'The entry', schema: journalEntry }, notFound],
      handler: ({ session, params }) => ({ status: 200, body: getEntry(session.ledger, params.id) }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/journal-entries/:id',
      tag: 'journal',
      summary:
        'Change a draft: any of entry_date, memo and lines (lines are replaced as a whole); a draft need not balance',
      auth: true,
      params: idParams,
      body: updateEntryBody,
      responses: [{ status: 200, description: 'The entry', schema: journalEntry }, invalid, notFound],
      handler: async ({ session, params, body }) => ({
        status: 200,
        body: await journalWrites.update(session.ledger, params.id, body),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/journal-entries/:id/post',
      tag: 'journal',
      summary: 'Post a draft',
      auth: true,
      params: idParams,
      responses: [{ status: 200, description: 'The posted entry', schema: journalEntry }, invalid, notFound],
      handler: async ({ session, params }) => ({
        status: 200,
        body: await journalWrites.post(session.ledger, params.id),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/journal-entries/:id/void',
      tag: 'journal',
      summary: 'Void a posted entry by a reversal entry',
      auth: true,
      params: idParams,
      body: voidEntryBody,
      responses: [
        { status: 200, description: 'The voided entry and its reversal', schema: voidResult },
        invalid,
        notFound,
      ],
      handler: async ({ session, params, body }) => ({
        status: 200,
        body: await journalWrites.void(session.ledger, params.id, body.reason || null, voidGuard),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/journal-entries/:id/correct',
      tag: 'journal',
      summary:
        'Correct a posted entry in one step: void it (reason `corrected` unless given) and post the corrected entry in the same transaction, the two linked by `corrects` and `corrected_by`; refused while a line is matched to a bank line or reconciled',
      auth: true,
      params: idParams,
      body: correctEntryBody,
      responses: [
        { status: 201, description: 'The voided entry, its reversal and the corrected entry', schema: correctResult },
        invalid,
        notFound,
      ],
      handler: async ({ session, params, body }) => ({
        status: 201,
        body: await journalWrites.correct(session.ledger, params.id, body, voidGuard),
      }),
    }),
  ];
}
