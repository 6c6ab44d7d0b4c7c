/** A field that failed validation, named by its path (`lines.1.amount`). */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * An expected failure of a use case. It carries a code, never an HTTP status: the one error
 * middleware maps codes to statuses (server/http/errors.ts).
 */
export class DomainError extends Error {
  readonly code: string;
  readonly errors: FieldError[] | undefined;

  constructor(code: string, detail: string, errors?: FieldError[]) {
    super(detail);
    this.name = 'DomainError';
    this.code = code;
    this.errors = errors;
  }
}

/**
 * An error as it crosses between threads (a structured clone keeps neither a DomainError's class nor
 * its code): `failureOf` on the thread that threw, `errorOf` on the one that answers.
 */
export type ThreadFailure =
  | { kind: 'domain'; code: string; message: string; errors: FieldError[] | undefined }
  | { kind: 'error'; name: string; message: string; code: string | undefined; stack: string | undefined };

export function failureOf(error: unknown): ThreadFailure {
  if (error instanceof DomainError)
    return { kind: 'domain', code: error.code, message: error.message, errors: error.errors };
  const e = error instanceof Error ? error : new Error(String(error));
  const code = (e as { code?: unknown }).code;
  return {
    kind: 'error',
    name: e.name,
    message: e.message,
    code: typeof code === 'string' ? code : undefined,
    stack: e.stack,
  };
}

export function errorOf(failure: ThreadFailure): Error {
  if (failure.kind === 'domain') return new DomainError(failure.code, failure.message, failure.errors);
  const error = new Error(failure.message) as Error & { code?: string };
  error.name = failure.name;
  if (failure.code !== undefined) error.code = failure.code;
  if (failure.stack !== undefined) error.stack = failure.stack;
  return error;
}
