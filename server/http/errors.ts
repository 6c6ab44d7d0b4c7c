import crypto from 'node:crypto';
import type { ErrorRequestHandler, Response } from 'express';
import { DomainError, type FieldError } from '../domain/errors.ts';

/** The one mapping from error codes to HTTP statuses. Codes not listed are 400. */
const STATUS_BY_CODE: Record<string, number> = {
  NOT_AUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN_HOST: 403,
  FORBIDDEN_ORIGIN: 403,
  INVITE_INVALID: 403,
  NOT_FOUND: 404,
  EMAIL_TAKEN: 409,
  HAS_ENTRIES: 409,
  HAS_CHILDREN: 409,
  HAS_RECONCILED: 409,
  VERSION_CONFLICT: 409,
  BALANCE_MISMATCH: 409,
  OPENING_BALANCE_EXISTS: 409,
  OPENING_BALANCE_AMBIGUOUS: 409,
  USERNAME_TAKEN: 409,
  LIMIT_REACHED: 409,
  SYNC_KEY_MISMATCH: 409,
  SYNC_NOT_SET_UP: 409,
  ATTACHMENT_WAITING_FOR_SYNC: 409,
  NOTHING_TO_UNDO: 409,
  UNDO_NOT_POSSIBLE: 409,
  SYNC_ALREADY_SET_UP: 409,
  SYNC_LEDGER_NOT_EMPTY: 409,
  SYNC_CLOCK_DRIFT: 409,
  SYNC_OUT_OF_SYNC: 409,
  SYNC_RELAY_LOGIN: 403,
  SYNC_RELAY_UNREACHABLE: 502,
  SYNC_BAD_ANSWER: 502,
  SYNC_TAMPERED: 502,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  JOB_BUDGET_EXCEEDED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  LEDGER_UNAVAILABLE: 503,
  LEDGER_BUSY: 503,
  STORAGE_UNAVAILABLE: 503,
  STORAGE_FULL: 507,
};

function statusOf(code: string): number {
  return STATUS_BY_CODE[code] ?? 400;
}

export function sendError(res: Response, code: string, detail: string, errors?: FieldError[]): void {
  const body: { detail: string; code?: string; errors?: FieldError[] } = { detail };
  // 401 answers carry only `detail`, exactly as the spec words them.
  if (statusOf(code) !== 401) body.code = code;
  if (errors && errors.length > 0) body.errors = errors;
  res.status(statusOf(code)).json(body);
}

/** body-parser's error types, answered in our shape. */
const BODY_ERRORS: Record<string, [string, string]> = {
  'entity.parse.failed': ['MALFORMED_JSON', 'The request body is not valid JSON'],
  'entity.too.large': ['PAYLOAD_TOO_LARGE', 'The request body is too large'],
  'encoding.unsupported': ['UNSUPPORTED_MEDIA_TYPE', 'The request body encoding is not supported'],
  'charset.unsupported': ['UNSUPPORTED_MEDIA_TYPE', 'The request body charset is not supported; send UTF-8'],
  'request.aborted': ['MALFORMED_JSON', 'The request body was cut short'],
  'request.size.invalid': ['MALFORMED_JSON', 'The request body length does not match Content-Length'],
};

/**
 * A full disk or a data folder that cannot be written is a condition of the machine, not a bug: the
 * client is told so plainly (507 / 503) instead of a generic 500. The write's transaction was rolled
 * back, so nothing of it was stored.
 */
function storageError(error: unknown): [string, string] | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') {
    return ['STORAGE_FULL', 'The disk holding the ledger is full; nothing was saved. Free some space and try again.'];
  }
  if (
    /^SQLITE_(READONLY|CANTOPEN|IOERR|PERM)/.test(code) ||
    code === 'EROFS' ||
    code === 'EACCES' ||
    code === 'EPERM'
  ) {
    return [
      'STORAGE_UNAVAILABLE',
      'The data folder cannot be written (it is read-only or unavailable); nothing was saved.',
    ];
  }
  return undefined;
}

export function errorMiddleware(log: (line: string) => void): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    // A ledger file this app cannot open (written by a newer version, or its history edited): the
    // user's data is intact and untouched; say why instead of a generic error.
    if (error instanceof Error && error.name === 'MigrationError') {
      sendError(res, 'LEDGER_UNAVAILABLE', `Your ledger cannot be opened: ${error.message}`);
      return;
    }
    if (error instanceof DomainError) {
      sendError(res, error.code, error.message, error.errors);
      return;
    }
    const bodyError = typeof error?.type === 'string' ? BODY_ERRORS[error.type] : undefined;
    if (bodyError) {
      sendError(res, bodyError[0], bodyError[1]);
      return;
    }
    // The router could not percent-decode a path parameter: a malformed id in the path.
    if (error instanceof URIError && (error as { status?: unknown }).status === 400) {
      sendError(res, 'NOT_FOUND', 'No such resource');
      return;
    }
    // body-parser's other client errors (a Content-Encoding the body does not match): unreadable.
    if (error?.expose === true && error.status === 400) {
      sendError(res, 'MALFORMED_JSON', 'The request body could not be read; check its Content-Encoding');
      return;
    }
    const requestId = crypto.randomUUID();
    log(
      `[${requestId}] ${req.method} ${req.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    const storage = storageError(error);
    if (storage) {
      sendError(res, storage[0], `${storage[1]} (request ${requestId})`);
      return;
    }
    sendError(res, 'INTERNAL_ERROR', `Internal error (request ${requestId})`);
  };
}
