import { describe, expect, it } from 'vitest';
import {
  currencyDigits,
  decimalToMinor,
  entryBalance,
  formatMinor,
  groupDecimal,
  isNegative,
  isZero,
  parseAmount,
} from './money.ts';

describe('money in the renderer', () => {
  it('when an amount is typed, then it is read exactly in minor units of its currency', () => {
    expect(parseAmount('82.5', 2)).toEqual({ ok: true, minor: 8250n });
    expect(parseAmount(' 0.10 ', 2)).toEqual({ ok: true, minor: 10n });
    expect(parseAmount('1000', 0)).toEqual({ ok: true, minor: 1000n });
    expect(parseAmount('99999999999.999', 3)).toEqual({ ok: true, minor: 99999999999999n });
  });

  it('when an amount cannot be an entry line, then the reason says why', () => {
    expect(parseAmount('', 2)).toEqual({ ok: false, reason: 'empty' });
    expect(parseAmount('1,000.00', 2)).toEqual({ ok: false, reason: 'format' });
    expect(parseAmount('-5', 2)).toEqual({ ok: false, reason: 'format' });
    expect(parseAmount('1e3', 2)).toEqual({ ok: false, reason: 'format' });
    expect(parseAmount('82.501', 2)).toEqual({ ok: false, reason: 'digits' });
    expect(parseAmount('5.5', 0)).toEqual({ ok: false, reason: 'digits' });
    expect(parseAmount('0.00', 2)).toEqual({ ok: false, reason: 'zero' });
  });

  it('when minor units are printed, then they have exactly the currency digits and a sign', () => {
    expect(formatMinor(8250n, 2)).toBe('82.50');
    expect(formatMinor(-5n, 2)).toBe('-0.05');
    expect(formatMinor(0n, 3)).toBe('0.000');
    expect(formatMinor(1234n, 0)).toBe('1234');
    expect(decimalToMinor('-1234.5', 2)).toBe(-123450n);
    expect(currencyDigits('JPY')).toBe(0);
    expect(currencyDigits('KWD')).toBe(3);
    expect(currencyDigits('EUR')).toBe(2);
  });

  it('when the server sends a figure, then it is grouped for reading and its sign is known', () => {
    expect(groupDecimal('-1234567.80')).toBe('-1,234,567.80');
    expect(groupDecimal('999.00')).toBe('999.00');
    expect(isNegative('-0.00')).toBe(false);
    expect(isNegative('-0.01')).toBe(true);
    expect(isZero('0.000')).toBe(true);
  });

  it('when lines are summed, then the difference is exact per currency (never 2.4500000000000028)', () => {
    const balances = entryBalance([
      { currency: 'USD', debit: '82.50', credit: '' },
      { currency: 'USD', debit: '', credit: '80.05' },
      { currency: 'JPY', debit: '100', credit: '' },
      { currency: 'JPY', debit: '', credit: '100' },
      { currency: 'USD', debit: '0.1', credit: '' },
      { currency: 'USD', debit: '0.2', credit: '' },
      { currency: 'USD', debit: '', credit: '0.3' },
    ]);
    expect(balances.map((b) => [b.currency, formatMinor(b.difference, b.digits)])).toEqual([
      ['JPY', '0'],
      ['USD', '2.45'],
    ]);
  });
});
