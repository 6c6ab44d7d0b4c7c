import type { LedgerDb } from '../../db/stores.ts';
import { formatRate, parseRate, type PriceSeries } from '../../domain/rates.ts';
import type { Price } from './prices.model.ts';

type Row = { id: string; date: string; from_currency: string; to_currency: string; rate: string; created_at: string };

const COLUMNS = 'id, date, from_currency, to_currency, rate, created_at';

/** Rates are kept as exact decimal text (formatRate's form). */
function toPrice(row: Row): Price {
  return {
    id: row.id,
    date: row.date,
    from: row.from_currency,
    to: row.to_currency,
    rateScaled: parseRate(row.rate)!,
    createdAt: row.created_at,
  };
}

export function findPriceOn(db: LedgerDb, date: string, from: string, to: string): Price | undefined {
  const [row] = db.allSql<Row>(
    `SELECT ${COLUMNS} FROM prices WHERE from_currency = ? AND to_currency = ? AND date = ?`,
    from,
    to,
    date,
  );
  return row && toPrice(row);
}

export function insertPrice(db: LedgerDb, p: Price): void {
  db.runSql(
    'INSERT INTO prices (id, date, from_currency, to_currency, rate, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    p.id,
    p.date,
    p.from,
    p.to,
    formatRate(p.rateScaled),
    p.createdAt,
  );
}

export function updatePriceRate(db: LedgerDb, id: string, rateScaled: bigint): void {
  db.runSql('UPDATE prices SET rate = ? WHERE id = ?', formatRate(rateScaled), id);
}

export function deletePrice(db: LedgerDb, id: string): boolean {
  return db.runSql('DELETE FROM prices WHERE id = ?', id) > 0;
}

/** A page of prices, newest date first, each filter served by its own index. */
export function listPrices(
  db: LedgerDb,
  filter: { from?: string | undefined; to?: string | undefined },
  limit: number,
  offset: number,
): { items: Price[]; total: number } {
  const where: string[] = [];
  const params: string[] = [];
  if (filter.from) {
    where.push('from_currency = ?');
    params.push(filter.from);
  }
  if (filter.to) {
    where.push('to_currency = ?');
    params.push(filter.to);
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = Number(db.allSql<{ n: bigint }>(`SELECT COUNT(*) AS n FROM prices ${clause}`, ...params)[0]!.n);
  const rows = db.allSql<Row>(
    `SELECT ${COLUMNS} FROM prices ${clause} ORDER BY date DESC, from_currency, to_currency LIMIT ? OFFSET ?`,
    ...params,
    limit,
    offset,
  );
  return { items: rows.map(toPrice), total };
}

/**
 * The latest price of every pair: one index seek per pair (the next pair after the last, then its
 * newest date), never a read of every price.
 */
export function latestPerPair(db: LedgerDb): Price[] {
  const out: Price[] = [];
  let after: { from: string; to: string } | undefined;
  for (;;) {
    type PairRow = { from_currency: string; to_currency: string };
    const rows: PairRow[] = after
      ? db.allSql<PairRow>(
          'SELECT from_currency, to_currency FROM prices WHERE (from_currency, to_currency) > (?, ?) ORDER BY from_currency, to_currency LIMIT 1',
          after.from,
          after.to,
        )
      : db.allSql<PairRow>('SELECT from_currency, to_currency FROM prices ORDER BY from_currency, to_currency LIMIT 1');
    const pair = rows[0];
    if (!pair) return out;
    const [row] = db.allSql<Row>(
      `SELECT ${COLUMNS} FROM prices WHERE from_currency = ? AND to_currency = ? ORDER BY date DESC LIMIT 1`,
      pair.from_currency,
      pair.to_currency,
    );
    out.push(toPrice(row!));
    after = { from: pair.from_currency, to: pair.to_currency };
  }
}

/** A pair's latest price on or before a day, or undefined: one index seek. */
export function latestPrice(db: LedgerDb, from: string, to: string, onOrBefore: string): Price | undefined {
  const [row] = db.allSql<Row>(
    `SELECT ${COLUMNS} FROM prices WHERE from_currency = ? AND to_currency = ? AND date <= ? ORDER BY date DESC LIMIT 1`,
    from,
    to,
    onOrBefore,
  );
  return row && toPrice(row);
}

/** A pair's latest rate on or before a day (10^-12 units), or null: one index seek. */
export function latestRate(db: LedgerDb, from: string, to: string, onOrBefore: string): bigint | null {
  const [row] = db.allSql<{ rate: string }>(
    'SELECT rate FROM prices WHERE from_currency = ? AND to_currency = ? AND date <= ? ORDER BY date DESC LIMIT 1',
    from,
    to,
    onOrBefore,
  );
  return row ? parseRate(row.rate)! : null;
}

/** A pair's latest rate on or before each of `days` (10^-12 units, null where none): one statement, an index seek a day. */
export function latestRates(
  db: LedgerDb,
  from: string,
  to: string,
  days: readonly string[],
): Map<string, bigint | null> {
  const rows = db.allSql<{ day: string; rate: string | null }>(
    `SELECT d.value AS day,
            (SELECT rate FROM prices WHERE from_currency = ? AND to_currency = ? AND date <= d.value ORDER BY date DESC LIMIT 1) AS rate
       FROM json_each(?) d`,
    from,
    to,
    JSON.stringify(days),
  );
  return new Map(rows.map((r) => [r.day, r.rate === null ? null : parseRate(r.rate)!]));
}

/**
 * One pair's prices that decide its rate on the days [since, upTo]: the latest on or before `since`
 * and every one after it up to `upTo`, oldest first, as the rate look-up takes them.
 */
export function priceSeries(db: LedgerDb, from: string, to: string, since: string, upTo: string): PriceSeries {
  const rows = db.allSql<{ date: string; rate: string }>(
    `SELECT date, rate FROM prices
      WHERE from_currency = ? AND to_currency = ? AND date <= ?
        AND date >= COALESCE((SELECT MAX(date) FROM prices WHERE from_currency = ? AND to_currency = ? AND date <= ?), '')
      ORDER BY date`,
    from,
    to,
    upTo,
    from,
    to,
    since,
  );
  return { dates: rows.map((r) => r.date), rates: rows.map((r) => parseRate(r.rate)!) };
}

/** Every price dated on or before `upTo` (all with null), by date, then pair: what an export writes. */
export function pricesUpTo(db: LedgerDb, upTo: string | null): Price[] {
  return db
    .allSql<Row>(
      `SELECT ${COLUMNS} FROM prices WHERE date <= ? ORDER BY date, from_currency, to_currency`,
      upTo ?? '9999-12-31',
    )
    .map(toPrice);
}
