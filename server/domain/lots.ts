import { divideHalfEven } from './rates.ts';

/**
 * Lots of a security in an account and how a sale reduces them (docs/investments.md).
 *
 * Units are integer atoms of 10^-8 unit (a security's units have at most 8 decimals); a lot's cost
 * basis is integer minor units of its price currency, the whole cost of the units left in it. No
 * figure ever passes through a binary float.
 *
 * The rules, in the order a sale applies them:
 * 1. A sale never takes more units than the lots hold (else `insufficient`, with what is held).
 * 2. FIFO takes the oldest lots first (by date, then the order they were bought); LIFO the newest
 *    first; named lots take exactly the units named from each lot named.
 * 3. A lot emptied gives up its whole basis; a lot reduced in part gives up basis × units taken /
 *    units held, rounded half to even, so basis is conserved to the minor unit.
 * 4. AVERAGE pools the lots: the sale's cost is the pool's basis × units sold / units held, rounded
 *    half to even; units are taken oldest first (the holding period counts from each lot's date) and
 *    the basis left is spread over the lots left by their units, so every lot left carries the
 *    average cost.
 * 5. The proceeds are spread over the reductions by their units (largest remainder), so each
 *    reduction's gain is its proceeds less its basis and the gains add up to proceeds − cost.
 */

export const UNIT_DECIMALS = 8;
export const UNIT_SCALE = 10n ** BigInt(UNIT_DECIMALS);

export const BOOKING_METHODS = ['FIFO', 'LIFO', 'AVERAGE'] as const;
export type BookingMethod = (typeof BOOKING_METHODS)[number];

export interface Lot {
  id: string;
  /** ISO date of the purchase */
  date: string;
  /** the order lots of the same date were bought in */
  seq: number;
  units: bigint;
  basisMinor: bigint;
}

export interface NamedLot {
  lotId: string;
  units: bigint;
}

export interface Reduction {
  lotId: string;
  date: string;
  units: bigint;
  basisMinor: bigint;
}

interface Booked {
  reductions: Reduction[];
  /** the lots as they stand after the sale (every lot given, emptied ones with zero units) */
  after: Lot[];
  costMinor: bigint;
}

export type SaleProblem =
  | { kind: 'insufficient'; held: bigint }
  | { kind: 'unknown_lot'; lotId: string }
  | { kind: 'lot_short'; lotId: string; held: bigint }
  | { kind: 'named_total'; named: bigint };

export type BookResult = { ok: true; booked: Booked } | { ok: false; problem: SaleProblem };

function byAge(a: Lot, b: Lot): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  return a.seq - b.seq;
}

/** basis × part / whole, half to even; the whole basis when part is the whole. */
function share(basis: bigint, part: bigint, whole: bigint): bigint {
  if (part === whole) return basis;
  return divideHalfEven(basis * part, whole);
}

/**
 * `total` spread over `weights` in proportion, each part rounded down and the remainder given one
 * unit at a time to the largest fractional parts (earliest first on a tie): the parts sum to total.
 */
export function spread(total: bigint, weights: readonly bigint[]): bigint[] {
  const whole = weights.reduce((s, w) => s + w, 0n);
  if (whole === 0n) return weights.map(() => 0n);
  const parts = weights.map((w) => (total * w) / whole);
  let rest = total - parts.reduce((s, p) => s + p, 0n);
  const order = weights
    .map((w, i) => ({ i, frac: (total * w) % whole }))
    .sort((a, b) => (a.frac === b.frac ? a.i - b.i : a.frac > b.frac ? -1 : 1));
  for (const { i } of order) {
    if (rest === 0n) break;
    parts[i]! += 1n;
    rest -= 1n;
  }
  return parts;
}

/** Reduces the open lots by `units` in the order given, each by rule 3. */
function takeInOrder(ordered: readonly Lot[], units: bigint): Map<string, bigint> {
  const taken = new Map<string, bigint>();
  let left = units;
  for (const lot of ordered) {
    if (left === 0n) break;
    const take = lot.units < left ? lot.units : left;
    if (take > 0n) taken.set(lot.id, take);
    left -= take;
  }
  return taken;
}

function applyTaken(lots: readonly Lot[], taken: ReadonlyMap<string, bigint>): Booked {
  const reductions: Reduction[] = [];
  const after: Lot[] = [];
  for (const lot of [...lots].sort(byAge)) {
    const take = taken.get(lot.id) ?? 0n;
    if (take === 0n) {
      after.push({ ...lot });
      continue;
    }
    const basis = share(lot.basisMinor, take, lot.units);
    reductions.push({ lotId: lot.id, date: lot.date, units: take, basisMinor: basis });
    after.push({ ...lot, units: lot.units - take, basisMinor: lot.basisMinor - basis });
  }
  return { reductions, after, costMinor: reductions.reduce((s, r) => s + r.basisMinor, 0n) };
}

function bookAverage(lots: readonly Lot[], units: bigint, held: bigint): Booked {
  const ordered = [...lots].sort(byAge);
  const poolBasis = ordered.reduce((s, l) => s + l.basisMinor, 0n);
  const cost = share(poolBasis, units, held);
  const taken = takeInOrder(ordered, units);
  const touched = ordered.filter((l) => taken.has(l.id));
  const costs = spread(
    cost,
    touched.map((l) => taken.get(l.id)!),
  );
  const reductions = touched.map((l, i) => ({
    lotId: l.id,
    date: l.date,
    units: taken.get(l.id)!,
    basisMinor: costs[i]!,
  }));
  const unitsLeft = ordered.map((l) => l.units - (taken.get(l.id) ?? 0n));
  const basisLeft = spread(poolBasis - cost, unitsLeft);
  const after = ordered.map((l, i) => ({ ...l, units: unitsLeft[i]!, basisMinor: basisLeft[i]! }));
  return { reductions, after, costMinor: cost };
}

/** How a sale of `units` (> 0) reduces `lots` (the account's open lots of one security). */
export function bookSale(lots: readonly Lot[], units: bigint, how: BookingMethod | readonly NamedLot[]): BookResult {
  const held = lots.reduce((s, l) => s + l.units, 0n);
  if (units > held) return { ok: false, problem: { kind: 'insufficient', held } };
  if (typeof how !== 'string') {
    const byId = new Map(lots.map((l) => [l.id, l] as const));
    const taken = new Map<string, bigint>();
    let named = 0n;
    for (const n of how) {
      const lot = byId.get(n.lotId);
      if (!lot) return { ok: false, problem: { kind: 'unknown_lot', lotId: n.lotId } };
      const already = taken.get(n.lotId) ?? 0n;
      if (already + n.units > lot.units)
        return { ok: false, problem: { kind: 'lot_short', lotId: n.lotId, held: lot.units } };
      taken.set(n.lotId, already + n.units);
      named += n.units;
    }
    if (named !== units) return { ok: false, problem: { kind: 'named_total', named } };
    return { ok: true, booked: applyTaken(lots, taken) };
  }
  if (how === 'AVERAGE') return { ok: true, booked: bookAverage(lots, units, held) };
  const ordered = [...lots].sort(byAge);
  if (how === 'LIFO') ordered.reverse();
  return { ok: true, booked: applyTaken(lots, takeInOrder(ordered, units)) };
}

/** The proceeds of a sale spread over its reductions by their units (rule 5). */
export function proceedsByReduction(proceedsMinor: bigint, reductions: readonly Reduction[]): bigint[] {
  return spread(
    proceedsMinor,
    reductions.map((r) => r.units),
  );
}

/** Whether a lot bought on `bought` and sold on `sold` is held long term: more than `days` days. */
export function isLongTerm(bought: string, sold: string, days: number): boolean {
  const ms = Date.parse(`${sold}T00:00:00Z`) - Date.parse(`${bought}T00:00:00Z`);
  return ms / 86_400_000 > days;
}

/** units (atoms) × price (scaled integer of `priceDecimals`) in minor units of `currencyDigits`, half to even. */
export function valueOf(units: bigint, price: bigint, priceDecimals: number, currencyDigits: number): bigint {
  const scale = UNIT_SCALE * 10n ** BigInt(priceDecimals);
  return divideHalfEven(units * price * 10n ** BigInt(currencyDigits), scale);
}

/** Reads units: a positive decimal with at most 8 decimals into atoms, or null. */
export function parseUnits(text: string): bigint | null {
  const m = /^(\d{1,10})(?:\.(\d{1,8}))?$/.exec(text);
  if (!m) return null;
  const atoms = BigInt(m[1]!) * UNIT_SCALE + BigInt((m[2] ?? '').padEnd(UNIT_DECIMALS, '0'));
  return atoms > 0n ? atoms : null;
}

/** Atoms as a decimal without trailing zeros (`10`, `0.5`). */
export function formatUnits(atoms: bigint): string {
  const negative = atoms < 0n;
  const abs = negative ? -atoms : atoms;
  const whole = abs / UNIT_SCALE;
  const frac = (abs % UNIT_SCALE).toString().padStart(UNIT_DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** A split: every lot's units × num / den (rounded half to even to the atom), its basis unchanged. */
export function splitLots(lots: readonly Lot[], num: bigint, den: bigint): Lot[] {
  return lots.map((l) => ({ ...l, units: divideHalfEven(l.units * num, den) }));
}

export const PRICE_DECIMALS = 10;

/** Reads a price per unit (a positive decimal, at most 12 whole digits and 10 decimals) scaled by 10^10, or null. */
export function parsePrice(text: string): bigint | null {
  const m = /^(\d{1,12})(?:\.(\d{1,10}))?$/.exec(text);
  if (!m) return null;
  const scaled = BigInt(m[1]!) * 10n ** BigInt(PRICE_DECIMALS) + BigInt((m[2] ?? '').padEnd(PRICE_DECIMALS, '0'));
  return scaled > 0n ? scaled : null;
}

/** A scaled price as a decimal without trailing zeros. */
export function formatPrice(scaled: bigint): string {
  const s = 10n ** BigInt(PRICE_DECIMALS);
  const frac = (scaled % s).toString().padStart(PRICE_DECIMALS, '0').replace(/0+$/, '');
  return `${scaled / s}${frac ? `.${frac}` : ''}`;
}

/** basis / units as a price per unit (scaled by 10^10), half to even; 0 for no units. */
export function unitCost(basisMinor: bigint, units: bigint, currencyDigits: number): bigint {
  if (units === 0n) return 0n;
  return divideHalfEven(basisMinor * UNIT_SCALE * 10n ** BigInt(PRICE_DECIMALS), units * 10n ** BigInt(currencyDigits));
}

/** Units as the contract takes them: at most 10 whole digits and 8 decimals, so every holding fits in int64 atoms. */
export const UNITS_PATTERN = /^\d{1,10}(\.\d{1,8})?$/;
/** A price per unit: at most 12 whole digits and 10 decimals. */
export const PRICE_PATTERN = /^\d{1,12}(\.\d{1,10})?$/;
/** A security's symbol: a letter, then letters, digits, '.', '_' or '-'; never an ISO 4217 code. */
export const SYMBOL_PATTERN = /^[A-Z][A-Z0-9._-]{0,23}$/;
/** The most units one account may hold of a security (so sums stay in int64 atoms). */
export const MAX_HOLDING_ATOMS = 10n ** 10n * UNIT_SCALE;
