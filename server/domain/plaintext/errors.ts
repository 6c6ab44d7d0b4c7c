import { DomainError } from '../errors.ts';

/**
 * Error codes of a journal import. Each detail starts with `line N:` and `errors` names the line
 * as the field `line.N`, so a client can point at it.
 */
export const JOURNAL_ERRORS = {
  /** Syntax we cannot read: a bad date, a malformed amount, an unknown account root. */
  invalid: 'INVALID_JOURNAL',
  /** A directive or feature we do not import (prices, costs, balance assertions, include, ...). */
  unsupported: 'UNSUPPORTED_DIRECTIVE',
  /** A commodity that is not an ISO 4217 currency. */
  commodity: 'UNSUPPORTED_COMMODITY',
} as const;

export function journalError(code: string, line: number, message: string): DomainError {
  return new DomainError(code, `line ${line}: ${message}`, [{ field: `line.${line}`, message }]);
}

export function invalid(line: number, message: string): never {
  throw journalError(JOURNAL_ERRORS.invalid, line, message);
}

export function unsupported(line: number, what: string): never {
  throw journalError(JOURNAL_ERRORS.unsupported, line, `${what} is not supported by the import`);
}

/** The same error, with `line N:` in front of its detail (a journal rule failing on one transaction). */
export function atLine(error: DomainError, line: number): DomainError {
  return new DomainError(error.code, `line ${line}: ${error.message}`, [
    { field: `line.${line}`, message: error.message },
  ]);
}

/** Shortens a value for quoting in an error message. */
export function shown(value: string, max = 60): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
}
