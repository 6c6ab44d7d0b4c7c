import type { LedgerDb } from '../../db/stores.ts';
import { newRowId } from '../../db/ids.ts';
import { tradingAccountName } from '../../contract/names.ts';
import { findAccount, findAccountByName } from '../accounts/accounts.queries.ts';
import { storeAccount } from '../accounts/accounts.service.ts';
import type { Account } from '../accounts/accounts.model.ts';

/**
 * The currency trading accounts: one EQUITY account per currency that takes that currency's side of
 * every exchange (GnuCash's "Trading" accounts). Each is found by its registry, the
 * currency_trading_accounts table of the prices-and-exchanges migration; the first exchange in a
 * currency creates it, named "Currency trading <code>" (or adopts an EQUITY account of that name and
 * currency).
 */

export { tradingAccountName };

export function tradingAccountIds(db: LedgerDb): Set<string> {
  return new Set(
    db.allSql<{ account_id: string }>('SELECT account_id FROM currency_trading_accounts').map((r) => r.account_id),
  );
}

export function registeredTradingAccount(db: LedgerDb, currency: string): Account | undefined {
  const [row] = db.allSql<{ account_id: string }>(
    'SELECT account_id FROM currency_trading_accounts WHERE currency = ?',
    currency,
  );
  return row ? findAccount(db, row.account_id) : undefined;
}

function register(db: LedgerDb, currency: string, accountId: string): void {
  db.runSql('INSERT INTO currency_trading_accounts (currency, account_id) VALUES (?, ?)', currency, accountId);
}

/** A name for a new trading account that no account has yet (names are unique ignoring case). */
function freeName(db: LedgerDb, currency: string): string {
  const base = tradingAccountName(currency);
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base} (${n})`;
    if (!findAccountByName(db, name)) return name;
  }
}

/**
 * The trading account of a currency, created in the caller's transaction when there is none (or
 * adopted: an EQUITY account of that currency already named "Currency trading <code>").
 */
export function tradingAccount(db: LedgerDb, currency: string): Account {
  const found = registeredTradingAccount(db, currency);
  if (found) return found;
  const candidate = findAccountByName(db, tradingAccountName(currency));
  if (candidate && candidate.type === 'EQUITY' && candidate.currency === currency) {
    register(db, currency, candidate.id);
    return candidate;
  }
  const now = new Date().toISOString();
  const account: Account = {
    id: newRowId(),
    name: freeName(db, currency),
    type: 'EQUITY',
    currency,
    description: `Takes the ${currency} side of exchanges between currencies (automatic lines)`,
    isActive: true,
    parentId: null,
    createdAt: now,
    updatedAt: now,
  };
  storeAccount(db, account);
  register(db, currency, account.id);
  return account;
}

/** Registers trading accounts an import planned (they exist once the import has inserted its accounts). */
export function registerTradingAccounts(db: LedgerDb, accounts: Iterable<Account>): void {
  for (const a of accounts) if (!registeredTradingAccount(db, a.currency)) register(db, a.currency, a.id);
}
