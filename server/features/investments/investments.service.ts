/**
 * Securities, each investment account's settings, security prices, and what other features ask of investments
 * (holdings' unrealised gains, the guard on trade entries). Trades: investments.trades.ts; holdings: investments.holdings.ts.
 */
import { newRowId } from '../../db/ids.ts';
import type { LedgerDb } from '../../db/stores.ts';
import type { InvestmentSettingsBody, SecurityBody } from '../../contract/investments.ts';
import { MAX_SECURITY_PRICE_ROWS } from '../../contract/investments.ts';
import { currencyDigits, isKnownCurrency } from '../../domain/currencies.ts';
import { DATE_RANGE_TEXT, isLedgerDate, localToday } from '../../domain/dates.ts';
import type { Direction } from '../../domain/double-entry.ts';
import { DomainError } from '../../domain/errors.ts';
import { formatPrice, parsePrice, PRICE_DECIMALS, valueOf } from '../../domain/lots.ts';
import type { Account } from '../accounts/accounts.model.ts';
import { findAccount } from '../accounts/accounts.queries.ts';
import { requireAccount } from '../accounts/accounts.service.ts';
import { createEntry, type VoidGuard } from '../journal/journal.service.ts';
import { csvLineError, readCsvTable, type SecurityPriceRows } from '../prices/prices.service.ts';
import {
  allSecurities,
  countSecurities,
  findSecurity,
  findSecurityBySymbol,
  findSettings,
  holdingsAsOf,
  insertSecurity,
  isTradeEntry,
  priceOn,
  savePrice,
  saveSettings,
} from './investments.repository.ts';
import type { InvestmentSettings, Security } from './investments.model.ts';

/** The most securities a ledger declares: the list and the holdings report are read whole. */
export const MAX_SECURITIES = 2_000;
const DEFAULT_LONG_TERM_DAYS = 365;

const securityDto = (s: Security) => ({
  id: s.id,
  symbol: s.symbol,
  name: s.name,
  currency: s.currency,
  created_at: s.createdAt,
});

export function createSecurity(db: LedgerDb, body: SecurityBody) {
  return db.transaction(() => {
    if (findSecurityBySymbol(db, body.symbol))
      throw new DomainError('DUPLICATE_NAME', `A security ${body.symbol} already exists`, [
        { field: 'symbol', message: 'is taken' },
      ]);
    if (countSecurities(db) >= MAX_SECURITIES)
      throw new DomainError('TOO_MANY_SECURITIES', `The books hold at most ${MAX_SECURITIES} securities`);
    const s: Security = { id: newRowId(), ...body, createdAt: new Date().toISOString() };
    insertSecurity(db, s);
    return securityDto(s);
  });
}

export function listSecurities(db: LedgerDb) {
  return { items: allSecurities(db).map(securityDto) };
}

export function requireSecurity(db: LedgerDb, id: string, field = 'security_id'): Security {
  const s = findSecurity(db, id);
  if (!s) throw new DomainError('NOT_FOUND', 'Security not found', [{ field, message: 'names no security' }]);
  return s;
}

/** An account a trade books to: it exists, is active, and is in the security's currency. */
export function tradeAccount(
  db: LedgerDb,
  id: string,
  field: string,
  currency: string,
  type?: Account['type'],
): Account {
  const a = findAccount(db, id);
  const refuse = (why: string) => {
    throw new DomainError('INVALID_ACCOUNT', `${field}: ${why}`, [{ field, message: why }]);
  };
  if (!a) return refuse('names no account');
  if (!a.isActive) refuse('the account is inactive');
  if (a.currency !== currency) refuse(`the account is in ${a.currency}, the security in ${currency}`);
  if (type && a.type !== type) refuse(`must be an ${type} account`);
  return a;
}

const settingsDto = (s: InvestmentSettings) => ({
  account_id: s.accountId,
  booking_method: s.bookingMethod,
  short_term_account_id: s.shortTermAccountId,
  long_term_account_id: s.longTermAccountId,
  long_term_days: s.longTermDays,
});

export function settingsOf(db: LedgerDb, accountId: string): InvestmentSettings {
  return (
    findSettings(db, accountId) ?? {
      accountId,
      bookingMethod: 'FIFO',
      shortTermAccountId: null,
      longTermAccountId: null,
      longTermDays: DEFAULT_LONG_TERM_DAYS,
    }
  );
}

export function getInvestmentSettings(db: LedgerDb, accountId: string) {
  requireAccount(db, accountId);
  return settingsDto(settingsOf(db, accountId));
}

export function putInvestmentSettings(db: LedgerDb, accountId: string, body: InvestmentSettingsBody) {
  return db.transaction(() => {
    const account = requireAccount(db, accountId);
    tradeAccount(db, body.short_term_account_id, 'short_term_account_id', account.currency, 'INCOME');
    if (body.long_term_account_id)
      tradeAccount(db, body.long_term_account_id, 'long_term_account_id', account.currency, 'INCOME');
    const s: InvestmentSettings = {
      accountId,
      bookingMethod: body.booking_method,
      shortTermAccountId: body.short_term_account_id,
      longTermAccountId: body.long_term_account_id ?? body.short_term_account_id,
      longTermDays: body.long_term_days ?? DEFAULT_LONG_TERM_DAYS,
    };
    saveSettings(db, s);
    return settingsDto(s);
  });
}

/**
 * What each account's holdings are worth at `asOf` above their cost basis (market value at the latest
 * price on or before it, less basis), in the account's currency; a holding without a price adds nothing.
 * The balance sheet adds it to the account and shows the sum as unrealised gains (docs/investments.md).
 */
export function unrealizedByAccount(db: LedgerDb, asOf: string): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const h of holdingsAsOf(db, asOf)) {
    if (h.unitsAtoms === 0n) continue;
    const p = priceOn(db, h.securityId, asOf);
    if (!p) continue;
    const value = valueOf(h.unitsAtoms, parsePrice(p.price)!, PRICE_DECIMALS, currencyDigits(h.currency));
    out.set(h.accountId, (out.get(h.accountId) ?? 0n) + value - h.basisMinor);
  }
  return out;
}

export function setSecurityPrice(db: LedgerDb, securityId: string, date: string, price: string) {
  return db.transaction(() => {
    requireSecurity(db, securityId, 'id');
    const text = formatPrice(parsePrice(price)!);
    savePrice(db, securityId, date, text);
    return { security_id: securityId, date, price: text };
  });
}

const PRICE_COLUMNS = ['date', 'symbol', 'price'] as const;

/**
 * Checks and keeps security prices row by row: a declared security's, in its own currency (when a
 * row names one), a price above zero with at most 10 decimals, one per security and date. `save`
 * writes them and counts what it created and replaced. Both price imports read their rows with it.
 */
function securityPriceBook(db: LedgerDb) {
  const bySymbol = new Map<string, Security | undefined>();
  const rows: { securityId: string; date: string; price: string }[] = [];
  const seen = new Set<string>();
  return {
    security(symbol: string): Security | undefined {
      if (!bySymbol.has(symbol)) bySymbol.set(symbol, findSecurityBySymbol(db, symbol));
      return bySymbol.get(symbol);
    },
    keep(line: number, security: Security, date: string, price: string, currency?: string): void {
      if (currency !== undefined && currency !== security.currency)
        throw csvLineError(
          line,
          `${security.symbol} is priced in ${security.currency}, not ${JSON.stringify(currency.slice(0, 40))}`,
        );
      const scaled = /^\d{1,12}(\.\d{1,10})?$/.test(price) ? parsePrice(price) : null;
      if (scaled === null)
        throw csvLineError(
          line,
          `${JSON.stringify(price.slice(0, 40))} is not a price above zero with at most 10 decimals`,
        );
      const key = `${security.id} ${date}`;
      if (seen.has(key)) throw csvLineError(line, `a second price of ${security.symbol} on ${date}`);
      seen.add(key);
      rows.push({ securityId: security.id, date, price: formatPrice(scaled) });
    },
    save(into: LedgerDb) {
      let created = 0;
      for (const r of rows) {
        if (priceOn(into, r.securityId, r.date)?.date !== r.date) created++;
        savePrice(into, r.securityId, r.date, r.price);
      }
      const dates = rows.map((r) => r.date).sort();
      return {
        created,
        replaced: rows.length - created,
        first_date: dates[0] ?? null,
        last_date: dates.at(-1) ?? null,
      };
    },
  };
}

/**
 * Imports security prices from CSV: a header row naming `date`, `symbol` and `price` (any order, any
 * case, other columns ignored), then one price per row of a declared security. Any bad row refuses
 * the whole file, naming its line; each good row creates or replaces the price of its date.
 */
export function importSecurityPrices(db: LedgerDb, bytes: Uint8Array) {
  const table = readCsvTable(bytes, PRICE_COLUMNS, MAX_SECURITY_PRICE_ROWS, 'prices');
  const book = securityPriceBook(db);
  for (const { line, cell } of table) {
    const [date, symbol, price] = [cell('date'), cell('symbol').toUpperCase(), cell('price')];
    if (!isLedgerDate(date))
      throw csvLineError(line, `${JSON.stringify(date.slice(0, 40))} is not a date YYYY-MM-DD from ${DATE_RANGE_TEXT}`);
    const security = book.security(symbol);
    if (!security) throw csvLineError(line, `${JSON.stringify(symbol.slice(0, 40))} is not a declared security`);
    book.keep(line, security, date, price);
  }
  return db.transaction(() => {
    const saved = book.save(db);
    return { imported: saved.created + saved.replaced, first_date: saved.first_date, last_date: saved.last_date };
  });
}

/**
 * The rates import's reader of securities' prices (POST /api/prices/import, docs/investments.md
 * "Prices"): a row whose `from` is no ISO 4217 code is a security's price (`2024-02-01,VTI,USD,250`),
 * of a declared security, `to` its currency and `rate` its price.
 */
export function securityPriceRows(): SecurityPriceRows {
  let book: ReturnType<typeof securityPriceBook> | undefined;
  return {
    take(db, row) {
      if (isKnownCurrency(row.from)) return false;
      book ??= securityPriceBook(db);
      const security = book.security(row.from);
      if (!security)
        throw csvLineError(
          row.line,
          `${JSON.stringify(row.from.slice(0, 40))} is neither an ISO 4217 currency code nor a declared security`,
        );
      book.keep(row.line, security, row.date, row.rate, row.to);
      return true;
    },
    save: (db) => book?.save(db) ?? { created: 0, replaced: 0, first_date: null, last_date: null },
  };
}

/**
 * A trade's entry is not voided or corrected through the journal: its lots would no longer match
 * the books. (Undoing a trade is a trade the other way.)
 */
export const tradeEntryVoidGuard: VoidGuard = {
  beforeVoid(db, entryId, _at, action) {
    if (isTradeEntry(db, entryId))
      throw new DomainError(
        'INVALID_STATUS',
        `The entry is a trade’s and cannot be ${action}: book the opposite trade instead`,
      );
  },
};
