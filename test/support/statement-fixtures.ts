import { readFileSync, readdirSync } from 'node:fs';
import { expect } from 'vitest';
import { DomainError } from '../../server/domain/errors.ts';
import { parseStatementFile, type ParseResult } from '../../server/domain/statements/index.ts';

/**
 * What the statement parsers' tests share: the real bank files in test/fixtures/statements/, text
 * as the bytes an upload brings, and the message of a file the parsers refuse.
 */
const FIXTURES_DIR = new URL('../fixtures/statements/', import.meta.url);

/** Every bank file there (the folder's README aside). */
export const fixtureNames = (): string[] => readdirSync(FIXTURES_DIR).filter((name) => name !== 'README.md');

export const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(name, FIXTURES_DIR)));

export const parseFixture = (name: string): ParseResult => parseStatementFile(fixture(name));

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The message `run` refuses a file with; the test fails unless it throws INVALID_STATEMENT_FILE. */
export function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('INVALID_STATEMENT_FILE');
    return (error as DomainError).message;
  }
  throw new Error('expected the file to be refused');
}
