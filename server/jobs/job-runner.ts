import { Worker } from 'node:worker_threads';
import type { LedgerDb } from '../db/stores.ts';
import { DomainError } from '../domain/errors.ts';
import type { JobFailure, JobReply, JobTask } from './job-worker.ts';
import { JOB_KINDS, JOBS, ownBuffer, type JobContext, type JobInput, type JobName, type JobOutput } from './jobs.ts';
import { PieceFlow } from './piece-flow.ts';

/**
 * A job whose input is at most this many bytes (a statement of a few hundred rows, a journal of
 * a few hundred entries) takes a few milliseconds: it runs right here, without the worker's
 * round trip and start-up.
 */
export const INLINE_BYTES = 64 * 1024;

const WORKER_YOUNG_GENERATION_MB = 8;

/**
 * A worker whose heap has grown past this after a job (a fresh one has ~26 MB; a reconciliation
 * run over a million entries or an export leaves 55–75 MB, mostly garbage V8 has no reason to
 * collect yet; a 100,000-row import ~34, a run over 100,000 entries ~32) is retired as soon as
 * it has nothing left to do, so that the next big job starts from a small heap instead of adding
 * to a grown one; the new worker takes ~0.2 s to start. A worker after small jobs stays until it
 * idles (idleMs). Retiring at 32 MB doubled a 10,000-row import's time and lowered no peak.
 */
export const RETIRE_HEAP_BYTES = 40 * 1024 * 1024;

/** The worker's module beside this one: `.ts` run from the sources, `.js` compiled (the desktop app). */
const WORKER_MODULE = new URL(import.meta.url.endsWith('.ts') ? './job-worker.ts' : './job-worker.js', import.meta.url);

export interface JobRunnerOptions {
  /** The user's ledger file, already opened and migrated by the server's own connection. */
  fileOf(userId: string): string;
  /** The server's connection to that ledger: it refuses to write while a job writes the file. */
  ledgerOf(userId: string): LedgerDb;
  /** An idle worker is stopped after this long (ms), giving its memory back. */
  idleMs?: number;
  /** A worker whose heap is this big after a job is stopped once idle (default RETIRE_HEAP_BYTES). */
  retireHeapBytes?: number;
  /** Told when the worker starts a job while idle (true) and when it has finished every job it was given (false). */
  onBusyChange?(busy: boolean): void;
}

interface Waiting {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  onPiece?: (piece: Uint8Array) => void;
}

/** A job run on the server's thread has no stream to write to. */
const INLINE_CONTEXT: JobContext = {
  write() {
    throw new Error('a streamed job runs on the worker');
  },
};

/**
 * The byte arrays among a job's input fields that own their whole buffer (a request body, an
 * upload): moved to the worker rather than copied, so that a 20 MB statement is not held twice.
 * The caller must not read them after `run`.
 */
function movableBuffers(input: unknown): ArrayBuffer[] {
  if (input === null || typeof input !== 'object') return [];
  const out: ArrayBuffer[] = [];
  for (const value of Object.values(input)) {
    const buffer = value instanceof Uint8Array ? ownBuffer(value) : undefined;
    if (buffer) out.push(buffer);
  }
  return out;
}

function shuttingDown(): DomainError {
  return new DomainError('SERVICE_UNAVAILABLE', 'The server is shutting down');
}

const ignore = () => undefined;

/** The jobs a holder of a user's queue asks for itself (`JobRunner.hold`): they do not wait for the hold. */
export interface OwnJobs {
  run<N extends JobName>(name: N, input: JobInput<N>): Promise<JobOutput<N>>;
}

function errorOf(failure: JobFailure): Error {
  if (failure.kind === 'domain') return new DomainError(failure.code, failure.message, failure.errors);
  const error = new Error(failure.message) as Error & { code?: string };
  error.name = failure.name;
  if (failure.code !== undefined) error.code = failure.code;
  if (failure.stack !== undefined) error.stack = failure.stack;
  return error;
}

/**
 * Runs the long use cases (big statement imports, reconciliation runs, exports, backups, migrations
 * of big ledgers) on a worker thread, so that no request stops the server for more than a moment:
 * they stay one transaction each, atomic as before, while the server's thread keeps answering from
 * the last committed state.
 *
 * Jobs run one at a time, in the order asked. While a user has a job queued or running, that
 * user's other writing requests wait for it (`idle`, awaited by the app before their handler),
 * instead of blocking the thread on SQLite's write lock; a write that still meets a running job
 * is refused with LEDGER_BUSY rather than wait synchronously.
 *
 * Jobs that only read (an export, a backup: JOB_KINDS) read their own snapshot, so the user's
 * writes neither wait for them nor are refused; they take their turn in the same queue. A streamed
 * job's output comes back in pieces as it goes (`stream`).
 *
 * A restore replaces the user's ledger file: it holds the user's queue (`hold`) meanwhile, so that
 * no job of that user has the file open across the swap.
 */
export class JobRunner {
  private readonly options: JobRunnerOptions;
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private tail: Promise<unknown> = Promise.resolve();
  private readonly lastOfUser = new Map<string, Promise<void>>();
  /** Per user, the end of the last hold of their queue (`hold`). */
  private readonly holds = new Map<string, Promise<void>>();
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** The last job left the worker's heap past retireHeapBytes. */
  private grown = false;
  private started = 0;
  private busy = false;

  constructor(options: JobRunnerOptions) {
    this.options = options;
  }

  /**
   * Queues a job on the user's ledger; resolves with its result or rejects with its error (a
   * DomainError as thrown). Given its input's `size` in bytes, a small job with nothing queued
   * before it for that user runs at once on this thread. Byte arrays in the input are moved to the
   * worker (movableBuffers): do not read them after this call.
   */
  run<N extends JobName>(userId: string, name: N, input: JobInput<N>, size?: number): Promise<JobOutput<N>> {
    return this.ask(userId, name, input, size, this.holds.get(userId));
  }

  /**
   * Holds the user's queue while `work` runs (a restore: stage the backup, copy the ledger, swap
   * the file), so that none of the user's jobs has the ledger file open meanwhile. `work` starts
   * once the jobs asked before it are done (all users': the one queue); until it settles, the
   * user's writes wait (`idle`) and the user's jobs asked meanwhile join the queue only after it,
   * so they run on the ledger as `work` leaves it. The jobs `work` asks through `own` go ahead
   * (waiting for the hold they would wait for themselves); `work` must not await `idle` of its user.
   * Other users' jobs keep their places in the queue.
   */
  hold<T>(userId: string, work: (own: OwnJobs) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(shuttingDown());
    const own: OwnJobs = { run: (name, input) => this.ask(userId, name, input, undefined, undefined) };
    // Jobs deferred by an earlier hold join the queue when it ends, before this one reads the queue's end.
    const result = (this.holds.get(userId) ?? Promise.resolve()).then(() => this.tail).then(() => work(own));
    const released = result.then(ignore, ignore);
    this.holds.set(userId, released);
    void released.then(() => {
      if (this.holds.get(userId) === released) this.holds.delete(userId);
    });
    return result;
  }

  /** `run`, for a job that waits for `held` (a hold of the user's queue) before joining the queue. */
  private ask<N extends JobName>(
    userId: string,
    name: N,
    input: JobInput<N>,
    size: number | undefined,
    held: Promise<void> | undefined,
  ): Promise<JobOutput<N>> {
    if (this.closed) return Promise.reject(shuttingDown());
    if (JOB_KINDS[name] !== 'writes')
      return this.queue(held, () => this.dispatch(userId, name, input)) as Promise<JobOutput<N>>;
    if (size !== undefined && size <= INLINE_BYTES && !held && !this.lastOfUser.has(userId)) {
      const job = JOBS[name] as (db: LedgerDb, input: JobInput<N>, context: JobContext) => JobOutput<N>;
      try {
        return Promise.resolve(job(this.options.ledgerOf(userId), input, INLINE_CONTEXT));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    const result = this.queue(held, () => this.dispatch(userId, name, input)) as Promise<JobOutput<N>>;
    const settled = result.then(ignore, ignore);
    this.lastOfUser.set(userId, settled);
    void settled.then(() => {
      if (this.lastOfUser.get(userId) === settled) this.lastOfUser.delete(userId);
    });
    return result;
  }

  /** Puts `job` at the end of the queue (while `held`, at its end once the hold is over); none starts once closed. */
  private queue<T>(held: Promise<void> | undefined, job: () => Promise<T>): Promise<T> {
    if (held) return held.then(() => this.queue(undefined, job));
    const result = this.tail.then(() => (this.closed ? Promise.reject(shuttingDown()) : job()));
    this.tail = result.then(ignore, ignore);
    return result;
  }

  /**
   * Queues a streamed job (a `reads` job) on the user's ledger. Each piece of its output is
   * handed to `onPiece` with `taken`, to be called once the piece is written out: the worker waits
   * while a few pieces are not taken (the client's pace reaches it). An aborted `signal` (the
   * request closed) stops the job at its next piece, or before it starts.
   */
  stream<N extends JobName>(
    userId: string,
    name: N,
    input: JobInput<N>,
    onPiece: (piece: Uint8Array, taken: () => void) => void,
    signal: AbortSignal,
  ): Promise<JobOutput<N>> {
    if (JOB_KINDS[name] !== 'reads') return Promise.reject(new Error(`the job ${name} does not stream`));
    if (this.closed) return Promise.reject(shuttingDown());
    const flow = new PieceFlow();
    const stop = () => flow.stop();
    signal.addEventListener('abort', stop, { once: true });
    const result = this.queue(this.holds.get(userId), () =>
      signal.aborted
        ? Promise.reject(new Error('the request was closed before the job started'))
        : this.dispatch(userId, name, input, { flow, onPiece: (piece) => onPiece(piece, () => flow.taken()) }),
    ) as Promise<JobOutput<N>>;
    return result.finally(() => signal.removeEventListener('abort', stop));
  }

  /** Resolves once the user has no writing job queued or running and their queue is not held. */
  async idle(userId: string): Promise<void> {
    const pending = () => this.lastOfUser.get(userId) ?? this.holds.get(userId);
    for (let last = pending(); last; last = pending()) await last;
  }

  /** Stops the worker; jobs still waiting fail. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
    this.failAll(shuttingDown());
  }

  private dispatch(
    userId: string,
    name: JobName,
    input: unknown,
    stream?: { flow: PieceFlow; onPiece: (piece: Uint8Array) => void },
  ): Promise<unknown> {
    clearTimeout(this.idleTimer);
    // Only a writing job keeps the server's connection from writing (a migration runs before there is one).
    const ledger = JOB_KINDS[name] === 'writes' ? this.options.ledgerOf(userId) : undefined;
    const task: JobTask = {
      id: this.nextId++,
      file: this.options.fileOf(userId),
      name,
      input,
      ...(stream ? { flow: stream.flow.buffer } : {}),
    };
    if (ledger) ledger.busyWith = name;
    this.setBusy(true);
    return new Promise((resolve, reject) => {
      this.waiting.set(task.id, { resolve, reject, ...(stream ? { onPiece: stream.onPiece } : {}) });
      this.ensureWorker().postMessage(task, movableBuffers(input));
    }).finally(() => {
      if (ledger) ledger.busyWith = null;
      if (this.waiting.size > 0) return;
      this.setBusy(false);
      if (this.grown) this.retire();
      else this.stopWhenIdle();
    });
  }

  /** How many workers have been started (each retired one is replaced by a new one when needed). */
  get workersStarted(): number {
    return this.started;
  }

  private retire(): void {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    // A job's garbage is mostly large parsed inputs, old by the time they die: a small young
    // generation keeps tens of MB of the worker's memory from sitting in semi-spaces.
    const worker = new Worker(WORKER_MODULE, {
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    worker.unref();
    this.started += 1;
    this.grown = false;
    worker.on('message', (reply: JobReply) => {
      const waiting = this.waiting.get(reply.id);
      if (!waiting) return;
      if ('piece' in reply) {
        waiting.onPiece?.(reply.piece);
        return;
      }
      this.waiting.delete(reply.id);
      this.grown = reply.heapBytes >= (this.options.retireHeapBytes ?? RETIRE_HEAP_BYTES);
      if ('failure' in reply) waiting.reject(errorOf(reply.failure));
      else waiting.resolve(reply.value);
    });
    const lost = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(new Error(`the job worker stopped: ${why}`));
    };
    worker.on('error', (error) => lost(error.message));
    worker.on('exit', (code) => lost(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }

  private failAll(error: unknown): void {
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
    this.setBusy(false);
  }

  private setBusy(busy: boolean): void {
    if (busy === this.busy) return;
    this.busy = busy;
    this.options.onBusyChange?.(busy);
  }

  private stopWhenIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.waiting.size === 0) this.retire();
    }, this.options.idleMs ?? 30_000);
    this.idleTimer.unref();
  }
}
