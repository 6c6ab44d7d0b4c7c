import { Worker } from 'node:worker_threads';
import type { LedgerDb } from '../db/stores.ts';
import { DomainError } from '../domain/errors.ts';
import { ownBuffer } from './input.ts';
import { budgetExceeded, DEFAULT_JOB_BUDGET, HEAP_WATCH_MS, type JobBudget } from './job-budget.ts';
import type { JobContext, JobInput, JobName, JobOutput, JobQueue, JobTable, JobWords, OwnJobs } from './job.ts';
import type { JobFailure, JobReply, JobTask, WorkerSetup } from './job-worker.ts';
import { PieceFlow } from './piece-flow.ts';
import { UserTurns } from './user-turns.ts';

export { DEFAULT_JOB_BUDGET, type JobBudget } from './job-budget.ts';

/**
 * A job whose input is at most this many bytes (a statement of a few hundred rows) takes a few
 * milliseconds: an `inline` job of that size runs right here, without the worker's round trip
 * and start-up.
 */
export const INLINE_BYTES = 64 * 1024;

const WORKER_YOUNG_GENERATION_MB = 8;

/**
 * A worker whose heap has grown past this after a job (a big run or export leaves mostly garbage V8
 * has no reason to collect yet) is retired as soon as it has nothing left to do, so that the next big
 * job starts from a small heap instead of adding to a grown one. A worker after small jobs stays
 * until it idles (idleMs). The threshold's measurements: bench/README.md ("Memory settings").
 */
export const RETIRE_HEAP_BYTES = 40 * 1024 * 1024;

const MB = 1024 * 1024;

/** The worker's module beside this one: `.ts` run from the sources, `.js` compiled (the desktop app). */
const WORKER_MODULE = new URL(import.meta.url.endsWith('.ts') ? './job-worker.ts' : './job-worker.js', import.meta.url);

/** A lease on a user's ledger connection: it stays open until released. */
export interface LedgerLease {
  db: LedgerDb;
  release(): void;
}

export interface JobRunnerOptions<T extends JobTable> {
  /** The jobs (the composition's table), run here when inline. */
  table: T;
  /** The URL of the module that exports `table` as `JOB_TABLE`, loaded by the worker. */
  tableModule: string;
  /** The user's ledger file, already opened and migrated by the server's own connection. */
  fileOf(userId: string): string;
  /**
   * The server's connection to that ledger, kept open while a writing job runs: it refuses to write
   * while a job writes the file.
   */
  leaseOf(userId: string): LedgerLease;
  /** Each job's time and memory budget (default DEFAULT_JOB_BUDGET). */
  budget?: Partial<JobBudget>;
  /** An idle worker is stopped after this long (ms), giving its memory back. */
  idleMs?: number;
  /** A worker whose heap is this big after a job is stopped once idle (default RETIRE_HEAP_BYTES). */
  retireHeapBytes?: number;
  /** Told when the worker starts a job while idle (true) and when it has finished every job it was given (false). */
  onBusyChange?(busy: boolean): void;
}

interface Waiting {
  words: JobWords;
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
 * Jobs run one at a time. Each user has a queue of their own, in the order they asked; the worker
 * takes turns between users, the next job always coming from the user served least recently, so
 * one user's many or heavy jobs hold another's for at most the job running when it was asked. A
 * job runs within a budget (JobBudget): past its time or its memory (read from the worker's heap
 * as it runs, HEAP_WATCH_MS) the worker is stopped; either way its transaction never commits, it
 * fails with JOB_BUDGET_EXCEEDED, and the next job starts on a fresh worker.
 *
 * While a user has a writing job queued or running, that user's other writing requests wait for
 * it (`idle`, awaited by the app before their handler), instead of blocking the thread on
 * SQLite's write lock; a write that still meets a running job is refused with LEDGER_BUSY rather
 * than wait synchronously. Jobs that only read (an export, a backup) read their own snapshot, so
 * the user's writes neither wait for them nor are refused. A streamed job's output comes back in
 * pieces as it goes (`stream`).
 *
 * A restore replaces the user's ledger file: it holds the user's queue (`hold`) meanwhile, so that
 * no job of that user has the file open across the swap.
 */
export class JobRunner<T extends JobTable> implements JobQueue<T> {
  private readonly options: JobRunnerOptions<T>;
  private readonly budget: JobBudget;
  private worker: Worker | undefined;
  /** A stopped worker until its thread is gone (its SQLite connection closed, its locks released). */
  private stopping: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private readonly turns = new UserTurns();
  /** Per user, the end of the last job they asked (holds wait for it). */
  private readonly lastJobOfUser = new Map<string, Promise<void>>();
  /** Per user, the end of the last writing job they asked (their writes wait for it). */
  private readonly lastWriteOfUser = new Map<string, Promise<void>>();
  /** Per user, the end of the last hold of their queue (`hold`). */
  private readonly holds = new Map<string, Promise<void>>();
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** The last job left the worker's heap past retireHeapBytes. */
  private grown = false;
  private started = 0;
  private busy = false;

  constructor(options: JobRunnerOptions<T>) {
    this.options = options;
    this.budget = { ...DEFAULT_JOB_BUDGET, ...options.budget };
  }

  run<N extends JobName<T>>(userId: string, name: N, input: JobInput<T, N>, size?: number): Promise<JobOutput<T, N>> {
    return this.ask(userId, name, input, size, this.holds.get(userId));
  }

  /**
   * Holds the user's queue while `work` runs (a restore: stage the backup, copy the ledger, swap
   * the file), so that none of the user's jobs has the ledger file open meanwhile. `work` starts
   * once the user's jobs asked before it are done; until it settles, the user's writes wait
   * (`idle`) and the user's jobs asked meanwhile join the queue only after it, so they run on the
   * ledger as `work` leaves it. The jobs `work` asks through `own` go ahead (waiting for the hold
   * they would wait for themselves); `work` must not await `idle` of its user. Other users' jobs
   * keep their turns.
   */
  hold<R>(userId: string, work: (own: OwnJobs<T>) => Promise<R>): Promise<R> {
    if (this.closed) return Promise.reject(shuttingDown());
    const own: OwnJobs<T> = { run: (name, input) => this.ask(userId, name, input, undefined, undefined) };
    // Jobs deferred by an earlier hold join the queue when it ends, before this one reads the user's last job.
    const result = (this.holds.get(userId) ?? Promise.resolve())
      .then(() => this.lastJobOfUser.get(userId))
      .then(() => work(own));
    const released = result.then(ignore, ignore);
    this.holds.set(userId, released);
    void released.then(() => {
      if (this.holds.get(userId) === released) this.holds.delete(userId);
    });
    return result;
  }

  /** `run`, for a job that waits for `held` (a hold of the user's queue) before joining the queue. */
  private ask<N extends JobName<T>>(
    userId: string,
    name: N,
    input: JobInput<T, N>,
    size: number | undefined,
    held: Promise<void> | undefined,
  ): Promise<JobOutput<T, N>> {
    if (this.closed) return Promise.reject(shuttingDown());
    const def = this.options.table[name]!;
    if (def.kind !== 'writes')
      return this.queue(userId, held, () => this.dispatch<JobOutput<T, N>>(userId, name, input));
    if (def.inline && size !== undefined && size <= INLINE_BYTES && !held && !this.lastWriteOfUser.has(userId)) {
      const lease = this.options.leaseOf(userId);
      try {
        if (def.inline === true || def.inline(lease.db))
          return Promise.resolve(def.run(lease.db, input, INLINE_CONTEXT) as JobOutput<T, N>);
      } catch (error) {
        return Promise.reject(error);
      } finally {
        lease.release();
      }
    }
    const result = this.queue(userId, held, () => this.dispatch<JobOutput<T, N>>(userId, name, input));
    this.remember(this.lastWriteOfUser, userId, result);
    return result;
  }

  /** Keeps the end of `job` as the user's latest in `map`, until a later one replaces it. */
  private remember(map: Map<string, Promise<void>>, userId: string, job: Promise<unknown>): void {
    const settled = job.then(ignore, ignore);
    map.set(userId, settled);
    void settled.then(() => {
      if (map.get(userId) === settled) map.delete(userId);
    });
  }

  /**
   * Puts `job` at the end of the user's queue (while `held`, once the hold is over); the worker
   * takes it in the user's turn. None starts once closed.
   */
  private queue<R>(userId: string, held: Promise<void> | undefined, job: () => Promise<R>): Promise<R> {
    if (held) return held.then(() => this.queue(userId, undefined, job));
    const result = new Promise<R>((resolve, reject) => {
      this.turns.add(userId, (done) => {
        const ran = this.closed ? Promise.reject(shuttingDown()) : job();
        void ran.then(resolve, reject).finally(done);
      });
    });
    this.remember(this.lastJobOfUser, userId, result);
    return result;
  }

  stream<N extends JobName<T>>(
    userId: string,
    name: N,
    input: JobInput<T, N>,
    onPiece: (piece: Uint8Array, taken: () => void) => void,
    signal: AbortSignal,
  ): Promise<JobOutput<T, N>> {
    if (this.options.table[name]!.kind !== 'reads') return Promise.reject(new Error(`the job ${name} does not stream`));
    if (this.closed) return Promise.reject(shuttingDown());
    const flow = new PieceFlow();
    const stop = () => flow.stop();
    signal.addEventListener('abort', stop, { once: true });
    const result = this.queue(userId, this.holds.get(userId), () =>
      signal.aborted
        ? Promise.reject(new Error('the request was closed before the job started'))
        : this.dispatch<JobOutput<T, N>>(userId, name, input, {
            flow,
            onPiece: (piece) => onPiece(piece, () => flow.taken()),
          }),
    );
    return result.finally(() => signal.removeEventListener('abort', stop));
  }

  prewarm(): void {
    if (this.closed || this.worker) return;
    void this.stopping.then(() => {
      if (this.closed || this.worker) return;
      this.ensureWorker();
      if (this.waiting.size === 0) this.stopWhenIdle();
    });
  }

  /** Resolves once the user has no writing job queued or running and their queue is not held. */
  async idle(userId: string): Promise<void> {
    const pending = () => this.lastWriteOfUser.get(userId) ?? this.holds.get(userId);
    for (let last = pending(); last; last = pending()) await last;
  }

  /** Stops the worker; jobs still waiting fail. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
    await this.stopping;
    this.failAll(shuttingDown());
    // Each fails at once (closed).
    for (const start of this.turns.drain()) start(ignore);
  }

  private async dispatch<R>(
    userId: string,
    name: string,
    input: unknown,
    stream?: { flow: PieceFlow; onPiece: (piece: Uint8Array) => void },
  ): Promise<R> {
    clearTimeout(this.idleTimer);
    // A stopped worker's thread must be gone (its write lock released) before the next job opens the file.
    await this.stopping;
    if (this.closed) throw shuttingDown();
    // Only a writing job keeps the server's connection from writing (a migration runs before there is one).
    const lease = this.options.table[name]!.kind === 'writes' ? this.options.leaseOf(userId) : undefined;
    const task: JobTask = {
      id: this.nextId++,
      file: this.options.fileOf(userId),
      name,
      input,
      ...(stream ? { flow: stream.flow.buffer } : {}),
    };
    if (lease) lease.db.busyWith = name;
    this.setBusy(true);
    const overTime = setTimeout(() => this.stopJob(task.id, 'time'), this.budget.ms);
    const heapWatch = setInterval(() => this.watchHeap(task.id), HEAP_WATCH_MS);
    try {
      return await new Promise<R>((resolve, reject) => {
        this.waiting.set(task.id, {
          words: this.options.table[name]!.words,
          resolve: resolve as (value: unknown) => void,
          reject,
          ...(stream ? { onPiece: stream.onPiece } : {}),
        });
        this.ensureWorker().postMessage(task, movableBuffers(input));
      });
    } finally {
      clearTimeout(overTime);
      clearInterval(heapWatch);
      if (lease) {
        lease.db.busyWith = null;
        lease.release();
      }
      if (this.waiting.size === 0) {
        this.setBusy(false);
        if (this.grown) this.retire();
        else this.stopWhenIdle();
      }
    }
  }

  /** How many workers have been started (each retired or stopped one is replaced by a new one when needed). */
  get workersStarted(): number {
    return this.started;
  }

  /** Stops the job `id` once the worker's used heap is past the budget (HEAP_WATCH_MS). */
  private watchHeap(id: number): void {
    const worker = this.worker;
    if (!worker || !this.waiting.has(id)) return;
    worker.getHeapStatistics().then((heap) => {
      if (heap.used_heap_size > this.budget.heapMb * MB && this.worker === worker) this.stopJob(id, 'memory', true);
    }, ignore);
  }

  /**
   * Stops the worker under a job past its budget (`terminate`: here; else V8 stopped it at its
   * limit). The job fails once the thread is gone: its transaction never committed, and its
   * connection, closed with the thread, holds no lock.
   */
  private stopJob(id: number, why: 'time' | 'memory', terminate = why === 'time'): void {
    const waiting = this.waiting.get(id);
    const worker = this.worker;
    if (!waiting || !worker) return;
    this.waiting.delete(id);
    this.worker = undefined;
    const gone = terminate ? worker.terminate() : new Promise((resolve) => worker.once('exit', resolve));
    this.stopping = gone.then(ignore, ignore);
    void this.stopping.then(() => waiting.reject(budgetExceeded(waiting.words, why, this.budget)));
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
      workerData: { tableModule: this.options.tableModule } satisfies WorkerSetup,
      resourceLimits: {
        maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB,
        maxOldGenerationSizeMb: this.budget.heapMb * 2,
      },
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
    worker.on('error', (error: Error & { code?: string }) => {
      if (this.worker !== worker) return;
      // V8 stopped the job at the worker's heap limit: its budget.
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        for (const id of this.waiting.keys()) this.stopJob(id, 'memory');
      } else this.lost(worker, error.message);
    });
    worker.on('exit', (code) => this.lost(worker, `exit code ${code}`));
    this.worker = worker;
    return worker;
  }

  private lost(worker: Worker, why: string): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.failAll(new Error(`the job worker stopped: ${why}`));
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
