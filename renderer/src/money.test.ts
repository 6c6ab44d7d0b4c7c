import { describe, expect, it } from 'vitest';
import { formatMinor } from '../../server/contract/money.ts';
import { entryBalance, groupDecimal, isNegative, isZero, signedMinor, subtractDecimal, sumDecimals } from './money.ts';

describe('money in the renderer', () => {
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
      { currency: 'USD', debit: ' 0.2 ', credit: '' },
      { currency: 'USD', debit: '', credit: '0.3' },
    ]);
    expect(balances.map((b) => [b.currency, formatMinor(b.difference, b.currency)])).toEqual([
      ['JPY', '0'],
      ['USD', '2.45'],
    ]);
  });

  it('when an entry is in gold or dinars, then its sums use the ISO digits the server uses (XAU 0, KWD 3)', () => {
    const balances = entryBalance([
      { currency: 'XAU', debit: '3', credit: '' },
      { currency: 'XAU', debit: '0.5', credit: '' },
      { currency: 'KWD', debit: '1.005', credit: '' },
    ]);
    expect(balances.map((b) => [b.currency, formatMinor(b.debits, b.currency)])).toEqual([
      ['KWD', '1.005'],
      ['XAU', '3'],
    ]);
  });
});

describe('report arithmetic', () => {
  it('when figures of a report are subtracted or summed, then the result is exact and signed', () => {
    expect(subtractDecimal('100.10', '-0.20', 'USD')).toBe('100.30');
    expect(subtractDecimal('0.10', '0.30', 'USD')).toBe('-0.20');
    expect(sumDecimals(['0.10', '0.20', '-0.30'], 'USD')).toBe('0.00');
    expect(sumDecimals(['1200', '-5'], 'JPY')).toBe('1195');
    expect(signedMinor('-1.234', 'KWD')).toBe(-1234n);
  });
});
