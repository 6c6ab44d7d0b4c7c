import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  AMOUNT_PATTERN,
  boundMinor,
  compareDecimals,
  formatMinor,
  formatScaled,
  groupDecimal,
  parseAmount,
  parseSignedAmount,
  plainAmount,
  tidyAmount,
} from './money.ts';

describe('parseAmount', () => {
  it('when the string has the currency digits, then it gives exact minor units', () => {
    expect(parseAmount('82.50', 'USD')).toEqual({ minor: 8250n });
    expect(parseAmount('82.5', 'USD')).toEqual({ minor: 8250n });
    expect(parseAmount('1000', 'JPY')).toEqual({ minor: 1000n });
    expect(parseAmount('1.234', 'KWD')).toEqual({ minor: 1234n });
    expect(parseAmount('0.01', 'USD')).toEqual({ minor: 1n });
    expect(parseAmount('999999999999.99', 'USD')).toEqual({ minor: 99999999999999n });
  });

  it('when the amount has more digits than the currency allows, then it is refused, never rounded', () => {
    expect(parseAmount('1.005', 'USD')).toEqual({ problem: 'digits' });
    expect(parseAmount('1.5', 'JPY')).toEqual({ problem: 'digits' });
    expect(parseAmount('1.0001', 'KWD')).toEqual({ problem: 'digits' });
  });

  it('when the amount is not a plain positive decimal, then it is a format problem', () => {
    for (const bad of ['', '-1', '+1', '1e3', '1,000', ' 1', '1.', '.5', 'NaN', 'Infinity', '0x10', '1 000', '١٢']) {
      expect(parseAmount(bad, 'USD')).toEqual({ problem: 'format' });
    }
  });

  it('when the amount is zero or a trillion units, then it is refused', () => {
    expect(parseAmount('0.00', 'USD')).toEqual({ problem: 'zero' });
    expect(parseAmount('000', 'JPY')).toEqual({ problem: 'zero' });
    expect(parseAmount('1000000000000', 'USD')).toEqual({ problem: 'too_large' });
    expect(parseAmount('999999999999.999', 'KWD')).toEqual({ minor: 999999999999999n });
  });

  it('when zeros lead the units or trail the currency digits, then they change nothing', () => {
    expect(parseAmount('82.500', 'USD')).toEqual({ minor: 8250n });
    expect(parseAmount('1000.0', 'JPY')).toEqual({ minor: 1000n });
    expect(parseAmount('0082.50', 'USD')).toEqual({ minor: 8250n });
    expect(parseAmount(`${'0'.repeat(100_000)}1.${'0'.repeat(100_000)}`, 'USD')).toEqual({ minor: 100n });
  });

  it('when an amount has a hundred thousand digits, then it is too large or has too many decimals, never a number', () => {
    expect(parseAmount('9'.repeat(100_000), 'USD')).toEqual({ problem: 'too_large' });
    expect(parseAmount(`1.${'1'.repeat(100_000)}`, 'USD')).toEqual({ problem: 'digits' });
  });

  it('when an amount matches the format, then it is read; when it does not, then it is a format problem', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('0', '1', '9', '.', '-', 'e', ' ', ','), maxLength: 8 }),
        (text) => {
          const parsed = parseAmount(text, 'USD');
          expect('problem' in parsed && parsed.problem === 'format').toBe(!AMOUNT_PATTERN.test(text));
        },
      ),
    );
  });
});

describe('formatMinor', () => {
  it('when formatting, then it prints exactly the currency digits', () => {
    expect(formatMinor(8250n, 'USD')).toBe('82.50');
    expect(formatMinor(5n, 'USD')).toBe('0.05');
    expect(formatMinor(-5n, 'USD')).toBe('-0.05');
    expect(formatMinor(0n, 'USD')).toBe('0.00');
    expect(formatMinor(1000n, 'JPY')).toBe('1000');
    expect(formatMinor(1234n, 'KWD')).toBe('1.234');
  });

  it('when a figure is scaled by a number of decimals rather than a currency, then it prints exactly that many', () => {
    expect(formatScaled(10850n, 4)).toBe('1.0850');
    expect(formatScaled(-7n, 3)).toBe('-0.007');
    expect(formatScaled(42n, 0)).toBe('42');
  });

  it('when any amount is parsed and formatted, then it round-trips exactly', () => {
    fc.assert(
      fc.property(
        // below one trillion units in every currency, JPY (0 digits) included
        fc.bigInt({ min: 1n, max: 999_999_999_999n }),
        fc.constantFrom('USD', 'JPY', 'KWD', 'EUR'),
        (minor, currency) => {
          expect(parseAmount(formatMinor(minor, currency), currency)).toEqual({ minor });
        },
      ),
    );
  });
});

describe('parseSignedAmount', () => {
  it('when a balance is negative, zero or positive, then it reads exactly, and any other text is refused', () => {
    expect(parseSignedAmount('-1250.00', 'USD')).toEqual({ minor: -125000n });
    expect(parseSignedAmount('0', 'USD')).toEqual({ minor: 0n });
    expect(parseSignedAmount('-0.00', 'USD')).toEqual({ minor: 0n });
    expect(parseSignedAmount('15', 'JPY')).toEqual({ minor: 15n });
    expect(parseSignedAmount('1.234', 'USD')).toEqual({ problem: 'digits' });
    for (const bad of ['+5', '--1', '1e3', '1,000', ' 1', ''])
      expect(parseSignedAmount(bad, 'USD')).toEqual({ problem: 'format' });
  });

  it('when any signed balance is formatted and read again, then it round-trips exactly', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -999_999_999_999n, max: 999_999_999_999n }),
        fc.constantFrom('USD', 'JPY', 'KWD'),
        (minor, currency) => {
          expect(parseSignedAmount(formatMinor(minor, currency), currency)).toEqual({ minor });
        },
      ),
    );
  });
});

describe('amounts typed and shown', () => {
  it('when a figure is shown, then its thousands are grouped and its sign kept', () => {
    expect(groupDecimal('-1234567.80')).toBe('-1,234,567.80');
    expect(groupDecimal('999.00')).toBe('999.00');
    expect(groupDecimal('12000')).toBe('12,000');
    expect(groupDecimal('not a number')).toBe('not a number');
  });

  it('when an amount is typed with separators, then it is read as the plain decimal', () => {
    expect(plainAmount(' 3,000.00 ')).toBe('3000.00');
    expect(plainAmount('1 234 567.5')).toBe('1234567.5');
    expect(plainAmount('3000')).toBe('3000');
    // a comma where a decimal mark could be is left for parseAmount to refuse, never guessed
    expect(plainAmount('3,00')).toBe('3,00');
    expect(plainAmount('12,34,567')).toBe('12,34,567');
  });

  it('when the field is left, then a typed amount is shown in the currency’s digits, grouped; anything else stays', () => {
    expect(tidyAmount('3000', 'USD')).toBe('3,000.00');
    expect(tidyAmount('3,000.5', 'USD')).toBe('3,000.50');
    expect(tidyAmount('12000', 'JPY')).toBe('12,000');
    expect(tidyAmount('1.2345', 'USD')).toBe('1.2345');
    expect(tidyAmount('abc', 'USD')).toBe('abc');
    expect(tidyAmount('0', 'USD')).toBe('0');
  });
});

describe('boundMinor and compareDecimals', () => {
  it('when a bound has more decimals than the currency, then a lower bound rounds up and an upper one down', () => {
    expect(boundMinor('10.005', 'USD', 'lower')).toBe(1001n);
    expect(boundMinor('10.005', 'USD', 'upper')).toBe(1000n);
    expect(boundMinor('10.000', 'USD', 'lower')).toBe(1000n);
    expect(boundMinor('79.5', 'JPY', 'lower')).toBe(80n);
    expect(boundMinor('80.5', 'JPY', 'upper')).toBe(80n);
    expect(boundMinor('.5', 'KWD', 'upper')).toBe(500n);
    expect(boundMinor('0', 'USD', 'lower')).toBe(0n);
  });

  it('when any two decimals are compared, then the order is that of their exact values', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 20n }),
        fc.bigInt({ min: 0n, max: 10n ** 20n }),
        fc.nat(6),
        fc.nat(6),
        (a, b, da, db) => {
          // a / 10^da against b / 10^db, compared as integers on a common scale (the oracle)
          const want = Math.sign(Number(a * 10n ** BigInt(db) - b * 10n ** BigInt(da)));
          expect(compareDecimals(formatScaled(a, da), formatScaled(b, db))).toBe(want);
        },
      ),
    );
  });
});
