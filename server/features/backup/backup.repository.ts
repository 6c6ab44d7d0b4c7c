import type { LedgerDb } from '../../db/stores.ts';

/** How much a ledger holds: what a restore answers. */
export function ledgerSummary(db: LedgerDb): { accounts: number; entries: number } {
  const [row] = db.allSql<{ accounts: bigint; entries: bigint }>(
    'SELECT (SELECT COUNT(*) FROM accounts) AS accounts, (SELECT COUNT(*) FROM journal_entries) AS entries',
  );
  return { accounts: Number(row?.accounts ?? 0n), entries: Number(row?.entries ?? 0n) };
}

const ALL_PAGES = 0x7fffffff;

/**
 * SQLite's online backup of the ledger to a new file, all pages in one step: one snapshot, so
 * writes by other connections meanwhile cannot restart it (they would, between small steps). Run
 * on the job worker: the copy and its sync to disk take seconds for a GB-sized file.
 */
export async function backupLedger(db: LedgerDb, to: string): Promise<null> {
  await db.sqlite.backup(to, { progress: () => ALL_PAGES });
  return null;
}
