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

/** A ledger's connection on the writer's thread is closed after this long without writes (ms). */
export const DEFAULT_WRITER_IDLE_MS = 60_000;

export interface LedgerWriterOptions {
  /** The URL of the module that exports the write table as `WRITE_TABLE`, loaded by the thread. */
  tableModule: string;
  idleMs?: number;
}

interface Waiting {
  file: string;
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
 * validation and every read. The thread starts with the first write and stays.
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

  /** Closes the thread's connections (their open groups commit first) and stops it; later writes are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    try {
      await this.send(null, { close: null });
    } finally {
      this.worker = undefined;
      await worker.terminate();
      this.failAll(shuttingDown());
    }
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

  private send(file: string | null, task: Omit<WriteTask, 'id'>): Promise<unknown> {
    const id = this.nextId++;
    const key = file ?? '';
    const state = this.state(key);
    state.sent += 1;
    state.drained ??= deferred();
    const answered = new Promise<unknown>((resolve, reject) => {
      this.waiting.set(id, { file: key, resolve, reject });
    });
    this.ensureWorker().postMessage({ id, ...task } as WriteTask);
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
    return waiting;
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD_MODULE, {
      workerData: {
        tableModule: this.options.tableModule,
        idleMs: this.options.idleMs ?? DEFAULT_WRITER_IDLE_MS,
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

  /** The thread stopped: what it had not answered fails (a group it had not committed was rolled back with it). */
  private lost(worker: Worker, why: string): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.failAll(new Error(`the ledger writer stopped: ${why}`));
  }

  private failAll(error: unknown): void {
    for (const id of [...this.waiting.keys()]) this.answered(id)?.reject(error);
  }
}
