import { journalWrites } from './features/journal/journal.writes.ts';
import { matchedEntryVoidGuard } from './features/reconciliation/reconciliation.review.service.ts';

/**
 * The composition of the grouped writes: which feature's write the ledger writer's thread runs
 * under which name. The server's thread (LedgerWriter, for the types) and the writer's thread both
 * load this module: the thread by its URL (WRITE_TABLE_MODULE), so that server/writer knows no
 * feature and every arrow points down.
 */
export const WRITE_TABLE = {
  ...journalWrites(matchedEntryVoidGuard),
};

export type AppWrites = typeof WRITE_TABLE;

/** This module, as the thread imports it (`.ts` from the sources, `.js` compiled or bundled); see JOB_TABLE_MODULE. */
export const WRITE_TABLE_MODULE = new URL(
  import.meta.url.endsWith('.ts') ? './write-table.ts' : './write-table.js',
  import.meta.url,
).href;
