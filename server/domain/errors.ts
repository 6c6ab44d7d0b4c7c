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
