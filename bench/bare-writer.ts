/**
 * The writer thread of bare-express.ts's `POST /api/raw-post-writer`: the group commit of
 * `/api/raw-post-grouped` (the postings of one turn of this thread's event loop share one
 * transaction, a savepoint each, and one sync) on a connection of its own, committed and synced
 * here, so that the thread running HTTP never waits for SQLite.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RawLedger } from './lib/raw.ts';

export interface WriterPosting {
  n: number;
  date: string;
  debit: string;
  credit: string;
  minor: bigint;
}

const raw = new RawLedger(workerData as string);
let group: number[] | undefined;
parentPort!.on('message', (posting: WriterPosting) => {
  if (group === undefined) {
    raw.db.exec('BEGIN IMMEDIATE');
    const opened: number[] = [];
    group = opened;
    setImmediate(() => {
      group = undefined;
      raw.db.exec('COMMIT');
      parentPort!.postMessage(opened);
    });
  }
  raw.postEntryInOpenTransaction(posting.date, posting.debit, posting.credit, posting.minor, 'USD');
  group.push(posting.n);
});
