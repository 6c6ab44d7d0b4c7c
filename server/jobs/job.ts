import type { LedgerDb } from '../db/stores.ts';

/**
 * The port between the job worker and the features whose use cases it runs. The worker knows
 * nothing of any feature: each feature defines its jobs (`<feature>.jobs.ts`) against these types,
 * and the composition (server/job-table.ts) gathers them into the one table the runner and the
 * worker are given. The arrow points down: features -> jobs, never jobs -> features.
 */

/** What a job is given besides its connection and input. */
export interface JobContext {
  /** Hands a piece of text to the request that runs the job (only for `JobQueue.stream`). */
  write(text: string): void;
}

/**
 * How a job meets the user's other requests (JobRunner). `writes`: the user's writes wait for it,
 * and the server's connection refuses to write meanwhile. `reads`: it reads its own snapshot and
 * the user's writes go on. `opens`: it runs before the server has a connection to the file (a
 * migration), while the user's requests wait for the ledger to open.
 */
export type JobKind = 'writes' | 'reads' | 'opens';

/** How a job is named to the user when it is stopped at its budget, and what they can do then. */
export interface JobWords {
  /** The job as the subject of a sentence: "This statement import". */
  what: string;
  advice: string;
}

export interface JobDef<I = any, O = any> {
  kind: JobKind;
  words: JobWords;
  /**
   * A `writes` job whose input is at most INLINE_BYTES may run on the server's thread, without the
   * worker's round trip. Only for jobs whose work is linear in their input (a statement's rows): no
   * budget can stop a job there. A function says it of the ledger at hand (a statement's rows are
   * matched against its rules, linear only while none is a regex).
   */
  inline?: boolean | ((db: LedgerDb) => boolean);
  run(db: LedgerDb, input: I, context: JobContext): O | Promise<O>;
}

export type JobTable = Record<string, JobDef>;
export type JobName<T extends JobTable> = keyof T & string;
export type JobInput<T extends JobTable, N extends keyof T> = Parameters<T[N]['run']>[1];
export type JobOutput<T extends JobTable, N extends keyof T> = Awaited<ReturnType<T[N]['run']>>;

/** The jobs a holder of a user's queue asks for itself (`JobQueue.hold`): they do not wait for the hold. */
export interface OwnJobs<T extends JobTable> {
  run<N extends JobName<T>>(name: N, input: JobInput<T, N>): Promise<JobOutput<T, N>>;
}

/** What a feature asks of the job runner, for the jobs of its own table `T`. */
export interface JobQueue<T extends JobTable> {
  /**
   * Queues a job on the user's ledger; resolves with its result or rejects with its error (a
   * DomainError as thrown; JOB_BUDGET_EXCEEDED when it ran past its time or memory budget). Given
   * its input's `size` in bytes, a small `inline` job may run at once on this thread. Byte arrays
   * in the input are moved to the worker: do not read them after this call.
   */
  run<N extends JobName<T>>(userId: string, name: N, input: JobInput<T, N>, size?: number): Promise<JobOutput<T, N>>;
  /**
   * Queues a streamed `reads` job. Each piece of its output is handed to `onPiece` with `taken`, to
   * be called once the piece is written out. An aborted `signal` stops the job at its next piece.
   */
  stream<N extends JobName<T>>(
    userId: string,
    name: N,
    input: JobInput<T, N>,
    onPiece: (piece: Uint8Array, taken: () => void) => void,
    signal: AbortSignal,
  ): Promise<JobOutput<T, N>>;
  /**
   * Starts the worker now when none runs, because a job is likely soon (a statement imported is
   * reconciled next): a fresh worker loads the app's modules first, which takes longer than a small
   * job itself. Retired when idle, as after any job.
   */
  prewarm(): void;
  /** Holds the user's queue while `work` runs (a restore); see JobRunner.hold. */
  hold<R>(userId: string, work: (own: OwnJobs<T>) => Promise<R>): Promise<R>;
}

/** A job definition, keeping the exact types of its `run` (an identity). */
export function defineJob<D extends JobDef>(def: D): D {
  return def;
}
