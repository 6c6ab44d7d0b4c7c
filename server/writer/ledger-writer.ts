import { Worker } from 'node:worker_threads';
import type { LedgerDb } from '../db/stores.ts';
import { DomainError, errorOf } from '../domain/errors.ts';
import type { WriteInput, WriteName, WriteOutput, Writes, WriteTable } from './write.ts';
import type { WriteReply, WriterSetup, WriteTask } from './writer-thread.ts';

/** The thread's module beside this one: `.ts` run from the sources, `.js` compiled (the desktop app). */
const THREAD_MODULE = new URL(
  import.meta.url.endsWith('.ts') ? './writer-thread.ts' : './writer-thread.js',
  import.meta.url,
);

/**
 * After this long without writes (ms), a ledger's connection on the writer's thread is closed, and
 * the thread stopped once it has none (its V8 heap and modules are ~28 MB); the next write starts it
 * again (~0.2 s here). The job worker's wait, for the same reason.
 */
export const DEFAULT_WRITER_IDLE_MS = 30_000;

export interface LedgerWriterOptions {
  /** The URL of the module that exports the write table as `WRITE_TABLE`, loaded by the thread. */
  tableModule: string;
  idleMs?: number;
}

interface Waiting {
  file: string;
  /** The thread it was sent to. */
  worker: Worker;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Per ledger file: the writes sent and not yet answered, and the requests that must write alone. */
interface FileState {
  sent: number;
  drained: Deferred | undefined;
  alone: number;
  resumed: Deferred | undefined;
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function shuttingDown(): DomainError {
  return new DomainError('SERVICE_UNAVAILABLE', 'The server is shutting down');
}

/**
 * Sends the grouped writes (the journal's) to the writer's thread (writer-thread.ts), which runs
 * them with group commit on connections of its own, and answers each once its group is durable:
 * the SQL and the sync of concurrent writes leave the server's thread, which keeps HTTP, sessions,
 * validation and every read. The thread starts with the first write and stops when idle
 * (DEFAULT_WRITER_IDLE_MS), or before a job starts (`retireIfIdle`): the process's memory peaks
 * while a big job runs, and a job worker started after the thread has ended reuses what it freed.
 *
 * Two connections must not wait for each other's lock on the server's thread: a request that
 * writes on the server's connection runs `alone` (new grouped writes to that ledger wait, those
 * sent are answered first), and a job that writes the file waits for the writes sent (`idle`)
 * after it marked the server's connection busy, which refuses new ones (LEDGER_BUSY).
 */
export class LedgerWriter<T extends WriteTable> implements Writes<T> {
  private readonly options: LedgerWriterOptions;
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private readonly files = new Map<string, FileState>();
  private idleTimer: NodeJS.Timeout | undefined;
  /** The end of the threads being stopped. */
  private stopping: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(options: LedgerWriterOptions) {
    this.options = options;
  }

  async run<N extends WriteName<T>>(ledger: LedgerDb, name: N, input: WriteInput<T, N>): Promise<WriteOutput<T, N>> {
    const file = ledger.sqlite.name;
    for (let state = this.files.get(file); state?.resumed; state = this.files.get(file)) await state.resumed.promise;
    if (this.closed) throw shuttingDown();
    // A job writing the file, or a restore that closed the connection: refused as the connection would.
    ledger.assertCanWrite();
    return (await this.send(file, { file, name, input })) as WriteOutput<T, N>;
  }

  /** Resolves once every write sent to `file` has been answered. */
  async idle(file: string): Promise<void> {
    for (let state = this.files.get(file); state?.drained; state = this.files.get(file)) await state.drained.promise;
  }

  /**
   * Runs `work` (a request that writes on the server's own connection) once the grouped writes sent
   * to `file` are answered; new ones wait until it ends.
   */
  async alone<R>(file: string, work: () => Promise<R>): Promise<R> {
    const state = this.state(file);
    state.alone += 1;
    state.resumed ??= deferred();
    try {
      await this.idle(file);
      return await work();
    } finally {
      state.alone -= 1;
      if (state.alone === 0) {
        state.resumed?.resolve();
        state.resumed = undefined;
        this.forget(file, state);
      }
    }
  }

  /**
   * Closes the thread's connection to `file` once the writes sent to it are done (a restore is
   * about to replace the file: a connection kept would go on writing the replaced one). The next
   * write opens it again.
   */
  async release(file: string): Promise<void> {
    if (this.worker) await this.send(file, { close: file });
  }

  /**
   * Sets a pragma on the thread's connection to `file`, opening it if needed: how the tests make a
   * ledger look full (`max_page_count`) or read-only (`query_only`) to the writes sent to it.
   */
  async pragma(file: string, pragma: string): Promise<void> {
    await this.send(file, { file, pragma });
  }

  /** Whether the thread is running. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /**
   * Stops the thread now if no write is waiting for it (its connections closed first), and resolves
   * once it has ended; the next write starts a new one.
   */
  async retireIfIdle(): Promise<void> {
    if (this.worker && this.waiting.size === 0) void this.stop();
    await this.stopping;
  }

  /** Closes the thread's connections (their open groups commit first) and stops it; later writes are refused. */
  async close(): Promise<void> {
    this.closed = true;
    await this.stop();
    this.failAll(shuttingDown());
  }

  /** Closes the thread's connections and stops it; writes sent from now on go to a new thread. */
  private stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    if (!worker) return this.stopping;
    this.worker = undefined;
    const stopped = this.send(null, { close: null }, worker)
      // a group that failed to commit has refused its own writes; the thread goes either way
      .catch(() => undefined)
      .then(() => worker.terminate())
      .then(() => undefined);
    this.stopping = Promise.all([this.stopping, stopped]).then(() => undefined);
    return this.stopping;
  }

  private state(file: string): FileState {
    let state = this.files.get(file);
    if (!state) {
      state = { sent: 0, drained: undefined, alone: 0, resumed: undefined };
      this.files.set(file, state);
    }
    return state;
  }

  private forget(file: string, state: FileState): void {
    if (state.sent === 0 && state.alone === 0 && this.files.get(file) === state) this.files.delete(file);
  }

  private send(file: string | null, task: Omit<WriteTask, 'id'>, worker = this.ensureWorker()): Promise<unknown> {
    clearTimeout(this.idleTimer);
    const id = this.nextId++;
    const key = file ?? '';
    const state = this.state(key);
    state.sent += 1;
    state.drained ??= deferred();
    const answered = new Promise<unknown>((resolve, reject) => {
      this.waiting.set(id, { file: key, worker, resolve, reject });
    });
    worker.postMessage({ id, ...task } as WriteTask);
    return answered;
  }

  private answered(id: number): Waiting | undefined {
    const waiting = this.waiting.get(id);
    if (!waiting) return undefined;
    this.waiting.delete(id);
    const state = this.files.get(waiting.file);
    if (state) {
      state.sent -= 1;
      if (state.sent === 0) {
        state.drained?.resolve();
        state.drained = undefined;
        this.forget(waiting.file, state);
      }
    }
    if (this.waiting.size === 0 && this.worker) {
      this.idleTimer = setTimeout(() => void this.retireIfIdle(), this.idleMs);
      this.idleTimer.unref();
    }
    return waiting;
  }

  private get idleMs(): number {
    return this.options.idleMs ?? DEFAULT_WRITER_IDLE_MS;
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD_MODULE, {
      workerData: {
        tableModule: this.options.tableModule,
        idleMs: this.idleMs,
      } satisfies WriterSetup,
    });
    worker.unref();
    worker.on('message', (reply: WriteReply) => {
      const waiting = this.answered(reply.id);
      if (!waiting) return;
      if ('failure' in reply) waiting.reject(errorOf(reply.failure));
      else waiting.resolve(reply.value);
    });
    worker.on('error', (error: Error) => this.lost(worker, error.message));
    worker.on('exit', (code) => this.lost(worker, `exit code ${code}`));
    this.worker = worker;
    return worker;
  }

  /** A thread stopped: what it had not answered fails (a group it had not committed was rolled back with it). */
  private lost(worker: Worker, why: string): void {
    if (this.worker === worker) this.worker = undefined;
    const error = new Error(`the ledger writer stopped: ${why}`);
    for (const [id, waiting] of [...this.waiting]) if (waiting.worker === worker) this.answered(id)?.reject(error);
  }

  private failAll(error: unknown): void {
    for (const id of [...this.waiting.keys()]) this.answered(id)?.reject(error);
  }
}
