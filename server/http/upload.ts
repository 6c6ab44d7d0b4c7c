import busboy from 'busboy';
import type { Request } from 'express';
import { DomainError } from '../domain/errors.ts';

const UPLOAD_LIMIT_BYTES = 20 * 1024 * 1024;

export interface Upload {
  bytes: Uint8Array;
  fileName: string | undefined;
  fields: Record<string, string>;
}

function tooLarge(): DomainError {
  return new DomainError('PAYLOAD_TOO_LARGE', `The file is larger than ${UPLOAD_LIMIT_BYTES / 1024 / 1024} MiB`);
}

/** The raw request body read by the route (an empty body is no bytes). */
export function requestBytes(req: Request): Uint8Array {
  const body: unknown = req.body;
  return Buffer.isBuffer(body) ? new Uint8Array(body.buffer, body.byteOffset, body.byteLength) : new Uint8Array();
}

/**
 * The uploaded file: multipart field `file` (other fields as text), or the raw request body
 * (already read by the route's raw parser).
 */
export function readUpload(req: Request): Promise<Upload> {
  if (!req.is('multipart/form-data')) {
    const body: unknown = req.body;
    const bytes = Buffer.isBuffer(body)
      ? new Uint8Array(body.buffer, body.byteOffset, body.byteLength)
      : new Uint8Array();
    return Promise.resolve({ bytes, fileName: undefined, fields: {} });
  }
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // file names as browsers send them: UTF-8 (busboy reads them as Latin-1 unless told)
        defParamCharset: 'utf8',
        limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 25 },
      });
    } catch {
      reject(
        new DomainError('VALIDATION_ERROR', 'The multipart body is malformed', [
          { field: 'file', message: 'malformed multipart body' },
        ]),
      );
      return;
    }
    const fields: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let fileName: string | undefined;
    let sawFile = false;
    let failed: DomainError | undefined;
    parser.on('file', (name, stream, info) => {
      // A body cut short errors the part's stream too; the parser's own 'error' answers it, and an
      // unhandled stream error would take the whole process down.
      stream.on('error', () => {});
      if (name !== 'file') {
        stream.resume();
        return;
      }
      sawFile = true;
      fileName = info.filename;
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        failed = tooLarge();
      });
    });
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('error', () =>
      reject(
        new DomainError('VALIDATION_ERROR', 'The multipart body is malformed', [
          { field: 'file', message: 'malformed multipart body' },
        ]),
      ),
    );
    parser.on('close', () => {
      if (failed) reject(failed);
      else if (!sawFile)
        reject(
          new DomainError('VALIDATION_ERROR', 'Send the file in the multipart field "file"', [
            { field: 'file', message: 'is required' },
          ]),
        );
      else resolve({ bytes: new Uint8Array(Buffer.concat(chunks)), fileName, fields });
    });
    req.pipe(parser);
  });
}
