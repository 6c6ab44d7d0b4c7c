import type { LedgerDb } from '../../db/stores.ts';

/** Marks an imported entry voided by an imported reversal, the two pointing at each other (both stay in history). */
export function linkVoid(db: LedgerDb, voidedId: string, reversalId: string, at: string): void {
  db.runSql(
    `UPDATE journal_entries SET status = 'void', voided_at = ?, reversal_entry_id = ?, updated_at = ? WHERE id = ? AND status = 'posted'`,
    at,
    reversalId,
    at,
    voidedId,
  );
  db.runSql('UPDATE journal_entries SET reverses_entry_id = ? WHERE id = ?', voidedId, reversalId);
}
