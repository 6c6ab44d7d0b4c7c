import { describe, expect, it } from 'vitest';
import { formatBankAmount, readBankAmount } from './bank-amount.ts';

const read = (raw: string, mode: Parameters<typeof readBankAmount>[1]): string | null => {
  const value = readBankAmount(raw, mode);
  return value === null ? null : formatBankAmount(value);
};

describe('readBankAmount', () => {
  it('when amounts use a decimal comma with dot or apostrophe thousands, then they read exactly', () => {
    expect(read('-10,7', ',')).toBe('-10.70');
    expect(read('100.000,00', ',')).toBe('100000.00');
    expect(read('-1.234,56', ',')).toBe('-1234.56');
    expect(read("11'373.94", '.')).toBe('11373.94');
    expect(read('1 234,50', ',')).toBe('1234.50');
  });

  it('when amounts carry currency symbols, codes, comma thousands or no leading zero, then they read exactly', () => {
    expect(read('-$7,971.39', '.')).toBe('-7971.39');
    expect(read('$10,000.00', '.')).toBe('10000.00');
    expect(read('1.234,45 €', ',')).toBe('1234.45');
    expect(read('EUR -12.00', '.')).toBe('-12.00');
    expect(read('-.46', '.')).toBe('-0.46');
    expect(read('2500', ',')).toBe('2500.00');
  });

  it('when the sign is a plus, a trailing minus or parentheses, then the sign is right', () => {
    expect(read('+2560.00', 'ofx')).toBe('2560.00');
    expect(read('9,90-', ',')).toBe('-9.90');
    expect(read('(12.00)', '.')).toBe('-12.00');
    expect(read('−5.00', '.')).toBe('-5.00');
  });

  it('when a value is not a number or uses the wrong decimal mark, then it is null', () => {
    for (const bad of ['12,3x', '', 'abc', '1.2.3', '--5', '-(5)', '1,23,4', '١٢٣']) expect(read(bad, ',')).toBeNull();
    expect(read('827,75', '.')).toBeNull();
    expect(read('1.234,56', '.')).toBeNull();
    expect(read('9'.repeat(50), '.')).toBeNull();
  });

  it('when OFX amounts use either mark without grouping, then both read and grouping is refused', () => {
    expect(read('-200,00', 'ofx')).toBe('-200.00');
    expect(read('13318.36 ', 'ofx')).toBe('13318.36');
    expect(read('1,234.56', 'ofx')).toBeNull();
  });

  it('when QIF amounts are auto-detected, then a lone comma before three digits groups thousands', () => {
    expect(read('1,234', 'auto')).toBe('1234.00');
    expect(read('-5,00', 'auto')).toBe('-5.00');
    expect(read('1,193.42', 'auto')).toBe('1193.42');
    expect(read('1.193,42', 'auto')).toBe('1193.42');
  });

  it('when decimals are summed, then no binary floating point error appears', () => {
    const sum = (readBankAmount('0.1', '.') ?? fail()).plus(readBankAmount('0.2', '.') ?? fail());
    expect(formatBankAmount(sum)).toBe('0.30');
    expect(read('0.125', '.')).toBe('0.125');
  });
});

function fail(): never {
  throw new Error('unexpected null');
}
