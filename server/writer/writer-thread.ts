import { parentPort, workerData } from 'node:worker_threads';
import type { LedgerSchema } from '../db/schema.ts';
import { openSqliteFile, SqliteDb } from '../db/sqlite.ts';
import { failureOf, type ThreadFailure } from '../domain/errors.ts';
import type { WriteTable } from './write.ts';

/**
 * The ledger writer's thread: runs the grouped writes (the journal's, as requests make them) on
 * connections of its own, one per ledger file, with group commit (SqliteDb.grouped). Each group
 * commits at synchronous=FULL here: durable before any other connection (the server's, which reads)
 * can see it, while the server's thread goes on with HTTP. The writes come from the module the
 * server names (the composition's table): this folder knows no feature.
 */

export interface WriterSetup {
  /** The URL of the module that exports the write table as `WRITE_TABLE`. */
  tableModule: string;
  /** A ledger's connection not written for this long (ms) is closed. */
  idleMs: number;
}

/**
 * A write to run; `close`: the connection to that file (all of them when null) is to be closed;
 * `pragma`: a pragma to set on the connection to `file` (LedgerWriter.pragma).
 */
export type WriteTask =
  | { id: number; file: string; name: string; input: unknown }
  | { id: number; close: string | null }
  | { id: number; file: string; pragma: string };

export type WriteReply = { id: number; value: unknown } | { id: number; failure: ThreadFailure };

const setup = workerData as WriterSetup;
const open = new Map<string, { db: SqliteDb<LedgerSchema>; lastUsed: number }>();

function ledger(file: string): SqliteDb<LedgerSchema> {
  let kept = open.get(file);
  if (!kept) {
    // The server's thread opened and migrated the file before sending a write to it.
    kept = { db: new SqliteDb<LedgerSchema>(openSqliteFile(file), null), lastUsed: 0 };
    open.set(file, kept);
  }
  kept.lastUsed = Date.now();
  return kept.db;
}

/** Closes connections: a group still open commits first, and its writes are answered. */
function close(file: string | null): void {
  for (const [name, kept] of open) {
    if (file !== null && name !== file) continue;
    open.delete(name);
    kept.db.close();
  }
}

function reply(message: WriteReply): void {
  parentPort!.postMessage(message);
}

// Tasks sent before the table is loaded wait in the port until the listener is added.
const { WRITE_TABLE } = (await import(setup.tableModule)) as { WRITE_TABLE: WriteTable };
/**
 * The writes that reach this thread in one turn of its event loop (those sent while it ran the last
 * ones, or together) form one group: SqliteDb.grouped commits it once the turn is over.
 */
parentPort!.on('message', (task: WriteTask) => {
  if (!('name' in task)) {
    let done: WriteReply;
    try {
      if ('close' in task) close(task.close);
      else ledger(task.file).sqlite.pragma(task.pragma);
      done = { id: task.id, value: null };
    } catch (error) {
      done = { id: task.id, failure: failureOf(error) };
    }
    // after the answers of the writes a close committed, which go out from their promises' callbacks
    setImmediate(() => reply(done));
    return;
  }
  let written: Promise<unknown>;
  try {
    const write = WRITE_TABLE[task.name];
    if (!write) throw new Error(`no write named ${task.name}`);
    const db = ledger(task.file);
    written = db.grouped(() => write.run(db, task.input), { head: write.head === true });
  } catch (error) {
    written = Promise.reject(error);
  }
  written.then(
    (value) => reply({ id: task.id, value }),
    (error: unknown) => reply({ id: task.id, failure: failureOf(error) }),
  );
});

setInterval(() => {
  const before = Date.now() - setup.idleMs;
  for (const [file, kept] of open) if (kept.lastUsed <= before) close(file);
}, setup.idleMs).unref();
