import type { LedgerDb } from '../../db/stores.ts';
import { currencyDigits } from '../../domain/currencies.ts';
import type { Direction } from '../../domain/double-entry.ts';
import type { BookEntry, BookUnits } from '../../domain/plaintext/index.ts';
import { costsExactly, lotUnitCost } from '../../domain/plaintext/units.ts';
import {
  holdingKey,
  holdingsInMoney,
  symbolsHeld,
  tradesByDate,
  type LotOfExport,
  type TradeOfExport,
} from '../investments/investments.queries.ts';
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

/** A trade's units on the line they stand in for; null for a trade without units (a cash dividend). */
function unitsLine(t: TradeOfExport): UnitsLine | null {
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
  if (t.bought)
    return {
      accountId: t.accountId,
      direction: 'DEBIT',
      amountMinor: t.bought.basisBought,
      last: false,
      units: [unitsOf(t.bought, t.bought.unitsBought, t.bought.basisBought, null)],
    };
  if (t.kind !== 'sell') return null;
  return {
    accountId: t.accountId,
    direction: 'CREDIT',
    amountMinor: t.costMinor,
    last: true,
    units: t.sold.map((s) => unitsOf(s.lot, -s.units, s.basisMinor, t.price)),
  };
}

/**
 * An entry with a trade's units on the line they stand in for; an imported sale keeps a line per lot
 * it reduced, so there each lot's units go on the line of their cost. The entry is as it is when no
 * line fits.
 */
function placed(entry: BookEntry, u: UnitsLine): BookEntry {
  const onAccount = (l: BookEntry['lines'][number]) => l.accountId === u.accountId && l.direction === u.direction;
  const fits = entry.lines.map((l, i) => ({ l, i })).filter(({ l }) => onAccount(l) && l.amountMinor === u.amountMinor);
  const at = (u.last ? fits.at(-1) : fits[0])?.i;
  if (at !== undefined)
    return { ...entry, lines: entry.lines.map((l, i) => (i === at ? { ...l, units: u.units } : l)) };
  if (u.units.length < 2) return entry;
  const byLine = new Map<number, BookUnits>();
  for (const unit of u.units) {
    const i = entry.lines.findIndex((l, k) => !byLine.has(k) && onAccount(l) && l.amountMinor === unit.costMinor);
    if (i === -1) return entry;
    byLine.set(i, unit);
  }
  return { ...entry, lines: entry.lines.map((l, i) => (byLine.has(i) ? { ...l, units: [byLine.get(i)!] } : l)) };
}

/**
 * The units of the trades' entries in an export (docs/investments.md "Interop") and the securities
 * each account holds in it (their symbols, for beancount's `open`).
 *
 * A holding's trades are written in money, as the journal keeps them, when its lots cannot be told
 * as plain-text lots: after a split (its lots' units changed in place), when a sale took a lot's
 * basis at other than the lot's own cost (AVERAGE spreads the pool's basis), or when a sale in the
 * range reduces a lot bought before the range's start.
 *
 * `withUnits` walks the trades in date order beside the entries (which come in date order), so the
 * export holds one day's trades at a time, however many the books have.
 */
export function tradeUnits(
  db: LedgerDb,
  range: DateFilter,
): { held: Map<string, string[]>; withUnits: (entries: Iterable<BookEntry>) => Generator<BookEntry> } {
  const from = range.from ?? '';
  const to = range.to ?? '9999-12-31';
  const inMoney = holdingsInMoney(db, from, to);
  return {
    held: symbolsHeld(db, from, to, inMoney),
    withUnits: function* (entries) {
      const trades = tradesByDate(db, from, to);
      try {
        const today = new Map<string, UnitsLine>();
        let day = '';
        let next = trades.next();
        for (const entry of entries) {
          if (entry.date !== day) {
            today.clear();
            day = entry.date;
            for (; !next.done && next.value.date <= day; next = trades.next()) {
              const t = next.value;
              if (t.date < day || inMoney.has(holdingKey(t.accountId, t.securityId))) continue;
              const u = unitsLine(t);
              if (u) today.set(t.entryId, u);
            }
          }
          const u = today.get(entry.id);
          yield u ? placed(entry, u) : entry;
        }
      } finally {
        trades.return(undefined);
      }
    },
  };
}
