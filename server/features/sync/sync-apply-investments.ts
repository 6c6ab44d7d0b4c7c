/**
 * Applying received securities, trades and receipts' rows (docs/sync.md, "Investments and receipts").
 *
 * A trade travels as one value: the trade, the lot a buy (or a reinvested dividend) made and the
 * reductions a sale took from lots, as the device that booked it worked them out. Those are facts;
 * what follows from them is not sent: the units and basis left in each lot, the holding's totals.
 * Applying a trade writes its facts and rebuilds its holding (one account's one security) from all
 * its trades in the order they were booked (the timestamp of each trade's first message, the same
 * on every device): a buy adds its lot, a sale takes its recorded reductions, a split scales the
 * lots left, an AVERAGE account spreads the basis left over its lots, as the booking code does
 * (server/domain/lots.ts). So every device holds the same lots, whatever order the trades came in.
 *
 * A sale whose reductions take more than its lots hold at its place in that order (the same units
 * sold on two devices offline) is set aside on every device: its row waits in change_parked, the
 * lots and the holding count without it, and its entry stays in the journal as an ordinary posted
 * entry the user may void. It is tried again with each sync.
 */
import type { LedgerDb } from '../../db/stores.ts';
import type { Dataset, RowValue } from '../../db/change-log.ts';
import { spread, splitLots, type Lot } from '../../domain/lots.ts';

/** The datasets whose apply is here. */
const HANDLED = new Set(['securities', 'trades', 'attachment_files', 'attachment_chunks']);

const TRADE_COLUMNS = [
  'id',
  'entry_id',
  'account_id',
  'security_id',
  'kind',
  'trade_date',
  'units_atoms',
  'price',
  'amount_minor',
  'fees_minor',
  'units_delta_atoms',
  'basis_delta_minor',
  'proceeds_minor',
  'cost_minor',
  'created_at',
] as const;
const INTEGER_TRADE_COLUMNS = new Set([
  'units_atoms',
  'amount_minor',
  'fees_minor',
  'units_delta_atoms',
  'basis_delta_minor',
  'proceeds_minor',
  'cost_minor',
]);

const big = (v: unknown): bigint => BigInt(String(v));
const text = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/**
 * Applies a row of a dataset handled here; answers whether it took effect (false: set aside, to wait
 * in change_parked), or undefined for a dataset the generic apply writes.
 */
export function applyInvestmentRow(
  db: LedgerDb,
  dataset: Dataset,
  rowId: string,
  value: RowValue | null,
): boolean | undefined {
  if (!HANDLED.has(dataset.name)) return undefined;
  switch (dataset.name) {
    case 'securities':
      applySecurity(db, rowId, value);
      return true;
    case 'trades':
      return applyTrade(db, rowId, value);
    case 'attachment_files':
      applyAttachmentFile(db, rowId, value);
      return true;
    default:
      // a chunk's bytes are written to the data folder by the sync (attachment-transfer.ts), not here
      return true;
  }
}

/** The symbol a security of a duplicated symbol takes: the symbol, a dash and the end of its id. */
export function aliasSymbol(symbol: string, id: string): string {
  return `${symbol.slice(0, 15)}-${id.replace(/-/g, '').slice(-8).toUpperCase()}`;
}

/**
 * Two securities of one symbol from two devices are both kept: the smaller id keeps the symbol, the
 * other is told apart by `aliasSymbol`, whichever arrived first (trades name securities by id).
 */
function applySecurity(db: LedgerDb, rowId: string, value: RowValue | null): void {
  // the app never deletes a security (trades and prices name it): a deletion changes nothing
  if (value === null) return;
  const symbol = String(value.symbol);
  let own = symbol;
  const [holder] = db.allSql<{ id: string }>('SELECT id FROM securities WHERE symbol = ? AND id <> ?', symbol, rowId);
  if (holder) {
    if (holder.id < rowId) own = aliasSymbol(symbol, rowId);
    else db.runSql('UPDATE securities SET symbol = ? WHERE id = ?', aliasSymbol(symbol, holder.id), holder.id);
  }
  const row = [rowId, own, String(value.name), String(value.currency), String(value.created_at)];
  if (db.existsSql('SELECT 1 FROM securities WHERE id = ?', rowId))
    db.runSql(
      'UPDATE securities SET symbol = ?, name = ?, currency = ?, created_at = ? WHERE id = ?',
      ...row.slice(1),
      rowId,
    );
  else db.runSql('INSERT INTO securities (id, symbol, name, currency, created_at) VALUES (?, ?, ?, ?, ?)', ...row);
}

/** A file's row; one that attachments still name is not deleted (their own deletion releases it). */
function applyAttachmentFile(db: LedgerDb, sha256: string, value: RowValue | null): void {
  if (value === null) {
    db.runSql(
      'DELETE FROM attachment_files WHERE sha256 = ? AND NOT EXISTS (SELECT 1 FROM attachments WHERE sha256 = ?)',
      sha256,
      sha256,
    );
    return;
  }
  db.runSql(
    `INSERT INTO attachment_files (sha256, size_bytes, content_type, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (sha256) DO NOTHING`,
    sha256,
    big(value.size_bytes),
    String(value.content_type),
    String(value.created_at),
  );
}

function nextSeq(db: LedgerDb, table: 'trades' | 'lots'): bigint {
  return db.allSql<{ n: bigint }>(`SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM ${table}`)[0]!.n;
}

/**
 * The holdings whose trades arrived in the batch being applied (`account security`), rebuilt once
 * after it (`rebuildDeferredHoldings`) rather than once a trade; null when each is rebuilt at once.
 */
let deferred: Set<string> | null = null;
let pendingRebuilds = new Set<string>();

/** Starts (true) or ends (false) a batch whose holdings are rebuilt after it. */
export function deferHoldings(on: boolean): void {
  deferred = on ? new Set() : null;
  if (on) pendingRebuilds = deferred!;
}

/** Rebuilds the holdings the batch touched; a sale that does not fit is set aside then. */
export function rebuildDeferredHoldings(db: LedgerDb): void {
  const keys = [...pendingRebuilds];
  pendingRebuilds = new Set();
  for (const key of keys) {
    const [accountId, securityId] = key.split(' ') as [string, string];
    rebuildHolding(db, accountId, securityId);
  }
}

function applyTrade(db: LedgerDb, rowId: string, value: RowValue | null): boolean {
  const [here] = db.allSql<{ account_id: string; security_id: string }>(
    'SELECT account_id, security_id FROM trades WHERE id = ?',
    rowId,
  );
  if (value === null) {
    if (!here) return true;
    removeTrade(db, rowId);
    rebuildHolding(db, here.account_id, here.security_id);
    return true;
  }
  // a trade is never edited: one here already holds these facts
  if (here) return true;
  const columns = TRADE_COLUMNS.map((c) => {
    const v = value[c] ?? null;
    return INTEGER_TRADE_COLUMNS.has(c) ? big(v) : text(v);
  });
  db.runSql(
    `INSERT INTO trades (${TRADE_COLUMNS.join(', ')}, seq) VALUES (${TRADE_COLUMNS.map(() => '?').join(', ')}, ?)`,
    ...columns,
    nextSeq(db, 'trades'),
  );
  const accountId = String(value.account_id);
  const securityId = String(value.security_id);
  for (const lot of (value.lots as RowValue[] | undefined) ?? [])
    db.runSql(
      `INSERT INTO lots (id, seq, trade_id, account_id, security_id, buy_date, units_bought_atoms, basis_bought_minor, units_atoms, basis_minor)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      String(lot.id),
      nextSeq(db, 'lots'),
      rowId,
      accountId,
      securityId,
      String(lot.buy_date),
      big(lot.units_bought_atoms),
      big(lot.basis_bought_minor),
      big(lot.units_bought_atoms),
      big(lot.basis_bought_minor),
    );
  for (const r of (value.reductions as RowValue[] | undefined) ?? [])
    db.runSql(
      `INSERT INTO lot_reductions (trade_id, lot_id, security_id, sale_date, units_atoms, basis_minor, proceeds_minor, gain_minor, long_term)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      rowId,
      String(r.lot_id),
      securityId,
      String(r.sale_date),
      big(r.units_atoms),
      big(r.basis_minor),
      big(r.proceeds_minor),
      big(r.gain_minor),
      big(r.long_term),
    );
  if (deferred) {
    deferred.add(`${accountId} ${securityId}`);
    return true;
  }
  return !rebuildHolding(db, accountId, securityId).includes(rowId);
}

/** Takes a trade's rows out (its reductions, its lots, and first the sales that took from those lots). */
function removeTrade(db: LedgerDb, tradeId: string): void {
  db.runSql('DELETE FROM lot_reductions WHERE trade_id = ?', tradeId);
  const takers = db.allSql<{ trade_id: string }>(
    'SELECT r.trade_id FROM lots l JOIN lot_reductions r ON r.lot_id = l.id WHERE l.trade_id = ?',
    tradeId,
  );
  for (const { trade_id } of takers) setAside(db, trade_id);
  db.runSql('DELETE FROM lots WHERE trade_id = ?', tradeId);
  db.runSql('DELETE FROM trades WHERE id = ?', tradeId);
}

/** A sale that does not fit leaves the table to wait in change_parked; that is no change of the user's. */
function setAside(db: LedgerDb, tradeId: string): void {
  db.runSql('DELETE FROM lot_reductions WHERE trade_id = ?', tradeId);
  db.runSql('DELETE FROM trades WHERE id = ?', tradeId);
  db.runSql("DELETE FROM change_dirty WHERE dataset = 'trades' AND row_id = ?", tradeId);
  db.runSql("INSERT OR IGNORE INTO change_parked (dataset, row_id) VALUES ('trades', ?)", tradeId);
}

interface HoldingTrade {
  id: string;
  kind: string;
  price: string | null;
  units_delta_atoms: bigint;
  basis_delta_minor: bigint;
  proceeds_minor: bigint;
  cost_minor: bigint;
  units_atoms: bigint;
  /** the timestamp of its first message: the order it was booked in, the same on every device */
  booked: string | null;
  seq: bigint;
}

/** The order trades were booked in: their first message's timestamp (this device's order for any not logged). */
function byBooking(a: HoldingTrade, b: HoldingTrade): number {
  const ka = a.booked ?? '';
  const kb = b.booked ?? '';
  if (ka !== kb) return ka < kb ? -1 : 1;
  return a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0;
}

type ReplayLot = Lot & { order: number };

/**
 * Rebuilds one holding's lots and totals from its trades in booking order; sets aside the sales that
 * take more than their lots hold at their place, and answers their ids.
 */
export function rebuildHolding(db: LedgerDb, accountId: string, securityId: string): string[] {
  const trades = db
    .allSql<HoldingTrade>(
      `SELECT t.id, t.kind, t.price, t.units_delta_atoms, t.basis_delta_minor, t.proceeds_minor, t.cost_minor,
         t.units_atoms, t.seq,
         (SELECT MIN(c.timestamp) FROM change_log c WHERE c.dataset = 'trades' AND c.row_id = t.id) AS booked
       FROM trades t WHERE t.account_id = ? AND t.security_id = ?`,
      accountId,
      securityId,
    )
    .sort(byBooking);
  type LotRow = {
    id: string;
    trade_id: string;
    buy_date: string;
    seq: bigint;
    units_bought_atoms: bigint;
    basis_bought_minor: bigint;
    units_atoms: bigint;
    basis_minor: bigint;
  };
  const lotsOf = new Map<string, LotRow[]>();
  const stored = new Map<string, LotRow>();
  for (const lot of db.allSql<LotRow>(
    `SELECT id, trade_id, buy_date, seq, units_bought_atoms, basis_bought_minor, units_atoms, basis_minor
       FROM lots WHERE account_id = ? AND security_id = ?`,
    accountId,
    securityId,
  )) {
    lotsOf.set(lot.trade_id, [...(lotsOf.get(lot.trade_id) ?? []), lot]);
    stored.set(lot.id, lot);
  }
  const takenBy = new Map<string, { lot_id: string; units_atoms: bigint; basis_minor: bigint }[]>();
  for (const r of db.allSql<{ trade_id: string; lot_id: string; units_atoms: bigint; basis_minor: bigint }>(
    `SELECT r.trade_id, r.lot_id, r.units_atoms, r.basis_minor FROM trades t JOIN lot_reductions r ON r.trade_id = t.id
      WHERE t.account_id = ? AND t.security_id = ? AND t.kind = 'sell'`,
    accountId,
    securityId,
  ))
    takenBy.set(r.trade_id, [...(takenBy.get(r.trade_id) ?? []), r]);
  const [settings] = db.allSql<{ booking_method: string }>(
    'SELECT booking_method FROM investment_accounts WHERE account_id = ?',
    accountId,
  );
  const average = settings?.booking_method === 'AVERAGE';

  const lots = new Map<string, ReplayLot>();
  const byAge = (a: ReplayLot, b: ReplayLot) => (a.date !== b.date ? (a.date < b.date ? -1 : 1) : a.order - b.order);
  const open = () => [...lots.values()].filter((l) => l.units > 0n).sort(byAge);
  const counted: HoldingTrade[] = [];
  const setAsideIds: string[] = [];
  for (const trade of trades) {
    if (trade.kind === 'sell') {
      const taken = takenBy.get(trade.id) ?? [];
      const fits = taken.every((r) => {
        const lot = lots.get(r.lot_id);
        // an AVERAGE sale's basis is the pool's, more than a cheap lot's own; the pool is spread again below
        return lot !== undefined && lot.units >= r.units_atoms && (average || lot.basisMinor >= r.basis_minor);
      });
      if (!fits) {
        setAside(db, trade.id);
        setAsideIds.push(trade.id);
        continue;
      }
      const pool = average ? open() : [];
      for (const r of taken) {
        const lot = lots.get(r.lot_id)!;
        lot.units -= r.units_atoms;
        lot.basisMinor -= r.basis_minor;
      }
      if (average) {
        // AVERAGE leaves every lot at the pool's average cost, an emptied one at none (bookAverage)
        const basis = spread(
          pool.reduce((s, l) => s + l.basisMinor, 0n),
          pool.map((l) => l.units),
        );
        pool.forEach((l, i) => (l.basisMinor = basis[i]!));
      }
    } else if (trade.kind === 'split') {
      const [num, den] = String(trade.price).split(':').map(BigInt) as [bigint, bigint];
      for (const lot of splitLots(open(), num, den)) lots.get(lot.id)!.units = lot.units;
    } else {
      for (const lot of lotsOf.get(trade.id) ?? [])
        lots.set(lot.id, {
          id: lot.id,
          date: lot.buy_date,
          seq: 0,
          order: lots.size,
          units: lot.units_bought_atoms,
          basisMinor: lot.basis_bought_minor,
        });
    }
    counted.push(trade);
  }

  // the lots' creation order follows the booking order, as on the device that booked them: renumbered
  // when it does not; only the lots that changed are written
  const ordered = [...lots.values()].sort((a, b) => a.order - b.order);
  const inOrder = ordered.every((l, i) => i === 0 || stored.get(ordered[i - 1]!.id)!.seq < stored.get(l.id)!.seq);
  let seq = inOrder ? 0n : nextSeq(db, 'lots');
  for (const lot of ordered) {
    const was = stored.get(lot.id)!;
    const newSeq = inOrder ? was.seq : seq++;
    if (was.units_atoms !== lot.units || was.basis_minor !== lot.basisMinor || was.seq !== newSeq)
      db.runSql(
        'UPDATE lots SET units_atoms = ?, basis_minor = ?, seq = ? WHERE id = ?',
        lot.units,
        lot.basisMinor,
        newSeq,
        lot.id,
      );
  }
  const held = counted.filter((t) => !(t.kind === 'dividend' && t.units_atoms === 0n));
  if (held.length === 0) {
    db.runSql('DELETE FROM holdings WHERE account_id = ? AND security_id = ?', accountId, securityId);
    return setAsideIds;
  }
  const sum = (f: (t: HoldingTrade) => bigint) => held.reduce((s, t) => s + f(t), 0n);
  const atLeastZero = (v: bigint) => (v < 0n ? 0n : v);
  const units = atLeastZero(sum((t) => t.units_delta_atoms));
  const basis = atLeastZero(sum((t) => t.basis_delta_minor));
  const realized = sum((t) => (t.kind === 'sell' ? t.proceeds_minor - t.cost_minor : 0n));
  db.runSql(
    'INSERT OR REPLACE INTO holdings (account_id, security_id, units_atoms, basis_minor, realized_minor) VALUES (?, ?, ?, ?, ?)',
    accountId,
    securityId,
    units,
    basis,
    realized,
  );
  return setAsideIds;
}
