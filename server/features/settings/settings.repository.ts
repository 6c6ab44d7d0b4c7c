import type { LedgerDb } from '../../db/stores.ts';

export function readSetting(db: LedgerDb, key: string): string | undefined {
  return db.allSql<{ value: string }>('SELECT value FROM settings WHERE key = ?', key)[0]?.value;
}

export function writeSetting(db: LedgerDb, key: string, value: string): void {
  db.runSql(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    key,
    value,
  );
}

/** The currency most accounts are in (ties: the first by code), or undefined with no accounts. */
export function commonestAccountCurrency(db: LedgerDb): string | undefined {
  return db.allSql<{ currency: string }>(
    'SELECT currency FROM accounts GROUP BY currency ORDER BY COUNT(*) DESC, currency LIMIT 1',
  )[0]?.currency;
}
