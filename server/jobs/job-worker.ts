import v8 from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteFile, SqliteDb } from '../db/sqlite.ts';
import type { LedgerSchema } from '../db/schema.ts';
import { DomainError } from '../domain/errors.ts';
import type { JobContext, JobTable } from './job.ts';
import { PieceFlow } from './piece-flow.ts';

/**
 * The job worker: a thread that runs one job at a time on its own connection to the job's ledger
 * file (WAL: the server's thread keeps reading the last committed state meanwhile). The file is
 * opened for each job and closed after it, so a ledger replaced in between (a restore) is never
 * written through a stale handle. The file is migrated before any other job is sent (on the server's
 * thread, or here as the `migrateLedger` job). The jobs come from the module the runner names
 * (the composition's table): this folder knows no feature.
 */

export interface WorkerSetup {
  /** The URL of the module that exports the job table as `JOB_TABLE`. */
  tableModule: string;
}

export interface JobTask {
  id: number;
  file: string;
  name: string;
  input: unknown;
  /** A streamed job's flow control (piece-flow.ts); its pieces come back as `{ id, piece }` before the reply. */
  flow?: SharedArrayBuffer;
}

export type JobFailure =
  | { kind: 'domain'; code: string; message: string; errors: DomainError['errors'] }
  | { kind: 'error'; name: string; message: string; code: string | undefined; stack: string | undefined };

/** A job's end carries the worker's heap size then (`heapBytes`), so the runner can retire a worker that grew. */
export type JobReply =
  | { id: number; value: unknown; heapBytes: number }
  | { id: number; failure: JobFailure; heapBytes: number }
  | { id: number; piece: Uint8Array };

function failureOf(error: unknown): JobFailure {
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

const encoder = new TextEncoder();

function contextOf(task: JobTask): JobContext {
  const flow = task.flow ? new PieceFlow(task.flow) : undefined;
  return {
    write(text: string) {
      if (!flow) throw new Error(`the job ${task.name} was not started as a stream`);
      if (text.length === 0) return;
      flow.reserve();
      const piece = encoder.encode(text);
      parentPort!.postMessage({ id: task.id, piece } satisfies JobReply, [piece.buffer]);
    },
  };
}

async function run(table: JobTable, task: JobTask): Promise<JobReply> {
  let db: SqliteDb<LedgerSchema> | undefined;
  try {
    const job = table[task.name];
    if (!job) throw new Error(`no job named ${task.name}`);
    db = new SqliteDb<LedgerSchema>(openSqliteFile(task.file));
    // A backup is asynchronous (SQLite's backup steps); the runner sends the next task only after this reply.
    const value = await job.run(db, task.input, contextOf(task));
    return { id: task.id, value, heapBytes: v8.getHeapStatistics().total_heap_size };
  } catch (error) {
    return { id: task.id, failure: failureOf(error), heapBytes: v8.getHeapStatistics().total_heap_size };
  } finally {
    db?.close();
  }
}

// Tasks sent before the table is loaded wait in the port until the listener is added.
const { JOB_TABLE } = (await import((workerData as WorkerSetup).tableModule)) as { JOB_TABLE: JobTable };
parentPort!.on('message', (task: JobTask) => {
  void run(JOB_TABLE, task).then((reply) => parentPort!.postMessage(reply));
});
