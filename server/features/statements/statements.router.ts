import { errorBody, idParams, jobBudgetResponse } from '../../contract/common.ts';
import {
  bankTransactionPage,
  createStatementBody,
  importNothingStored,
  importQuery,
  importResult,
  listStatementsQuery,
  listTransactionsQuery,
  patchStatementBody,
  statement,
  statementPage,
  statementResult,
  statementUploadParts,
  STATEMENT_FILE_LIMIT,
  STATEMENT_JSON_LIMIT,
} from '../../contract/statements.ts';
import { DomainError } from '../../domain/errors.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import { readUpload, requestBytes } from '../../http/upload.ts';
import type { JobQueue } from '../../jobs/job.ts';
import type { statementJobs } from './statements.jobs.ts';
import {
  getStatement,
  listStatementPage,
  listTransactionPage,
  patchStatement,
  removeStatement,
} from './statements.service.ts';

const notFound = { status: 404, description: 'NOT_FOUND', schema: errorBody };

/** A JSON text field of the upload (`mapping`, `account_ids`), parsed; validated by the service. */
function jsonField(text: string | undefined, field: string, what: string): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DomainError('VALIDATION_ERROR', `${what} is not valid JSON`, [{ field, message: 'is not valid JSON' }]);
  }
}

/** The multipart `encoding` field, checked as the query's is. */
function encodingField(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const result = importQuery.shape.encoding.safeParse(value);
  if (result.success) return result.data;
  throw new DomainError('VALIDATION_ERROR', 'Invalid encoding: is not an encoding this server can read', [
    { field: 'encoding', message: 'is not an encoding this server can read' },
  ]);
}

/** Imports run as jobs (server/jobs): 100,000 rows take seconds to parse, check and store, and the server keeps answering meanwhile. */
export function statementRoutes(jobs: JobQueue<typeof statementJobs>): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/statements',
      tag: 'statements',
      summary: 'List imported statements, newest first',
      auth: true,
      cacheable: true,
      query: listStatementsQuery,
      responses: [{ status: 200, description: 'A page of statements', schema: statementPage }],
      handler: ({ session, query }) => {
        // the statements screen is open: a run of one of them may follow
        jobs.prewarm();
        return { status: 200, body: listStatementPage(session.ledger, query) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/statements',
      tag: 'statements',
      summary: 'Create a statement from JSON transactions (amounts positive; type debit = money out)',
      auth: true,
      body: createStatementBody,
      deferredJson: { limit: STATEMENT_JSON_LIMIT },
      responses: [
        {
          status: 201,
          description: 'The statement, with how many of its transactions a rule would book',
          schema: statementResult,
        },
        {
          status: 200,
          description: 'Every transaction was already imported: nothing stored, `id` is null',
          schema: statementResult,
        },
        { status: 400, description: 'INVALID_ACCOUNT, VALIDATION_ERROR', schema: errorBody },
        { status: 413, description: `PAYLOAD_TOO_LARGE (over ${STATEMENT_JSON_LIMIT})`, schema: errorBody },
        jobBudgetResponse,
      ],
      handler: async ({ session, req }) => {
        jobs.prewarm();
        const bytes = requestBytes(req);
        const result = await jobs.run(session.userId, 'createStatement', { bytes }, bytes.byteLength);
        return { status: result.id === null ? 200 : 201, body: result };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/statements/import',
      tag: 'statements',
      summary:
        'Import a bank file (CSV, OFX/QFX, QIF, camt.053; format detected when omitted) as multipart field "file" or the raw body. ' +
        'CSV columns are guessed from the header, or given as `mapping` (JSON), and remembered per account. The encoding is detected, or given as `encoding`. ' +
        'Each account in the file becomes its own statement, in the account `account_ids` names for it (JSON). With dry_run=true nothing is stored and a preview is answered.',
      auth: true,
      query: importQuery,
      rawBody: {
        contentTypes: [
          'multipart/form-data',
          'application/octet-stream',
          'text/csv',
          'application/x-ofx',
          'application/xml',
        ],
        description: 'the statement file, at most 20 MiB',
        limit: STATEMENT_FILE_LIMIT,
        parts: statementUploadParts,
      },
      responses: [
        {
          status: 201,
          description:
            'The stored statement (the first, when the file holds several accounts) with what was skipped, the CSV mapping used and every account in the file',
          schema: importResult,
        },
        {
          status: 200,
          description: 'dry_run: what would be imported; or, with `id: null`, a re-import that added nothing',
          schema: importNothingStored,
        },
        {
          status: 400,
          description:
            'INVALID_STATEMENT_FILE (the detail names the line or element), NO_TRANSACTIONS (the file holds no transaction to store; the detail says what it holds), INVALID_ACCOUNT, CURRENCY_MISMATCH, VALIDATION_ERROR (mapping, encoding, account_ids: a file with several accounts that have transactions needs it)',
          schema: errorBody,
        },
        { status: 413, description: 'PAYLOAD_TOO_LARGE', schema: errorBody },
        jobBudgetResponse,
      ],
      handler: async ({ session, query, req }) => {
        // a statement imported is usually reconciled next: the worker loads meanwhile
        jobs.prewarm();
        const upload = await readUpload(req);
        const result = await jobs.run(
          session.userId,
          'importStatementFile',
          {
            accountId: query.account_id,
            bytes: upload.bytes,
            format: query.format,
            name: query.name ?? upload.fields.name,
            fileName: upload.fileName,
            mapping: jsonField(query.mapping ?? upload.fields.mapping, 'mapping', 'The CSV mapping'),
            encoding: query.encoding ?? encodingField(upload.fields.encoding),
            accountIds: jsonField(query.account_ids ?? upload.fields.account_ids, 'account_ids', 'account_ids'),
            dryRun: query.dry_run ?? upload.fields.dry_run === 'true',
          },
          upload.bytes.byteLength,
        );
        const { preview, ...body } = result;
        return { status: preview || ('id' in body && body.id === null) ? 200 : 201, body };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/statements/:id',
      tag: 'statements',
      summary: 'One statement',
      auth: true,
      cacheable: true,
      params: idParams,
      responses: [{ status: 200, description: 'The statement', schema: statement }, notFound],
      handler: ({ session, params }) => ({ status: 200, body: getStatement(session.ledger, params.id) }),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/statements/:id',
      tag: 'statements',
      summary:
        'Set (or, with null, clear) a statement’s closing balance by hand, signed as the account’s balance; `closing_date` defaults to the one it has, else its last day',
      auth: true,
      params: idParams,
      body: patchStatementBody,
      responses: [
        { status: 200, description: 'The statement', schema: statement },
        { status: 400, description: 'VALIDATION_ERROR', schema: errorBody },
        notFound,
      ],
      handler: ({ session, params, body }) => ({ status: 200, body: patchStatement(session.ledger, params.id, body) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/statements/:id/transactions',
      tag: 'statements',
      summary: 'A statement’s bank transactions by date, each with its reconciliation status',
      auth: true,
      cacheable: true,
      params: idParams,
      query: listTransactionsQuery,
      responses: [{ status: 200, description: 'A page of bank transactions', schema: bankTransactionPage }, notFound],
      handler: ({ session, params, query }) => ({
        status: 200,
        body: listTransactionPage(session.ledger, params.id, query),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/statements/:id',
      tag: 'statements',
      summary: 'Delete a statement and its transactions (not when any is reconciled)',
      auth: true,
      params: idParams,
      responses: [
        { status: 204, description: 'Deleted' },
        notFound,
        { status: 409, description: 'HAS_RECONCILED', schema: errorBody },
      ],
      handler: ({ session, params }) => {
        removeStatement(session.ledger, params.id);
        return { status: 204 };
      },
    }),
  ];
}
