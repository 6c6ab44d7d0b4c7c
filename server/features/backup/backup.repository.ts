import type { LedgerDb } from '../../db/stores.ts';

/** How much a ledger holds: what a restore answers. */
export function ledgerSummary(db: LedgerDb): { accounts: number; entries: number } {
  const [row] = db.allSql<{ accounts: bigint; entries: bigint }>(
    'SELECT (SELECT COUNT(*) FROM accounts) AS accounts, (SELECT COUNT(*) FROM journal_entries) AS entries',
  );
  return { accounts: Number(row?.accounts ?? 0n), entries: Number(row?.entries ?? 0n) };
}
