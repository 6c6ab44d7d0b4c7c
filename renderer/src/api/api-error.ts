export interface FieldError {
  field: string;
  message: string;
}

/** An error answer of the server (`{ detail, code?, errors? }`), or a failure to reach it (status 0, code NETWORK). */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string;
  readonly code: string | undefined;
  readonly errors: FieldError[];
  /** How long to wait before trying again (a 429's Retry-After), in seconds. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, detail: string, code?: string, errors: FieldError[] = [], retryAfterSeconds?: number) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.code = code;
    this.errors = errors;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
