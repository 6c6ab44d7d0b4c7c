import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { parsePercent, percentOf, splitByShares } from './splits.ts';

describe('parsePercent', () => {
  it('when a percentage is above 0 and below 100 with at most 4 decimals, then it is read exactly', () => {
    expect(parsePercent('12.5')).toBe(125_000n);
    expect(parsePercent('33.3333')).toBe(333_333n);
    expect(parsePercent('0.0001')).toBe(1n);
    expect(parsePercent('99.9999')).toBe(999_999n);
  });

  it('when a percentage is 0, 100 or more, negative, or has 5 decimals, then it is refused', () => {
    for (const bad of ['0', '0.0000', '100', '150', '-5', '12.34567', '1e1', '', '.5', '5.']) {
      expect(parsePercent(bad), bad).toBeNull();
    }
  });
});

describe('percentOf', () => {
  it('when a percentage falls on half a cent, then it rounds half to even', () => {
    expect(percentOf(1001n, 500_000n)).toBe(500n); // 500.5 → 500
    expect(percentOf(1003n, 500_000n)).toBe(502n); // 501.5 → 502
    expect(percentOf(1000n, 333_333n)).toBe(333n);
  });
});

describe('splitByShares', () => {
  it('when a line of 100.00 is split 60 % and 25.00, then the parts are 60.00 and 25.00 and the rest 15.00', () => {
    expect(splitByShares(10_000n, [{ percentScaled: 600_000n }, { amountMinor: 2_500n }])).toEqual({
      parts: [6_000n, 2_500n],
      rest: 1_500n,
    });
  });

  it('when 10.00 is split in thirds, then the rest takes the rounding and the three sum to the line', () => {
    const { parts, rest } = splitByShares(1_000n, [{ percentScaled: 333_333n }, { percentScaled: 333_333n }]);
    expect(parts).toEqual([333n, 333n]);
    expect(rest).toBe(334n);
  });

  it('when fixed parts exceed the line, then the rest is negative (the caller refuses it)', () => {
    expect(splitByShares(1_000n, [{ amountMinor: 1_500n }]).rest).toBe(-500n);
  });

  it('when any line is split by any percentages and amounts, then the parts and the rest sum to it exactly and each percentage is within half a unit of its exact share', () => {
    const share = fc.oneof(
      fc.bigInt({ min: 1n, max: 999_999n }).map((percentScaled) => ({ percentScaled })),
      fc.bigInt({ min: 1n, max: 10n ** 12n }).map((amountMinor) => ({ amountMinor })),
    );
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 14n }), fc.array(share, { maxLength: 19 }), (total, shares) => {
        const { parts, rest } = splitByShares(total, shares);
        expect(parts.reduce((a, b) => a + b, 0n) + rest).toBe(total);
        shares.forEach((s, i) => {
          if (!('percentScaled' in s)) return expect(parts[i]).toBe(s.amountMinor);
          const exact = new Decimal(total.toString()).mul(s.percentScaled.toString()).div(1_000_000);
          const off = exact.minus(parts[i]!.toString()).abs();
          expect(off.lte(0.5)).toBe(true);
          if (off.eq(0.5)) expect(parts[i]! % 2n).toBe(0n);
        });
      }),
    );
  });
});
