import { parentPort } from 'node:worker_threads';
import { openSqliteFile, SqliteDb } from '../db/sqlite.ts';
import type { LedgerSchema } from '../db/schema.ts';
import { DomainError } from '../domain/errors.ts';
import { JOBS, type JobName } from './jobs.ts';

/**
 * The job worker: a thread that runs one job at a time on its own connection to the job's ledger
 * file (WAL: the server's thread keeps reading the last committed state meanwhile). The file is
 * opened for each job and closed after it, so a ledger replaced in between (a restore) is never
 * written through a stale handle. The server's thread migrated the file before sending the job.
 */

export interface JobTask {
  id: number;
  file: string;
  name: JobName;
  input: unknown;
}

export type JobFailure =
  | { kind: 'domain'; code: string; message: string; errors: DomainError['errors'] }
  | { kind: 'error'; name: string; message: string; code: string | undefined; stack: string | undefined };

export type JobReply = { id: number; value: unknown } | { id: number; failure: JobFailure };

function failureOf(error: unknown): JobFailure {
  if (error instanceof DomainError) return { kind: 'domain', code: error.code, message: error.message, errors: error.errors };
  const e = error instanceof Error ? error : new Error(String(error));
  const code = (e as { code?: unknown }).code;
  return { kind: 'error', name: e.name, message: e.message, code: typeof code === 'string' ? code : undefined, stack: e.stack };
}

function run(task: JobTask): JobReply {
  let db: SqliteDb<LedgerSchema> | undefined;
  try {
    db = new SqliteDb<LedgerSchema>(openSqliteFile(task.file));
    const job = JOBS[task.name] as (db: SqliteDb<LedgerSchema>, input: unknown) => unknown;
    return { id: task.id, value: job(db, task.input) };
  } catch (error) {
    return { id: task.id, failure: failureOf(error) };
  } finally {
    db?.close();
  }
}

parentPort!.on('message', (task: JobTask) => {
  parentPort!.postMessage(run(task));
});
