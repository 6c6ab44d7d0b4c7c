import { errorBody } from '../../contract/common.ts';
import {
  exportFile,
  exportQuery,
  importJournalQuery,
  importJournalResult,
  JOURNAL_FILE_LIMIT,
} from '../../contract/export.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import { readUpload } from '../../http/upload.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';
import { exportMedia } from './export.service.ts';

/**
 * A journal import is a job (server/jobs): 25,000 transactions take a second or more to check and
 * post. An export is a streamed job: at a million entries its text is hundreds of MB, made on the
 * worker from one snapshot and written to the response piece by piece at the client's pace.
 */
export function exportRoutes(jobs: JobRunner): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/export',
      tag: 'export',
      summary:
        'Export the books as a ledger, hledger or beancount journal, or CSV (one row per line): every account, and posted history ' +
        '(voided entries and their reversals too) dated up to as_of/end_date and from start_date. Answered as a file download.',
      auth: true,
      query: exportQuery,
      responses: [
        {
          status: 200,
          description: 'The journal (text/plain) or CSV (text/csv), with Content-Disposition: attachment',
          schema: exportFile,
          contentType: 'text/plain',
        },
        { status: 400, description: 'VALIDATION_ERROR', schema: errorBody },
      ],
      handler: async ({ session, query, req, res }) => {
        const { fileName, contentType } = exportMedia(query);
        // The headers go with the first piece: a job that fails before it is answered as any error (JSON).
        const begin = () => {
          if (res.headersSent) return;
          res.status(200).setHeader('Content-Type', contentType);
          res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
        };
        if (req.method === 'HEAD') {
          // No body goes out: the headers need no job.
          begin();
          res.end();
          return undefined;
        }
        const closed = new AbortController();
        res.once('close', () => closed.abort());
        try {
          await jobs.stream(
            session.userId,
            'exportBooks',
            query,
            (piece, taken) => {
              begin();
              res.write(piece, () => taken());
            },
            closed.signal,
          );
        } catch (error) {
          if (!res.headersSent) throw error;
          // Cut the download short rather than end it: a truncated file must not look complete.
          res.destroy(error instanceof Error ? error : new Error(String(error)));
          return undefined;
        }
        begin();
        res.end();
        return undefined;
      },
    }),
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
      },
      responses: [
        { status: 201, description: 'What was imported', schema: importJournalResult },
        {
          status: 400,
          description:
            'The detail starts with the line at fault and errors names it as line.N: UNSUPPORTED_DIRECTIVE (names the directive), UNBALANCED, ' +
            'UNSUPPORTED_COMMODITY, INVALID_JOURNAL, CURRENCY_MISMATCH, INACTIVE_ACCOUNT, TOO_FEW_LINES, VALIDATION_ERROR (amount digits)',
          schema: errorBody,
        },
        { status: 413, description: 'PAYLOAD_TOO_LARGE', schema: errorBody },
      ],
      handler: async ({ session, query, req }) => {
        const upload = await readUpload(req);
        const size = upload.bytes.byteLength;
        const result = await jobs.run(
          session.userId,
          'importJournal',
          { bytes: upload.bytes, format: query.format },
          size,
        );
        return { status: 201, body: result };
      },
    }),
  ];
}
