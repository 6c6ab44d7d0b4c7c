import { z } from 'zod';
import { errorBody, filePart, jobBudgetResponse } from '../../contract/common.ts';
import { importJournalQuery, importJournalResult, JOURNAL_FILE_LIMIT } from '../../contract/export.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import { readUpload } from '../../http/upload.ts';
import type { JobQueue } from '../../jobs/job.ts';
import type { journalImportJobs } from './journal-import.jobs.ts';

/** A journal import is a job (server/jobs): 25,000 transactions take a second or more to check and post. */
export function journalImportRoutes(jobs: JobQueue<typeof journalImportJobs>): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/import/journal',
      tag: 'export',
      summary:
        'Import a ledger, hledger or beancount journal (multipart field "file" or the raw body, UTF-8, at most 20 MiB) atomically: ' +
        'missing accounts are created (type from the root), every transaction is posted with source_type import, closed accounts are ' +
        'deactivated. Any refused line imports nothing.',
      auth: true,
      query: importJournalQuery,
      rawBody: {
        contentTypes: ['multipart/form-data', 'text/plain', 'application/octet-stream'],
        description: 'the journal, at most 20 MiB',
        limit: JOURNAL_FILE_LIMIT,
        parts: z.object({ file: filePart }),
      },
      responses: [
        { status: 201, description: 'What was imported', schema: importJournalResult },
        {
          status: 400,
          description:
            'The detail starts with the line at fault and errors names it as line.N: UNSUPPORTED_DIRECTIVE (names the directive), UNBALANCED, ' +
            'UNSUPPORTED_COMMODITY, INVALID_JOURNAL (also an account path deeper than the tree limit), CURRENCY_MISMATCH, INACTIVE_ACCOUNT, TOO_FEW_LINES, VALIDATION_ERROR (amount digits)',
          schema: errorBody,
        },
        { status: 413, description: 'PAYLOAD_TOO_LARGE', schema: errorBody },
        jobBudgetResponse,
      ],
      handler: async ({ session, query, req }) => {
        const upload = await readUpload(req);
        const result = await jobs.run(session.userId, 'importJournal', { bytes: upload.bytes, format: query.format });
        return { status: 201, body: result };
      },
    }),
  ];
}
