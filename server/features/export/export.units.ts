import type { LedgerDb } from '../../db/stores.ts';
import { currencyDigits } from '../../domain/currencies.ts';
import type { Direction } from '../../domain/double-entry.ts';
import type { BookEntry, BookUnits } from '../../domain/plaintext/index.ts';
import { costsExactly, lotUnitCost } from '../../domain/plaintext/units.ts';
import { tradesOfExport, type LotOfExport } from '../investments/investments.repository.ts';
import type { DateFilter } from './export.repository.ts';

/** The line of a trade's entry that its units stand in for, and the units. */
interface UnitsLine {
  accountId: string;
  direction: Direction;
  amountMinor: bigint;
  /** a sale's cost line comes after its cash line on the same account: take the last that fits */
  last: boolean;
  units: BookUnits[];
}

/**
 * The units of each trade's entry (docs/investments.md "Interop"), by entry id, and the securities
 * each account holds in the export (their symbols, for beancount's `open`).
 *
 * A holding's trades are written in money, as the journal keeps them, when its lots cannot be told
 * as plain-text lots: after a split (its lots' units changed in place), when a sale took a lot's
 * basis at other than the lot's own cost (AVERAGE spreads the pool's basis), or when a sale in the
 * range reduces a lot bought before the range's start.
 */
export function tradeUnits(
  db: LedgerDb,
  range: DateFilter,
): { byEntry: Map<string, UnitsLine>; held: Map<string, string[]> } {
  const { trades, lots, reductions } = tradesOfExport(db, range.to);
  const lotById = new Map(lots.map((l) => [l.id, l] as const));
  const lotOfTrade = new Map(lots.map((l) => [l.tradeId, l] as const));
  const tradeById = new Map(trades.map((t) => [t.id, t] as const));
  const holding = (t: { accountId: string; securityId: string }) => `${t.accountId} ${t.securityId}`;
  const from = range.from ?? '';

  const inMoney = new Set<string>();
  for (const t of trades) if (t.kind === 'split') inMoney.add(holding(t));
  const soldBy = new Map<string, { lot: LotOfExport; units: bigint; basisMinor: bigint }[]>();
  for (const r of reductions) {
    const trade = tradeById.get(r.tradeId);
    const lot = lotById.get(r.lotId);
    if (!trade || !lot) continue;
    // the basis taken differs from the lot's cost of the units by a minor unit or more
    const off = r.units * lot.basisBought - r.basisMinor * lot.unitsBought;
    if ((off < 0n ? -off : off) >= lot.unitsBought || (trade.date >= from && lot.date < from))
      inMoney.add(holding(trade));
    const list = soldBy.get(r.tradeId) ?? [];
    list.push({ lot, units: r.units, basisMinor: r.basisMinor });
    soldBy.set(r.tradeId, list);
  }

  const byEntry = new Map<string, UnitsLine>();
  const held = new Map<string, Set<string>>();
  for (const t of trades) {
    if (t.entryId === null || t.date < from || inMoney.has(holding(t))) continue;
    const digits = currencyDigits(t.currency);
    const unitsOf = (lot: LotOfExport, atoms: bigint, costMinor: bigint, price: string | null): BookUnits => {
      const cost = lotUnitCost(lot.basisBought, lot.unitsBought, digits);
      return {
        symbol: t.symbol,
        atoms,
        lotDate: lot.date,
        unitCost: cost.text,
        exact: cost.exact && costsExactly(atoms, cost.text, costMinor, digits),
        costMinor,
        price,
      };
    };
    const bought = lotOfTrade.get(t.id);
    if (bought) {
      byEntry.set(t.entryId, {
        accountId: t.accountId,
        direction: 'DEBIT',
        amountMinor: bought.basisBought,
        last: false,
        units: [unitsOf(bought, bought.unitsBought, bought.basisBought, null)],
      });
    } else if (t.kind === 'sell') {
      const sold = (soldBy.get(t.id) ?? []).sort((a, b) =>
        a.lot.date !== b.lot.date ? (a.lot.date < b.lot.date ? -1 : 1) : a.lot.seq - b.lot.seq,
      );
      byEntry.set(t.entryId, {
        accountId: t.accountId,
        direction: 'CREDIT',
        amountMinor: t.costMinor,
        last: true,
        units: sold.map((s) => unitsOf(s.lot, -s.units, s.basisMinor, t.price)),
      });
    } else continue;
    const symbols = held.get(t.accountId) ?? new Set<string>();
    symbols.add(t.symbol);
    held.set(t.accountId, symbols);
  }
  return { byEntry, held: new Map([...held].map(([id, s]) => [id, [...s].sort()])) };
}

/** The entries, each trade's with its units on the line they stand in for. */
export function* withUnits(
  entries: Iterable<BookEntry>,
  byEntry: ReadonlyMap<string, UnitsLine>,
): Generator<BookEntry> {
  for (const entry of entries) {
    const u = byEntry.get(entry.id);
    if (!u) {
      yield entry;
      continue;
    }
    const fits = entry.lines
      .map((l, i) => ({ l, i }))
      .filter(({ l }) => l.accountId === u.accountId && l.direction === u.direction && l.amountMinor === u.amountMinor);
    const at = (u.last ? fits.at(-1) : fits[0])?.i;
    yield at === undefined
      ? entry
      : { ...entry, lines: entry.lines.map((l, i) => (i === at ? { ...l, units: u.units } : l)) };
  }
}
