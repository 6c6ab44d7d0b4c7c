/**
 * What an export that writes the trades' units reads of them (docs/investments.md "Interop"), a row
 * at a time: the holdings it writes in money and the symbols each account holds, from one pass over
 * the reductions and one over the range's trades (each keeping a set per holding), then the trades in
 * date order beside the entries, each with its lot or its reductions read as it comes.
 */
import type { LedgerDb } from '../../db/stores.ts';
import type { TradeRow } from './investments.repository.ts';

export interface LotOfExport {
  id: string;
  date: string;
  seq: number;
  unitsBought: bigint;
  basisBought: bigint;
}

export interface TradeOfExport {
  id: string;
  entryId: string;
  kind: TradeRow['kind'];
  accountId: string;
  securityId: string;
  symbol: string;
  currency: string;
  date: string;
  price: string | null;
  costMinor: bigint;
  /** the lot a buy (or a reinvested dividend) made */
  bought: LotOfExport | null;
  /** what a sale took from each lot, oldest lot first */
  sold: { lot: LotOfExport; units: bigint; basisMinor: bigint }[];
}

/** The key of a holding in the sets below. */
export const holdingKey = (accountId: string, securityId: string) => `${accountId} ${securityId}`;

type LotSql = { id: string; buy_date: string; seq: bigint; units_bought_atoms: bigint; basis_bought_minor: bigint };
const toLot = (r: LotSql): LotOfExport => ({
  id: r.id,
  date: r.buy_date,
  seq: Number(r.seq),
  unitsBought: r.units_bought_atoms,
  basisBought: r.basis_bought_minor,
});

/**
 * The holdings whose lots plain text cannot tell, up to `to`: split (the lots' units changed in
 * place), sold at a basis off the lot's own cost by a minor unit or more (AVERAGE spreads the pool's
 * basis), or sold within the range from a lot bought before `from`.
 */
export function holdingsInMoney(db: LedgerDb, from: string, to: string): Set<string> {
  const inMoney = new Set<string>();
  for (const t of db.iterateSql<{ account_id: string; security_id: string }>(
    "SELECT account_id, security_id FROM trades WHERE kind = 'split' AND trade_date <= ?",
    to,
  ))
    inMoney.add(holdingKey(t.account_id, t.security_id));
  for (const r of db.iterateSql<{
    account_id: string;
    security_id: string;
    trade_date: string;
    buy_date: string;
    units_atoms: bigint;
    basis_minor: bigint;
    units_bought_atoms: bigint;
    basis_bought_minor: bigint;
  }>(
    `SELECT t.account_id, t.security_id, t.trade_date, l.buy_date, r.units_atoms, r.basis_minor,
       l.units_bought_atoms, l.basis_bought_minor
     FROM lot_reductions r JOIN trades t ON t.id = r.trade_id JOIN lots l ON l.id = r.lot_id
     WHERE t.trade_date <= ?`,
    to,
  )) {
    const off = r.units_atoms * r.basis_bought_minor - r.basis_minor * r.units_bought_atoms;
    if ((off < 0n ? -off : off) >= r.units_bought_atoms || (r.trade_date >= from && r.buy_date < from))
      inMoney.add(holdingKey(r.account_id, r.security_id));
  }
  return inMoney;
}

/** The symbols each account holds in units in the range (a buy, reinvested dividend or sale not in money), sorted. */
export function symbolsHeld(
  db: LedgerDb,
  from: string,
  to: string,
  inMoney: ReadonlySet<string>,
): Map<string, string[]> {
  const held = new Map<string, Set<string>>();
  for (const t of db.iterateSql<{ account_id: string; security_id: string; symbol: string }>(
    `SELECT t.account_id, t.security_id, s.symbol FROM trades t JOIN securities s ON s.id = t.security_id
     WHERE t.trade_date >= ? AND t.trade_date <= ? AND t.entry_id IS NOT NULL
       AND (t.kind = 'sell' OR EXISTS (SELECT 1 FROM lots l WHERE l.trade_id = t.id))`,
    from,
    to,
  )) {
    if (inMoney.has(holdingKey(t.account_id, t.security_id))) continue;
    const symbols = held.get(t.account_id) ?? new Set<string>();
    symbols.add(t.symbol);
    held.set(t.account_id, symbols);
  }
  return new Map([...held].map(([id, s]) => [id, [...s].sort()]));
}

/** The trades with an entry in the range, by date then booking order (trades_by_date), each with its lot or reductions. */
export function* tradesByDate(db: LedgerDb, from: string, to: string): Generator<TradeOfExport> {
  for (const t of db.iterateSql<{
    id: string;
    entry_id: string;
    kind: TradeRow['kind'];
    account_id: string;
    security_id: string;
    symbol: string;
    currency: string;
    trade_date: string;
    price: string | null;
    cost_minor: bigint;
  }>(
    `SELECT t.id, t.entry_id, t.kind, t.account_id, t.security_id, s.symbol, s.currency, t.trade_date, t.price, t.cost_minor
       FROM trades t JOIN securities s ON s.id = t.security_id
      WHERE t.trade_date >= ? AND t.trade_date <= ? AND t.entry_id IS NOT NULL ORDER BY t.trade_date, t.seq`,
    from,
    to,
  )) {
    const [bought] = db.allSql<LotSql>(
      'SELECT id, buy_date, seq, units_bought_atoms, basis_bought_minor FROM lots WHERE trade_id = ?',
      t.id,
    );
    const sold =
      t.kind === 'sell'
        ? db
            .allSql<LotSql & { units_atoms: bigint; basis_minor: bigint }>(
              `SELECT l.id, l.buy_date, l.seq, l.units_bought_atoms, l.basis_bought_minor, r.units_atoms, r.basis_minor
                 FROM lot_reductions r JOIN lots l ON l.id = r.lot_id WHERE r.trade_id = ?`,
              t.id,
            )
            .map((r) => ({ lot: toLot(r), units: r.units_atoms, basisMinor: r.basis_minor }))
            .sort((a, b) => (a.lot.date !== b.lot.date ? (a.lot.date < b.lot.date ? -1 : 1) : a.lot.seq - b.lot.seq))
        : [];
    yield {
      id: t.id,
      entryId: t.entry_id,
      kind: t.kind,
      accountId: t.account_id,
      securityId: t.security_id,
      symbol: t.symbol,
      currency: t.currency,
      date: t.trade_date,
      price: t.price,
      costMinor: t.cost_minor,
      bought: bought ? toLot(bought) : null,
      sold,
    };
  }
}
