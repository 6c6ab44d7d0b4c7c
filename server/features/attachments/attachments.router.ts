import fs from 'node:fs';
import { z } from 'zod';
import {
  ATTACHMENT_BODY_LIMIT,
  ATTACHMENT_FILE_LIMIT_BYTES,
  ATTACHMENT_QUOTA_BYTES,
  ATTACHMENTS_PER_TARGET,
  ATTACHMENT_CONTENT_TYPES,
  attachment,
  attachmentCounts,
  attachmentCountsQuery,
  attachmentFile,
  attachmentList,
  attachmentUploadParts,
  attachmentUsage,
} from '../../contract/attachments.ts';
import { errorBody, idParams } from '../../contract/common.ts';
import { asciiFallback } from '../../domain/attachment-names.ts';
import { DomainError } from '../../domain/errors.ts';
import { readUpload } from '../../http/upload.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import type { AttachmentService, AttachmentTarget } from './attachments.service.ts';

const notFound = { status: 404, description: 'NOT_FOUND', schema: errorBody };

const downloadQuery = z.strictObject({
  disposition: z
    .enum(['attachment', 'inline'])
    .default('attachment')
    .meta({ description: '`inline` to show it (a preview), `attachment` to save it' }),
});

/** RFC 6266: a plain ASCII name, and the real one percent-encoded as UTF-8 (RFC 8187). */
function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${asciiFallback(name)}"; filename*=UTF-8''${encoded}`;
}

const TARGETS: { path: string; kind: AttachmentTarget['kind']; what: string }[] = [
  { path: '/api/entries/:id/attachments', kind: 'entry', what: 'an entry' },
  { path: '/api/bank-transactions/:id/attachments', kind: 'bank_transaction', what: 'a bank line' },
];

export function attachmentRoutes(service: AttachmentService): RouteDef[] {
  const targetRoutes = TARGETS.flatMap(({ path, kind, what }) => [
    defineRoute({
      method: 'post',
      path,
      tag: 'attachments',
      summary:
        `Attach a file (PDF, JPEG, PNG, HEIC/HEIF, at most ${ATTACHMENT_FILE_LIMIT_BYTES / 1024 / 1024} MiB) to ${what}, as multipart field "file". ` +
        'The kind is read from the bytes; the name is kept as metadata only. A file already stored is not stored again.',
      auth: true,
      params: idParams,
      rawBody: {
        contentTypes: ['multipart/form-data'],
        description: `the file in the part "file", at most ${ATTACHMENT_FILE_LIMIT_BYTES / 1024 / 1024} MiB`,
        limit: ATTACHMENT_BODY_LIMIT,
        parts: attachmentUploadParts,
      },
      responses: [
        { status: 201, description: 'The attachment', schema: attachment },
        notFound,
        {
          status: 409,
          description: `LIMIT_REACHED: ${what} holds ${ATTACHMENTS_PER_TARGET} files already, or the user's files would pass ${ATTACHMENT_QUOTA_BYTES / 1024 / 1024 / 1024} GiB or their count limit`,
          schema: errorBody,
        },
        { status: 413, description: 'PAYLOAD_TOO_LARGE: the file is over 20 MiB', schema: errorBody },
        {
          status: 415,
          description: `UNSUPPORTED_MEDIA_TYPE: the bytes are none of ${ATTACHMENT_CONTENT_TYPES.join(', ')}, or the body is not multipart/form-data`,
          schema: errorBody,
        },
      ],
      handler: async ({ session, params, req }) => {
        if (!req.is('multipart/form-data'))
          throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data, in the part "file"');
        const upload = await readUpload(req);
        const body = await service.attach(
          session.ledger,
          session.userId,
          { kind, id: params.id },
          upload.bytes,
          upload.fileName,
        );
        return { status: 201, body };
      },
    }),
    defineRoute({
      method: 'get',
      path,
      tag: 'attachments',
      summary: `The files attached to ${what}, oldest first`,
      auth: true,
      params: idParams,
      responses: [{ status: 200, description: 'Its attachments', schema: attachmentList }, notFound],
      handler: ({ session, params }) => ({
        status: 200,
        body: {
          items: service.list(session.ledger, session.userId, { kind, id: params.id }),
          limit: ATTACHMENTS_PER_TARGET,
        },
      }),
    }),
  ]);
  return [
    ...targetRoutes,
    defineRoute({
      method: 'get',
      path: '/api/attachments/counts',
      tag: 'attachments',
      summary: 'How many files each of the named entries and bank lines holds (for a paperclip beside each row)',
      auth: true,
      cacheable: true,
      query: attachmentCountsQuery,
      responses: [{ status: 200, description: 'The counts', schema: attachmentCounts }],
      handler: ({ session, query }) => ({
        status: 200,
        body: service.counts(session.ledger, query.entry_ids ?? [], query.bank_transaction_ids ?? []),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/attachments/usage',
      tag: 'attachments',
      summary: 'What the user’s files take (each stored file counted once) and the quota',
      auth: true,
      cacheable: true,
      responses: [{ status: 200, description: 'The usage', schema: attachmentUsage }],
      handler: ({ session }) => ({ status: 200, body: service.usage(session.ledger) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/attachments/:id',
      tag: 'attachments',
      summary:
        'Download an attached file, with its content type (read from its bytes) and its name in Content-Disposition',
      auth: true,
      params: idParams,
      query: downloadQuery,
      responses: [
        {
          status: 200,
          description: 'The file',
          schema: attachmentFile,
          contentTypes: [...ATTACHMENT_CONTENT_TYPES],
          headers: {
            'Content-Disposition': {
              description: 'attachment (or inline), with the name as ASCII (`filename`) and as UTF-8 (`filename*`)',
              schema: z.string(),
            },
          },
        },
        notFound,
        {
          status: 409,
          description:
            'ATTACHMENT_WAITING_FOR_SYNC: the file was attached on another computer of the sync group and its bytes have not arrived yet (the list says `waiting_for_sync`); the next syncs bring them',
          schema: errorBody,
        },
      ],
      handler: ({ session, params, query, res }) => {
        const found = service.get(session.ledger, params.id);
        const file = service.fileToRead(session.userId, found);
        let stream: fs.ReadStream;
        let size: number;
        try {
          size = fs.statSync(file).size;
          stream = fs.createReadStream(file);
        } catch {
          throw new DomainError('NOT_FOUND', 'The file of this attachment is missing from the data folder');
        }
        res.status(200);
        res.setHeader('Content-Type', found.contentType);
        res.setHeader('Content-Length', size);
        res.setHeader('Content-Disposition', contentDisposition(query.disposition, found.fileName));
        stream.on('error', (error) => res.destroy(error));
        stream.pipe(res);
        return undefined;
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/attachments/:id',
      tag: 'attachments',
      summary: 'Delete an attachment; its file leaves the disk once nothing else refers to it',
      auth: true,
      params: idParams,
      responses: [{ status: 204, description: 'Deleted' }, notFound],
      handler: ({ session, params }) => {
        service.remove(session.ledger, session.userId, params.id);
        return { status: 204 };
      },
    }),
  ];
}
