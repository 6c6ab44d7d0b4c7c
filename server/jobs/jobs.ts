import { isMarkedAsUntransferable } from 'node:worker_threads';
import type { LedgerDb } from '../db/stores.ts';
import { createStatementBody } from '../contract/statements.ts';
import type { Thresholds } from '../domain/reconciliation/index.ts';
import { DomainError } from '../domain/errors.ts';
import { validateConsuming } from '../contract/validation.ts';
import { runReconciliation, type RunInput } from '../features/reconciliation/reconciliation.run.service.ts';
import {
  createStatement,
  importStatementFile,
  type ImportFileInput,
} from '../features/statements/statements.service.ts';
import { importJournal, writeExport } from '../features/export/export.service.ts';
import type { ExportQuery } from '../contract/export.ts';
import { migrate, type Migration } from '../db/migrate.ts';
import { stageLedgerCopy } from '../db/stores.ts';
import { backupLedger } from '../features/backup/backup.repository.ts';
import type { JournalFormat } from '../domain/plaintext/index.ts';

/**
 * The long use cases, run by the job worker on its own connection to the ledger file, each in
 * its one transaction as usual: what they parse, check, score and write can take seconds on big
 * inputs, and better-sqlite3 is synchronous, so on the server's thread they would stop every
 * other request meanwhile. Inputs and results cross threads by structured clone; a streamed job
 * (an export) also hands its output on in pieces as it makes them, through `context.write`.
 */

/** What a job is given besides its connection and input. */
export interface JobContext {
  /** Hands a piece of text to the request that runs the job (only for `JobRunner.stream`). */
  write(text: string): void;
}

/**
 * The UTF-8 text of a job's input bytes (a request body, an upload), or `invalid()` if they are not
 * UTF-8. The bytes are consumed: their memory is given back once decoded (a 100,000-row statement is
 * ~12 MB), even while something else still refers to their buffer (Node's handler of the message
 * that brought them to the worker).
 */
function takeUtf8(input: { bytes: Uint8Array }, invalid: () => DomainError): string {
  const { bytes } = input;
  input.bytes = new Uint8Array();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalid();
  }
  ownBuffer(bytes)?.transfer(0);
  return text;
}

/** The buffer of `bytes` when they are all of it and it may be detached (not one of Node's shared pools). */
export function ownBuffer(bytes: Uint8Array): ArrayBuffer | undefined {
  const { buffer } = bytes;
  return buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === buffer.byteLength &&
    bytes.byteLength > 0 &&
    !isMarkedAsUntransferable(buffer)
    ? buffer
    : undefined;
}

const malformedJson = () => new DomainError('MALFORMED_JSON', 'The request body is not valid JSON');

/** A JSON request body as body-parser reads it: no text is `{}`. */
function parseJsonText(text: string): unknown {
  if (text.length === 0) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw malformedJson();
  }
}

/** The items of an array, each let go by the array once given. */
function* consume<T>(items: T[]): Generator<T> {
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    (items as (T | undefined)[])[i] = undefined;
    yield item;
  }
}

export const JOBS = {
  /**
   * POST /api/statements: the JSON body (up to 100,000 transactions, ~12 MB) parsed and validated
   * here, off the event loop. Each form of it is let go as soon as the next is made (bytes, text,
   * parsed rows, checked rows), so that no two are held whole at once.
   */
  createStatement(db: LedgerDb, input: { bytes: Uint8Array }) {
    // No local holds the bytes, the text or the parsed body: each is garbage once the next is made.
    const checked = validateConsuming(
      createStatementBody,
      'transactions',
      parseJsonText(takeUtf8(input, malformedJson)),
      'body',
    );
    return createStatement(db, { ...checked, transactions: consume(checked.transactions) });
  },
  /** POST /api/statements/import: the file parsed, checked and stored. */
  importStatementFile(db: LedgerDb, input: ImportFileInput) {
    return importStatementFile(db, input);
  },
  /** POST /api/import/journal: the journal (up to 20 MiB) decoded, parsed, checked and posted. */
  importJournal(db: LedgerDb, input: { bytes: Uint8Array; format: JournalFormat }) {
    const text = takeUtf8(
      input,
      () =>
        new DomainError('INVALID_JOURNAL', 'The journal is not UTF-8 text', [
          { field: 'file', message: 'is not UTF-8 text' },
        ]),
    );
    return importJournal(db, text, input.format);
  },
  /** POST /api/reconciliation/run */
  runReconciliation(db: LedgerDb, input: { run: RunInput; thresholds: Thresholds }) {
    return runReconciliation(db, input.run, input.thresholds);
  },
  /** GET /api/export: the text goes out in pieces (hundreds of MB at a million entries). */
  exportBooks(db: LedgerDb, input: ExportQuery, context: JobContext) {
    writeExport(db, input, (text) => context.write(text));
    return null;
  },
  /** POST /api/backup and the daily backup: a copy of a GB-sized file, and its sync to disk. */
  backupLedger(db: LedgerDb, input: { to: string }) {
    return backupLedger(db, input.to);
  },
  /** A restore's copy of the backup, checked and migrated before it is swapped in. */
  stageRestore(_db: LedgerDb, input: { from: string; to: string; migrations: Migration[] }) {
    stageLedgerCopy(input.from, input.to, input.migrations);
    return null;
  },
  /** The first request after an app upgrade: migrations may rewrite every row. */
  migrateLedger(db: LedgerDb, input: { migrations: Migration[] }) {
    migrate(db.sqlite, input.migrations, db.sqlite.name);
    return null;
  },
};

/**
 * How a job meets the user's other requests (JobRunner). `writes`: the user's writes wait for it,
 * and the server's connection refuses to write meanwhile. `reads`: it reads its own snapshot and
 * the user's writes go on. `opens`: it runs before the server has a connection to the file (a
 * migration), while the user's requests wait for the ledger to open.
 */
export const JOB_KINDS: Readonly<Record<JobName, 'writes' | 'reads' | 'opens'>> = {
  createStatement: 'writes',
  importStatementFile: 'writes',
  importJournal: 'writes',
  runReconciliation: 'writes',
  exportBooks: 'reads',
  backupLedger: 'reads',
  stageRestore: 'reads',
  migrateLedger: 'opens',
};

export type JobName = keyof typeof JOBS;
export type JobInput<N extends JobName> = Parameters<(typeof JOBS)[N]>[1];
export type JobOutput<N extends JobName> = Awaited<ReturnType<(typeof JOBS)[N]>>;
