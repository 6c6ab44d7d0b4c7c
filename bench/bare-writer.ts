/**
 * The writer thread of bare-express.ts's `POST /api/raw-post-writer`: group commit on a connection of
 * its own (the postings of one turn of this thread's event loop share one transaction, a savepoint
 * each, and one commit), committed at synchronous=FULL here, so that a commit is durable before
 * anyone reading the file can see it and the thread running HTTP never waits for SQLite.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RawWriter } from './lib/raw-writer.ts';

export interface WriterPosting {
  n: number;
  date: string;
  debit: string;
  credit: string;
  minor: bigint;
}

/** The writer's answer to a posting: durable, or the error that refused it. */
export interface WriterAnswer {
  n: number;
  error?: string;
}

const raw = new RawWriter(workerData as string);
let group: number[] | undefined;
const answer = (n: number, error?: unknown) =>
  parentPort!.postMessage({ n, ...(error === undefined ? {} : { error: String(error) }) } satisfies WriterAnswer);
parentPort!.on('message', (posting: WriterPosting) => {
  try {
    if (group === undefined) {
      raw.db.exec('BEGIN IMMEDIATE');
      const opened: number[] = [];
      group = opened;
      setImmediate(() => {
        group = undefined;
        let failed: unknown;
        try {
          raw.db.exec('COMMIT');
        } catch (error) {
          failed = error;
          if (raw.db.inTransaction) raw.db.exec('ROLLBACK');
        }
        for (const n of opened) answer(n, failed);
      });
    }
    raw.postEntryInOpenTransaction(posting.date, posting.debit, posting.credit, posting.minor, 'USD');
    group.push(posting.n);
  } catch (error) {
    answer(posting.n, error);
  }
});
