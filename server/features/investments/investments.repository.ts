import type { LedgerDb } from '../../db/stores.ts';
import type { LedgerSchema } from '../../db/schema.ts';
import type { BookingMethod, Lot } from '../../domain/lots.ts';
import type { Security, InvestmentSettings } from './investments.model.ts';

export interface TradeRow {
  id: string;
  entryId: string | null;
  accountId: string;
  securityId: string;
  kind: 'buy' | 'sell' | 'dividend' | 'split';
  date: string;
  unitsAtoms: bigint;
  price: string | null;
  amountMinor: bigint;
  feesMinor: bigint;
  unitsDelta: bigint;
  basisDelta: bigint;
  proceedsMinor: bigint;
  costMinor: bigint;
}

export interface ReductionRow {
  lotId: string;
  saleDate: string;
  unitsAtoms: bigint;
  basisMinor: bigint;
  proceedsMinor: bigint;
  gainMinor: bigint;
  longTerm: boolean;
}

export interface HoldingRow {
  accountId: string;
  accountName: string;
  securityId: string;
  symbol: string;
  name: string;
  currency: string;
  unitsAtoms: bigint;
  basisMinor: bigint;
  realizedMinor: bigint;
}

type SecurityRow = LedgerSchema['securities'];

const toSecurity = (r: SecurityRow): Security => ({
  id: r.id,
  symbol: r.symbol,
  name: r.name,
  currency: r.currency,
  createdAt: r.created_at,
});

export function insertSecurity(db: LedgerDb, s: Security): void {
  db.runSql(
    'INSERT INTO securities (id, symbol, name, currency, created_at) VALUES (?, ?, ?, ?, ?)',
    s.id,
    s.symbol,
    s.name,
    s.currency,
    s.createdAt,
  );
}

export function findSecurity(db: LedgerDb, id: string): Security | undefined {
  const [row] = db.allSql<SecurityRow>('SELECT * FROM securities WHERE id = ?', id);
  return row && toSecurity(row);
}

export function findSecurityBySymbol(db: LedgerDb, symbol: string): Security | undefined {
  const [row] = db.allSql<SecurityRow>('SELECT * FROM securities WHERE symbol = ?', symbol);
  return row && toSecurity(row);
}

/** Every security, by symbol (a user declares tens, not thousands; the list is bounded by MAX_SECURITIES). */
export function allSecurities(db: LedgerDb): Security[] {
  return db.allSql<SecurityRow>('SELECT * FROM securities ORDER BY symbol').map(toSecurity);
}

export function countSecurities(db: LedgerDb): number {
  return Number(db.allSql<{ n: bigint }>('SELECT COUNT(*) AS n FROM securities')[0]!.n);
}

type SettingsRow = LedgerSchema['investment_accounts'];

export function findSettings(db: LedgerDb, accountId: string): InvestmentSettings | undefined {
  const [r] = db.allSql<SettingsRow>('SELECT * FROM investment_accounts WHERE account_id = ?', accountId);
  return (
    r && {
      accountId: r.account_id,
      bookingMethod: r.booking_method as BookingMethod,
      shortTermAccountId: r.short_term_account_id,
      longTermAccountId: r.long_term_account_id,
      longTermDays: Number(r.long_term_days),
    }
  );
}

export function saveSettings(db: LedgerDb, s: InvestmentSettings): void {
  db.runSql(
    `INSERT INTO investment_accounts (account_id, booking_method, short_term_account_id, long_term_account_id, long_term_days)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (account_id) DO UPDATE SET booking_method = excluded.booking_method,
       short_term_account_id = excluded.short_term_account_id, long_term_account_id = excluded.long_term_account_id,
       long_term_days = excluded.long_term_days`,
    s.accountId,
    s.bookingMethod,
    s.shortTermAccountId,
    s.longTermAccountId,
    s.longTermDays,
  );
}

function nextSeq(db: LedgerDb, table: 'trades' | 'lots'): bigint {
  return db.allSql<{ n: bigint }>(`SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM ${table}`)[0]!.n;
}

export function insertTrade(db: LedgerDb, t: TradeRow, createdAt: string): void {
  db.runSql(
    `INSERT INTO trades (id, seq, entry_id, account_id, security_id, kind, trade_date, units_atoms, price, amount_minor,
       fees_minor, units_delta_atoms, basis_delta_minor, proceeds_minor, cost_minor, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    t.id,
    nextSeq(db, 'trades'),
    t.entryId,
    t.accountId,
    t.securityId,
    t.kind,
    t.date,
    t.unitsAtoms,
    t.price,
    t.amountMinor,
    t.feesMinor,
    t.unitsDelta,
    t.basisDelta,
    t.proceedsMinor,
    t.costMinor,
    createdAt,
  );
}

export function insertLot(db: LedgerDb, lot: Lot, tradeId: string, accountId: string, securityId: string): void {
  db.runSql(
    `INSERT INTO lots (id, seq, trade_id, account_id, security_id, buy_date, units_bought_atoms, basis_bought_minor, units_atoms, basis_minor)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    lot.id,
    nextSeq(db, 'lots'),
    tradeId,
    accountId,
    securityId,
    lot.date,
    lot.units,
    lot.basisMinor,
    lot.units,
    lot.basisMinor,
  );
}

/** The open lots of a holding, oldest first (the partial index lots_open). */
export function openLots(
  db: LedgerDb,
  accountId: string,
  securityId: string,
): (Lot & { unitsBought: bigint; basisBought: bigint })[] {
  return db
    .allSql<{
      id: string;
      buy_date: string;
      seq: bigint;
      units_atoms: bigint;
      basis_minor: bigint;
      units_bought_atoms: bigint;
      basis_bought_minor: bigint;
    }>(
      `SELECT id, buy_date, seq, units_atoms, basis_minor, units_bought_atoms, basis_bought_minor FROM lots
       WHERE account_id = ? AND security_id = ? AND units_atoms > 0 ORDER BY buy_date, seq`,
      accountId,
      securityId,
    )
    .map((r) => ({
      id: r.id,
      date: r.buy_date,
      seq: Number(r.seq),
      units: r.units_atoms,
      basisMinor: r.basis_minor,
      unitsBought: r.units_bought_atoms,
      basisBought: r.basis_bought_minor,
    }));
}

export function updateLot(db: LedgerDb, lot: Lot): void {
  db.runSql('UPDATE lots SET units_atoms = ?, basis_minor = ? WHERE id = ?', lot.units, lot.basisMinor, lot.id);
}

export function insertReduction(db: LedgerDb, tradeId: string, securityId: string, r: ReductionRow): void {
  db.runSql(
    `INSERT INTO lot_reductions (trade_id, lot_id, security_id, sale_date, units_atoms, basis_minor, proceeds_minor, gain_minor, long_term)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    tradeId,
    r.lotId,
    securityId,
    r.saleDate,
    r.unitsAtoms,
    r.basisMinor,
    r.proceedsMinor,
    r.gainMinor,
    r.longTerm ? 1 : 0,
  );
}

/** Adds to a holding's maintained totals (making it on its first trade). */
export function addToHolding(
  db: LedgerDb,
  accountId: string,
  securityId: string,
  units: bigint,
  basis: bigint,
  realized: bigint,
): void {
  // an UPDATE first: an upsert checks the new row's CHECKs (units >= 0) before it finds the conflict
  const changed = db.runSql(
    `UPDATE holdings SET units_atoms = units_atoms + ?, basis_minor = basis_minor + ?, realized_minor = realized_minor + ?
     WHERE account_id = ? AND security_id = ?`,
    units,
    basis,
    realized,
    accountId,
    securityId,
  );
  if (changed === 0)
    db.runSql(
      'INSERT INTO holdings (account_id, security_id, units_atoms, basis_minor, realized_minor) VALUES (?, ?, ?, ?, ?)',
      accountId,
      securityId,
      units,
      basis,
      realized,
    );
}

type HoldingSql = {
  account_id: string;
  account_name: string;
  security_id: string;
  symbol: string;
  name: string;
  currency: string;
  units_atoms: bigint;
  basis_minor: bigint;
  realized_minor: bigint;
};
const toHolding = (r: HoldingSql): HoldingRow => ({
  accountId: r.account_id,
  accountName: r.account_name,
  securityId: r.security_id,
  symbol: r.symbol,
  name: r.name,
  currency: r.currency,
  unitsAtoms: r.units_atoms,
  basisMinor: r.basis_minor,
  realizedMinor: r.realized_minor,
});

/** Holdings in the report's order, sorted here: SQLite would sort them after reading every holding's trades. */
function byAccountAndSymbol(a: HoldingRow, b: HoldingRow): number {
  if (a.accountName !== b.accountName) return a.accountName < b.accountName ? -1 : 1;
  return a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0;
}

/** Every holding with its maintained totals (the holdings table: one row per account and security held). */
export function currentHoldings(db: LedgerDb): HoldingRow[] {
  return db
    .allSql<HoldingSql>(
      `SELECT h.account_id, a.name AS account_name, h.security_id, s.symbol, s.name, s.currency,
         h.units_atoms, h.basis_minor, h.realized_minor
       FROM holdings h JOIN accounts a ON a.id = h.account_id JOIN securities s ON s.id = h.security_id`,
    )
    .map(toHolding)
    .sort(byAccountAndSymbol);
}

/**
 * The holdings as of a date: each holding's trades up to it summed, each sum one range of the
 * covering index trades_holding_sums (only a sale has proceeds or cost, so the realised sum needs
 * no look at the kind).
 */
export function holdingsAsOf(db: LedgerDb, asOf: string): HoldingRow[] {
  return db
    .allSql<HoldingSql>(
      `SELECT h.account_id, a.name AS account_name, h.security_id, s.symbol, s.name, s.currency,
         (SELECT COALESCE(SUM(t.units_delta_atoms), 0) FROM trades t
           WHERE t.account_id = h.account_id AND t.security_id = h.security_id AND t.trade_date <= ?) AS units_atoms,
         (SELECT COALESCE(SUM(t.basis_delta_minor), 0) FROM trades t
           WHERE t.account_id = h.account_id AND t.security_id = h.security_id AND t.trade_date <= ?) AS basis_minor,
         (SELECT COALESCE(SUM(t.proceeds_minor - t.cost_minor), 0) FROM trades t
           WHERE t.account_id = h.account_id AND t.security_id = h.security_id AND t.trade_date <= ?) AS realized_minor
       FROM holdings h JOIN accounts a ON a.id = h.account_id JOIN securities s ON s.id = h.security_id`,
      asOf,
      asOf,
      asOf,
    )
    .map(toHolding)
    .sort(byAccountAndSymbol);
}

/** The latest price of a security on or before a date (the primary key, one seek). */
export function priceOn(db: LedgerDb, securityId: string, date: string): { date: string; price: string } | undefined {
  return db.allSql<{ date: string; price: string }>(
    'SELECT date, price FROM security_prices WHERE security_id = ? AND date <= ? ORDER BY date DESC LIMIT 1',
    securityId,
    date,
  )[0];
}

/** Every security's prices on or before a date (all when `to` is null), in date order: the export's price directives. */
export function securityPricesUpTo(
  db: LedgerDb,
  to: string | null,
): { symbol: string; currency: string; date: string; price: string }[] {
  return db.allSql<{ symbol: string; currency: string; date: string; price: string }>(
    `SELECT s.symbol, s.currency, p.date, p.price FROM securities s
       JOIN security_prices p ON p.security_id = s.id AND p.date <= ?
     ORDER BY p.date, s.symbol`,
    to ?? '9999-12-31',
  );
}

export function savePrice(db: LedgerDb, securityId: string, date: string, price: string): void {
  db.runSql(
    `INSERT INTO security_prices (security_id, date, price) VALUES (?, ?, ?)
     ON CONFLICT (security_id, date) DO UPDATE SET price = excluded.price`,
    securityId,
    date,
    price,
  );
}

export interface GainTotals {
  securityId: string;
  symbol: string;
  currency: string;
  units: bigint;
  proceeds: bigint;
  basis: bigint;
  shortGain: bigint;
  longGain: bigint;
}

/**
 * Realised gains per security over sale dates: the reductions of the range in date order
 * (lot_reductions_by_date), summed here by security, so nothing is sorted but the few securities.
 */
export function gainsBetween(db: LedgerDb, from: string, to: string): GainTotals[] {
  const bySecurity = new Map<string, GainTotals>();
  const rows = db.iterateSql<{
    security_id: string;
    units_atoms: bigint;
    proceeds_minor: bigint;
    basis_minor: bigint;
    gain_minor: bigint;
    long_term: bigint;
  }>(
    `SELECT security_id, units_atoms, proceeds_minor, basis_minor, gain_minor, long_term FROM lot_reductions
     WHERE sale_date BETWEEN ? AND ? ORDER BY sale_date`,
    from,
    to,
  );
  for (const r of rows) {
    let g = bySecurity.get(r.security_id);
    if (!g) {
      const s = findSecurity(db, r.security_id)!;
      g = {
        securityId: s.id,
        symbol: s.symbol,
        currency: s.currency,
        units: 0n,
        proceeds: 0n,
        basis: 0n,
        shortGain: 0n,
        longGain: 0n,
      };
      bySecurity.set(r.security_id, g);
    }
    g.units += r.units_atoms;
    g.proceeds += r.proceeds_minor;
    g.basis += r.basis_minor;
    if (r.long_term === 1n) g.longGain += r.gain_minor;
    else g.shortGain += r.gain_minor;
  }
  return [...bySecurity.values()].sort((a, b) => (a.symbol < b.symbol ? -1 : 1));
}

/** Whether a journal entry is a trade's (trades_by_entry). */
export function isTradeEntry(db: LedgerDb, entryId: string): boolean {
  return db.existsSql('SELECT 1 FROM trades WHERE entry_id = ?', entryId);
}
