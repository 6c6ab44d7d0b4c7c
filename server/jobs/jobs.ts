import type { LedgerDb } from '../db/stores.ts';
import { createStatementBody } from '../contract/statements.ts';
import type { Thresholds } from '../domain/reconciliation/index.ts';
import { DomainError } from '../domain/errors.ts';
import { validate } from '../http/route.ts';
import { runReconciliation, type RunInput } from '../features/reconciliation/reconciliation.service.ts';
import { createStatement, importStatementFile, type ImportFileInput } from '../features/statements/statements.service.ts';
import { importJournal } from '../features/export/export.service.ts';
import type { JournalFormat } from '../domain/plaintext/index.ts';

/**
 * The long use cases, run by the job worker on its own connection to the ledger file, each in
 * its one transaction as usual: what they parse, check, score and write can take seconds on big
 * inputs, and better-sqlite3 is synchronous, so on the server's thread they would stop every
 * other request meanwhile. Inputs and results cross threads by structured clone.
 */

/** A JSON request body as body-parser reads it: no bytes is `{}`, anything else must be UTF-8 JSON. */
export function parseJsonBody(bytes: Uint8Array): unknown {
  if (bytes.byteLength === 0) return {};
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new DomainError('MALFORMED_JSON', 'The request body is not valid JSON');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DomainError('MALFORMED_JSON', 'The request body is not valid JSON');
  }
}

export const JOBS = {
  /** POST /api/statements: the JSON body (up to 100,000 transactions) parsed and validated here, off the event loop. */
  createStatement(db: LedgerDb, input: { body: Uint8Array }) {
    return createStatement(db, validate(createStatementBody, parseJsonBody(input.body), 'body'));
  },
  /** POST /api/statements/import: the file parsed, checked and stored. */
  importStatementFile(db: LedgerDb, input: ImportFileInput) {
    return importStatementFile(db, input);
  },
  /** POST /api/import/journal: the journal parsed, checked and posted. */
  importJournal(db: LedgerDb, input: { text: string; format: JournalFormat }) {
    return importJournal(db, input.text, input.format);
  },
  /** POST /api/reconciliation/run */
  runReconciliation(db: LedgerDb, input: { run: RunInput; thresholds: Thresholds }) {
    return runReconciliation(db, input.run, input.thresholds);
  },
};

export type JobName = keyof typeof JOBS;
export type JobInput<N extends JobName> = Parameters<(typeof JOBS)[N]>[1];
export type JobOutput<N extends JobName> = ReturnType<(typeof JOBS)[N]>;
