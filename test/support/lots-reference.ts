/**
 * The lot-booking rules written out from docs/investments.md, step by step, as a person would book
 * a sale on paper: lots as plain rows, emptied one after another in the order of the method. It imports
 * nothing from server/, so the property test compares the code with the rules, not with itself.
 */
export interface RefLot {
  id: string;
  date: string;
  seq: number;
  units: bigint;
  basis: bigint;
}

/** a * b / c rounded half to even, for non-negative a, b and positive c. */
export function mulDivHalfEven(a: bigint, b: bigint, c: bigint): bigint {
  const n = a * b;
  const q = n / c;
  const r = n - q * c;
  if (2n * r > c) return q + 1n;
  if (2n * r < c) return q;
  return q % 2n === 0n ? q : q + 1n;
}

/** The lots in the order a sale takes them. */
export function saleOrder(lots: readonly RefLot[], method: 'FIFO' | 'LIFO'): RefLot[] {
  const older = (a: RefLot, b: RefLot) => (a.date < b.date || (a.date === b.date && a.seq < b.seq) ? -1 : 1);
  const sorted = [...lots].sort(older);
  return method === 'FIFO' ? sorted : sorted.reverse();
}

/** Units taken from each lot: the first lot in order until it is empty, then the next. */
export function unitsTaken(lots: readonly RefLot[], method: 'FIFO' | 'LIFO', units: bigint): Map<string, bigint> {
  const taken = new Map<string, bigint>();
  let left = units;
  for (const lot of saleOrder(lots, method)) {
    if (left === 0n) break;
    const take = lot.units < left ? lot.units : left;
    left -= take;
    if (take > 0n) taken.set(lot.id, take);
  }
  return taken;
}

/** The basis a reduction of `take` units gives up: all of it when the lot empties. */
export function basisGivenUp(lot: RefLot, take: bigint): bigint {
  return take === lot.units ? lot.basis : mulDivHalfEven(lot.basis, take, lot.units);
}
