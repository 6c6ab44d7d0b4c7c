/**
 * The writer thread of bare-express.ts's `POST /api/raw-post-writer`: the server's own group commit
 * (SqliteDb.grouped: the postings of one turn of this thread's event loop share one transaction, a
 * savepoint each, and one sync, run on libuv's thread pool) on a connection of its own, so that the
 * thread running HTTP never waits for SQLite.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteDb } from '../server/db/sqlite.ts';
import { RawLedger } from './lib/raw.ts';

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

const raw = new RawLedger(workerData as string);
const db = new SqliteDb(raw.db);
parentPort!.on('message', (posting: WriterPosting) => {
  void db
    .grouped(() => raw.postEntryInOpenTransaction(posting.date, posting.debit, posting.credit, posting.minor, 'USD'))
    .then(
      () => parentPort!.postMessage({ n: posting.n } satisfies WriterAnswer),
      (error: unknown) => parentPort!.postMessage({ n: posting.n, error: String(error) } satisfies WriterAnswer),
    );
});
