import { DomainError } from '../errors.ts';

const INVALID_STATEMENT_FILE = 'INVALID_STATEMENT_FILE';

/** Refuses the file: `detail` names the line (1-based) or element at fault. */
export function fail(detail: string): never {
  throw new DomainError(INVALID_STATEMENT_FILE, detail);
}

/** Shortens a value for quoting in an error message. */
export function quote(value: string, max = 40): string {
  const shown = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(shown);
}
