import type { LedgerDb } from '../db/stores.ts';

/**
 * The port between the ledger writer's thread and the features whose writes it runs, as
 * server/jobs is for the long use cases: each feature defines its writes (`<feature>.writes.ts`)
 * against these types, the composition (server/write-table.ts) gathers them into one table, and the
 * writer knows no feature.
 */

export interface WriteDef<I = any, O = any> {
  /**
   * A write of many rows (a batch of entries) heads a group of its own, without a savepoint
   * (SqliteDb.grouped `head`).
   */
  head?: boolean;
  /** One use case's write, synchronous: it becomes a savepoint of the group's transaction. */
  run(db: LedgerDb, input: I): O;
}

export type WriteTable = Record<string, WriteDef>;
export type WriteName<T extends WriteTable> = keyof T & string;
export type WriteInput<T extends WriteTable, N extends keyof T> = Parameters<T[N]['run']>[1];
export type WriteOutput<T extends WriteTable, N extends keyof T> = ReturnType<T[N]['run']>;

/** What a feature asks of the ledger writer (LedgerWriter), for the writes of its own table `T`. */
export interface Writes<T extends WriteTable> {
  /**
   * Runs the write `name` on the user's ledger (the file of `ledger`, the request's connection), in
   * a group with the writes that arrive with it; resolves with its result once the group is
   * committed and durable, or rejects with its error (a DomainError as thrown; LEDGER_BUSY while a
   * job writes the file). Its input and result cross threads: plain data only.
   */
  run<N extends WriteName<T>>(ledger: LedgerDb, name: N, input: WriteInput<T, N>): Promise<WriteOutput<T, N>>;
}

/** A write definition, keeping the exact types of its `run` (an identity). */
export function defineWrite<D extends WriteDef>(def: D): D {
  return def;
}
