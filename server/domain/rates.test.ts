import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import {
  Conversion,
  directRate,
  divideHalfEven,
  formatRate,
  inverseRate,
  parseRate,
  rateOn,
  rateText,
} from './rates.ts';

describe('parseRate and formatRate', () => {
  it('when a rate has at most 12 decimals, then it is kept exactly and printed without trailing zeros', () => {
    expect(parseRate('1.085')).toBe(1_085_000_000_000n);
    expect(formatRate(parseRate('1.085')!)).toBe('1.085');
    expect(formatRate(parseRate('0.000000000001')!)).toBe('0.000000000001');
    expect(formatRate(parseRate('150')!)).toBe('150');
    expect(formatRate(parseRate('007.50')!)).toBe('7.5');
  });

  it('when a rate is zero, negative, a number form other than a plain decimal, or has 13 decimals, then it is refused', () => {
    for (const bad of ['0', '0.000', '-1', '1e3', '1,5', '', '.5', '1.', '1.0000000000001', ' 1', 'NaN']) {
      expect(parseRate(bad), bad).toBeNull();
    }
  });
});

describe('divideHalfEven', () => {
  it('when the quotient is exactly half way, then it goes to the even neighbour, for negatives too', () => {
    expect(divideHalfEven(5n, 2n)).toBe(2n);
    expect(divideHalfEven(7n, 2n)).toBe(4n);
    expect(divideHalfEven(-5n, 2n)).toBe(-2n);
    expect(divideHalfEven(-7n, 2n)).toBe(-4n);
    expect(divideHalfEven(11n, 10n)).toBe(1n);
    expect(divideHalfEven(-16n, 10n)).toBe(-2n);
  });
});

describe('Conversion', () => {
  it('when amounts are converted at one rate, then the sum is rounded once, not each amount', () => {
    const c = new Conversion('USD');
    // 0.01 EUR at 1.5 is 0.015 USD each: rounded one by one, three of them would make 0.06
    for (let i = 0; i < 3; i++) c.add(1n, 'EUR', directRate(parseRate('1.5')!));
    expect(c.result()).toBe(4n); // 0.045 -> 0.04 (half to even)
  });

  it('when a rate comes from the opposite pair, then its inverse is exact', () => {
    const c = new Conversion('EUR');
    c.add(300n, 'USD', inverseRate(parseRate('3')!)); // 3.00 USD at 1/3
    expect(c.result()).toBe(100n);
  });

  it('when inexact inverse rates sum to exactly a half, then the exact sum decides (to even)', () => {
    const c = new Conversion('USD');
    // 1 JPY at 1/3 USD + 1 JPY at 1/6 USD = 0.5 USD = 50 cents exactly; 1 JPY = 0.01 USD scale here
    c.add(1n, 'JPY', inverseRate(parseRate('300')!)); // 1/300 USD = 1/3 cent
    c.add(1n, 'JPY', inverseRate(parseRate('600')!)); // 1/6 cent
    expect(c.result()).toBe(0n); // half a cent -> 0 (even)
    c.add(2n, 'JPY', inverseRate(parseRate('200')!)); // + 1 cent exactly: 1.5 cents -> 2
    expect(c.result()).toBe(2n);
  });

  it('when converting any amounts at any rates, then the result is the exact sum rounded half to even', () => {
    Decimal.set({ precision: 200 });
    const rate = fc.tuple(fc.bigInt({ min: 1n, max: 10n ** 16n }), fc.boolean());
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }), rate), { maxLength: 12 }),
        (terms) => {
          const c = new Conversion('JPY');
          let exact = new Decimal(0);
          for (const [amount, [scaled, inverse]] of terms) {
            const r = inverse ? inverseRate(scaled) : directRate(scaled);
            c.add(amount, 'KWD', r);
            // KWD has 3 digits, JPY 0: amount/1000 * num/den
            exact = exact.plus(new Decimal(amount.toString()).div(1000).times(r.num.toString()).div(r.den.toString()));
          }
          expect(c.result().toString()).toBe(exact.toDecimalPlaces(0, Decimal.ROUND_HALF_EVEN).toFixed(0));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('rateOn', () => {
  const series = (pairs: [string, string][]) => ({
    dates: pairs.map(([d]) => d),
    rates: pairs.map(([, r]) => parseRate(r)!),
  });

  it('when the pair has a price on or before the day, then its latest is the rate', () => {
    const direct = series([
      ['2026-01-01', '1.1'],
      ['2026-01-10', '1.2'],
    ]);
    const none = series([]);
    expect(rateOn(direct, none, '2026-01-09')).toEqual(directRate(parseRate('1.1')!));
    expect(rateOn(direct, none, '2026-01-10')).toEqual(directRate(parseRate('1.2')!));
    expect(rateOn(direct, none, '2025-12-31')).toBeNull();
  });

  it('when only the opposite pair has a price, then the rate is its inverse', () => {
    const opposite = series([['2026-01-01', '0.8']]);
    const rate = rateOn(series([]), opposite, '2026-02-01')!;
    expect(rateText(rate, 4)).toBe('1.2500');
  });
});
