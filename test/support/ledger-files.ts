import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { Stores, type LedgerDb } from '../../server/db/stores.ts';
import type { AccountType } from '../../server/domain/double-entry.ts';
import { createAccount } from '../../server/features/accounts/accounts.service.ts';

/** An account of a fresh ledger: its name, type and currency (USD when left out). */
export type AccountSpec = readonly [name: string, type: AccountType, currency?: string];

/**
 * Ledger files for a test file's in-process tests (property tests over the services): a temporary
 * data folder and its Stores, made before the file's tests and removed after them. Each `fresh()`
 * is a new user's ledger holding the accounts given, their ids in the order given.
 */
export function useLedgerFiles(name: string): {
  fresh(accounts: readonly AccountSpec[]): { db: LedgerDb; file: string; accounts: string[] };
} {
  let dir: string;
  let stores: Stores;
  let count = 0;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `ledger-${name}-`));
    stores = new Stores(dir);
  });
  afterAll(() => {
    stores.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    fresh(accounts) {
      count += 1;
      const userId = `00000000-0000-4000-8000-${String(count).padStart(12, '0')}`;
      const db = stores.ledger(userId);
      const ids = accounts.map(([account, type, currency]) => createAccount(db, { name: account, type, currency }).id);
      return { db, file: stores.ledgerFile(userId), accounts: ids };
    },
  };
}
