import { z } from 'zod';
import { errorBody, jobBudgetResponse } from '../../contract/common.ts';
import { PassThrough } from 'node:stream';
import yazl from 'yazl';
import type { Response } from 'express';
import { exportArchive, exportArchiveQuery, exportFile, exportQuery, type ExportQuery } from '../../contract/export.ts';
import type { AttachmentFiles } from '../attachments/attachments.files.ts';
import { entryFiles } from '../attachments/attachments.service.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import type { JobQueue } from '../../jobs/job.ts';
import type { exportJobs } from './export.jobs.ts';
import { exportMedia } from './export.service.ts';

/**
 * Runs the export job, handing each piece to `write` after `begin` (the headers go with the first
 * piece: a job that fails before it is answered as any error, JSON). A failure after the first piece
 * cuts the download short rather than ending it: a truncated file must not look complete. Answers
 * whether the export ran to its end.
 */
async function streamExport(
  jobs: JobQueue<typeof exportJobs>,
  userId: string,
  input: ExportQuery & { withDocuments?: boolean },
  res: Response,
  begin: () => void,
  write: (piece: Uint8Array, taken: () => void) => void,
): Promise<boolean> {
  const closed = new AbortController();
  res.once('close', () => closed.abort());
  try {
    await jobs.stream(
      userId,
      'exportBooks',
      input,
      (piece, taken) => {
        begin();
        write(piece, taken);
      },
      closed.signal,
    );
  } catch (error) {
    if (!res.headersSent) throw error;
    res.destroy(error instanceof Error ? error : new Error(String(error)));
    return false;
  }
  begin();
  return true;
}

/**
 * An export is a streamed job (server/jobs): at a million entries its text is hundreds of MB, made
 * on the worker from one snapshot and written to the response piece by piece at the client's pace.
 */
export function exportRoutes(jobs: JobQueue<typeof exportJobs>, files?: AttachmentFiles): RouteDef[] {
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
          contentTypes: ['text/plain', 'text/csv'],
          headers: {
            'Content-Disposition': {
              description:
                'attachment, with the file name (`personal-ledger[-<end date>].<ledger|journal|beancount|csv>`)',
              schema: z.string(),
            },
          },
        },
        { status: 400, description: 'VALIDATION_ERROR', schema: errorBody },
        jobBudgetResponse,
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
        const done = await streamExport(jobs, session.userId, query, res, begin, (piece, taken) =>
          res.write(piece, () => taken()),
        );
        if (done) res.end();
        return undefined;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/export/archive',
      tag: 'export',
      summary:
        'Export the books as a ledger, hledger or beancount journal with the files attached to entries, as a ZIP of a folder: ' +
        'the journal, and attachments/ beside it (beancount `document` directives, ledger and hledger `; attachment:` tags link each entry to its files).',
      auth: true,
      query: exportArchiveQuery,
      responses: [
        {
          status: 200,
          description: 'The ZIP, with Content-Disposition: attachment',
          schema: exportArchive,
          contentTypes: ['application/zip'],
          headers: {
            'Content-Disposition': {
              description: 'attachment, with the file name (`personal-ledger[-<end date>].zip`)',
              schema: z.string(),
            },
          },
        },
        { status: 400, description: 'VALIDATION_ERROR', schema: errorBody },
        jobBudgetResponse,
      ],
      handler: async ({ session, query, res }) => {
        const { fileName } = exportMedia(query);
        const folder = fileName.replace(/\.[a-z]+$/, '');
        const zip = new yazl.ZipFile();
        const journal = new PassThrough();
        zip.addReadStream(journal, `${folder}/${fileName}`);
        const begin = () => {
          if (res.headersSent) return;
          res.status(200).setHeader('Content-Type', 'application/zip');
          res.setHeader('Content-Disposition', `attachment; filename="${folder}.zip"`);
          zip.outputStream.pipe(res);
        };
        const input = { ...query, withDocuments: true };
        const done = await streamExport(jobs, session.userId, input, res, begin, (piece, taken) =>
          journal.write(piece, () => taken()),
        );
        if (!done) return undefined;
        journal.end();
        for (const file of entryFiles(session.ledger))
          if (files?.has(session.userId, file.sha256))
            zip.addFile(files.fileOf(session.userId, file.sha256), `${folder}/${file.path}`);
        zip.end();
        return undefined;
      },
    }),
  ];
}
