import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { parseAmount } from '../money.ts';
import { parseBeancountAmount, parseLedgerAmount, quantityToMinor } from './amounts.ts';

function outcome(f: () => bigint): bigint | string {
  try {
    return f();
  } catch (error) {
    return error instanceof DomainError ? error.code : String(error);
  }
}

describe('journal amounts', () => {
  it('when any decimal quantity is read, then it gives exactly what the journal’s amount rule (money.ts parseAmount) gives', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{1,15}(\.\d{0,5})?$/),
        fc.constantFrom('USD', 'JPY', 'KWD'),
        fc.boolean(),
        (text, currency, negative) => {
          const fromJournal = outcome(() => quantityToMinor(negative ? `-${text}` : text, currency, 1));
          const normalised = text.endsWith('.') ? text.slice(0, -1) : text;
          const rule = parseAmount(normalised, currency);
          if (/^[0.]*$/.test(text)) expect(fromJournal).toBe(0n);
          else if ('minor' in rule) expect(fromJournal).toBe(negative ? -rule.minor : rule.minor);
          else expect(fromJournal).toBe('VALIDATION_ERROR');
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('when amounts are written the ways ledger and hledger allow, then each reads as the same signed minor units', () => {
    const forms: [string, bigint, string][] = [
      ['10.50 USD', 1050n, 'USD'],
      ['-10.50 USD', -1050n, 'USD'],
      ['USD -10.50', -1050n, 'USD'],
      ['$1,234.5', 123450n, 'USD'],
      ['-$5', -500n, 'USD'],
      ['$-5', -500n, 'USD'],
      ['500.00€', 50000n, 'EUR'],
      ['£ 3', 300n, 'GBP'],
      ['"EUR" 2', 200n, 'EUR'],
      ['1500 JPY', 1500n, 'JPY'],
      ['1.234 KWD', 1234n, 'KWD'],
    ];
    for (const [text, minor, currency] of forms) expect(parseLedgerAmount(text, 1)).toEqual({ minor, currency });
    expect(parseBeancountAmount('-1,000.00 USD', 1)).toEqual({ minor: -100000n, currency: 'USD' });
  });

  it('when an amount reaches a trillion units, then it is refused like any entry line', () => {
    expect(() => quantityToMinor('1000000000000', 'USD', 7)).toThrow(/line 7: .*trillion/);
    expect(quantityToMinor('999999999999.99', 'USD', 7)).toBe(99999999999999n);
  });
});
