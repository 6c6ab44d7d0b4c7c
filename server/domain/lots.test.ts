import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  bookSale,
  formatPrice,
  formatUnits,
  isLongTerm,
  parsePrice,
  parseUnits,
  proceedsByReduction,
  splitLots,
  UNIT_SCALE,
  unitCost,
  valueOf,
  type Lot,
} from './lots.ts';
import { basisGivenUp, mulDivHalfEven, saleOrder, unitsTaken, type RefLot } from '../../test/support/lots-reference.ts';

const U = UNIT_SCALE;
const lotsOf = (rows: [string, string, number, bigint][]): Lot[] =>
  rows.map(([id, date, units, basis], seq) => ({ id, date, seq, units: BigInt(units) * U, basisMinor: basis }));

// bought 10 VTI @ 200.00 on 2024-01-10 and 10 @ 220.00 on 2024-06-10
const twoBuys = lotsOf([
  ['a', '2024-01-10', 10, 200_000n],
  ['b', '2024-06-10', 10, 220_000n],
]);

describe('bookSale', () => {
  it('when 15 units are sold FIFO, then the older lot empties and 5 come from the newer at its cost', () => {
    const r = bookSale(twoBuys, 15n * U, 'FIFO');
    if (!r.ok) throw new Error('refused');
    expect(r.booked.reductions).toEqual([
      { lotId: 'a', date: '2024-01-10', units: 10n * U, basisMinor: 200_000n },
      { lotId: 'b', date: '2024-06-10', units: 5n * U, basisMinor: 110_000n },
    ]);
    expect(r.booked.costMinor).toBe(310_000n);
    expect(r.booked.after.map((l) => [l.id, l.units, l.basisMinor])).toEqual([
      ['a', 0n, 0n],
      ['b', 5n * U, 110_000n],
    ]);
  });

  it('when 15 units are sold LIFO, then the newer lot empties first', () => {
    const r = bookSale(twoBuys, 15n * U, 'LIFO');
    if (!r.ok) throw new Error('refused');
    expect(r.booked.reductions.map((x) => [x.lotId, x.units, x.basisMinor])).toEqual([
      ['a', 5n * U, 100_000n],
      ['b', 10n * U, 220_000n],
    ]);
  });

  it('when a lot is named, then only it is reduced', () => {
    const r = bookSale(twoBuys, 3n * U, [{ lotId: 'b', units: 3n * U }]);
    if (!r.ok) throw new Error('refused');
    expect(r.booked.reductions).toEqual([{ lotId: 'b', date: '2024-06-10', units: 3n * U, basisMinor: 66_000n }]);
  });

  it('when the account holds fewer units than sold, then the sale is refused with what is held', () => {
    expect(bookSale(twoBuys, 21n * U, 'FIFO')).toEqual({ ok: false, problem: { kind: 'insufficient', held: 20n * U } });
  });

  it('when named lots are unknown, short or do not add up to the sale, then the sale is refused saying which', () => {
    expect(bookSale(twoBuys, U, [{ lotId: 'x', units: U }])).toEqual({
      ok: false,
      problem: { kind: 'unknown_lot', lotId: 'x' },
    });
    expect(bookSale(twoBuys, 11n * U, [{ lotId: 'a', units: 11n * U }])).toEqual({
      ok: false,
      problem: { kind: 'lot_short', lotId: 'a', held: 10n * U },
    });
    expect(bookSale(twoBuys, 2n * U, [{ lotId: 'a', units: U }])).toEqual({
      ok: false,
      problem: { kind: 'named_total', named: U },
    });
  });

  it('when sold at average cost, then the cost is the pool average and every lot left carries it', () => {
    const r = bookSale(twoBuys, 5n * U, 'AVERAGE');
    if (!r.ok) throw new Error('refused');
    expect(r.booked.costMinor).toBe(105_000n); // 5 × 210.00
    expect(r.booked.after.map((l) => [l.units, l.basisMinor])).toEqual([
      [5n * U, 105_000n],
      [10n * U, 210_000n],
    ]);
  });

  it('when a third of a lot of 100.00 is sold, then it gives up 33.33 and keeps 66.67', () => {
    const lots = [{ id: 'a', date: '2024-01-01', seq: 0, units: 3n * U, basisMinor: 10_000n }];
    const r = bookSale(lots, U, 'FIFO');
    if (!r.ok) throw new Error('refused');
    expect(r.booked.costMinor).toBe(3_333n);
    expect(r.booked.after[0]!.basisMinor).toBe(6_667n);
  });

  it('when half of a lot of 0.07 is sold, then it gives up 0.04 (3.5 cents, half to even) and keeps 0.03', () => {
    const lots = [{ id: 'a', date: '2024-01-01', seq: 0, units: 2n * U, basisMinor: 7n }];
    const r = bookSale(lots, U, 'FIFO');
    if (!r.ok) throw new Error('refused');
    expect([r.booked.costMinor, r.booked.after[0]!.basisMinor]).toEqual([4n, 3n]);
  });
});

describe('units, prices and values', () => {
  it('when units have up to 8 decimals, then they are read exactly; more, zero or a sign are refused', () => {
    expect(parseUnits('10')).toBe(10n * U);
    expect(parseUnits('0.00000001')).toBe(1n);
    expect(formatUnits(parseUnits('12.5')!)).toBe('12.5');
    for (const bad of ['0', '0.000000001', '-1', '1e3', '', '.5']) expect(parseUnits(bad), bad).toBeNull();
  });

  it('when 10 VTI @ 210.50 USD are valued, then they are worth 2105.00 exactly', () => {
    expect(valueOf(10n * U, parsePrice('210.50')!, 10, 2)).toBe(210_500n);
    expect(formatPrice(parsePrice('210.5000')!)).toBe('210.5');
    expect(unitCost(210_500n, 10n * U, 2)).toBe(parsePrice('210.5'));
  });

  it('when 0.333 units at 1.005 are valued, then the half cent rounds to even', () => {
    // 0.334665 USD → 0.33
    expect(valueOf(parseUnits('0.333')!, parsePrice('1.005')!, 10, 2)).toBe(33n);
    // 0.5 × 0.05 = 0.025 → 0.02 (half to even)
    expect(valueOf(parseUnits('0.5')!, parsePrice('0.05')!, 10, 2)).toBe(2n);
  });

  it('when a lot is held more than the long-term days, then it is long term; on the day itself it is not', () => {
    expect(isLongTerm('2024-01-10', '2025-01-10', 365)).toBe(true); // 366 days: 2024 is a leap year
    expect(isLongTerm('2023-01-10', '2024-01-10', 365)).toBe(false);
  });

  it('when 2-for-1 is split, then units double and basis stays', () => {
    expect(splitLots(twoBuys, 2n, 1n).map((l) => [l.units, l.basisMinor])).toEqual([
      [20n * U, 200_000n],
      [20n * U, 220_000n],
    ]);
  });
});

const lotArb = fc
  .array(
    fc.record({
      date: fc
        .integer({ min: 0, max: 60 })
        .map((d) => `2024-${String(1 + (d % 12)).padStart(2, '0')}-${String(1 + (d % 28)).padStart(2, '0')}`),
      units: fc.bigInt({ min: 1n, max: 10n ** 12n }),
      basis: fc.bigInt({ min: 1n, max: 10n ** 10n }),
    }),
    { minLength: 1, maxLength: 8 },
  )
  .map((rows) => rows.map((r, i) => ({ id: `l${i}`, date: r.date, seq: i, units: r.units, basisMinor: r.basis })));

const toRef = (lots: readonly Lot[]): RefLot[] =>
  lots.map((l) => ({ id: l.id, date: l.date, seq: l.seq, units: l.units, basis: l.basisMinor }));

describe('bookSale against the rules written out (test/support/lots-reference.ts)', () => {
  it('when any sale within the holding is booked FIFO or LIFO, then units and basis are conserved, the lots are taken in order and the gain is proceeds − cost', () => {
    fc.assert(
      fc.property(
        lotArb,
        fc.constantFrom('FIFO' as const, 'LIFO' as const),
        fc.bigInt({ min: 1n, max: 10n ** 13n }),
        fc.bigInt({ min: 0n, max: 10n ** 11n }),
        (lots, method, wanted, proceeds) => {
          const held = lots.reduce((s, l) => s + l.units, 0n);
          const units = 1n + ((wanted - 1n) % held);
          const r = bookSale(lots, units, method);
          if (!r.ok) throw new Error('refused within the holding');
          const ref = toRef(lots);
          const taken = unitsTaken(ref, method, units);
          // the units and basis of each reduction are the rules'
          expect(new Map(r.booked.reductions.map((x) => [x.lotId, x.units]))).toEqual(taken);
          for (const x of r.booked.reductions)
            expect(x.basisMinor).toBe(
              basisGivenUp(
                ref.find((l) => l.id === x.lotId)!,
                x.units,
              ),
            );
          // conserved: what is left plus what was taken is what there was
          const after = new Map(r.booked.after.map((l) => [l.id, l] as const));
          for (const l of ref) {
            const t = r.booked.reductions.find((x) => x.lotId === l.id);
            expect(after.get(l.id)!.units + (t?.units ?? 0n)).toBe(l.units);
            expect(after.get(l.id)!.basisMinor + (t?.basisMinor ?? 0n)).toBe(l.basis);
          }
          // in order: a lot is touched only when every lot before it in the order is emptied
          const order = saleOrder(ref, method);
          const lastTouched = Math.max(...order.map((l, i) => (taken.has(l.id) ? i : -1)));
          for (const l of order.slice(0, lastTouched)) expect(after.get(l.id)!.units).toBe(0n);
          // the gain is proceeds − cost, split so its parts add up
          const parts = proceedsByReduction(proceeds, r.booked.reductions);
          const gains = parts.map((p, i) => p - r.booked.reductions[i]!.basisMinor);
          expect(gains.reduce((s, g) => s + g, 0n)).toBe(proceeds - r.booked.costMinor);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('when any sale is booked at average cost, then its cost is the pool basis × units / held and basis is conserved', () => {
    fc.assert(
      fc.property(lotArb, fc.bigInt({ min: 1n, max: 10n ** 13n }), (lots, wanted) => {
        const held = lots.reduce((s, l) => s + l.units, 0n);
        const units = 1n + ((wanted - 1n) % held);
        const r = bookSale(lots, units, 'AVERAGE');
        if (!r.ok) throw new Error('refused within the holding');
        const pool = lots.reduce((s, l) => s + l.basisMinor, 0n);
        expect(r.booked.costMinor).toBe(units === held ? pool : mulDivHalfEven(pool, units, held));
        expect(r.booked.reductions.reduce((s, x) => s + x.basisMinor, 0n)).toBe(r.booked.costMinor);
        expect(r.booked.after.reduce((s, l) => s + l.basisMinor, 0n)).toBe(pool - r.booked.costMinor);
        expect(r.booked.after.reduce((s, l) => s + l.units, 0n)).toBe(held - units);
      }),
      { numRuns: 300 },
    );
  });

  it('when more units are sold than held, then every method refuses', () => {
    fc.assert(
      fc.property(lotArb, fc.bigInt({ min: 1n, max: 10n ** 6n }), (lots, extra) => {
        const held = lots.reduce((s, l) => s + l.units, 0n);
        for (const m of ['FIFO', 'LIFO', 'AVERAGE'] as const) expect(bookSale(lots, held + extra, m).ok).toBe(false);
      }),
    );
  });
});
