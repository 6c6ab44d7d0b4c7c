/** A ledger's synced books as one text: two devices hold the same books when their texts are equal. */
import { DATASETS, readRowValue } from '../../server/db/change-log.ts';
import type { LedgerDb } from '../../server/db/stores.ts';

/** Every row of every synced table as the change log writes it, in key order. */
export function syncedBooks(db: LedgerDb): string {
  const out: Record<string, unknown[]> = {};
  for (const dataset of DATASETS) {
    const keys = db
      .allSql<Record<string, unknown>>(
        `SELECT ${dataset.key.join(', ')} FROM ${dataset.table} ORDER BY ${dataset.key.join(', ')}`,
      )
      .map((row) => dataset.key.map((k) => String(row[k])).join(' '));
    out[dataset.name] = keys.map((key) => readRowValue(db, dataset, key));
  }
  return JSON.stringify(out, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}
