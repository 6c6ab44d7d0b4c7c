import { describe, expect, it } from 'vitest';
import { costsExactly, lotUnitCost, unitsAmount } from './units.ts';
import type { BookUnits } from './types.ts';

describe("a trade's units in the journal formats", () => {
  it("when a lot's cost per unit ends within 20 decimals, then it is exact; else it is rounded to 10 decimals and says so", () => {
    expect(lotUnitCost(210500n, 10n * 10n ** 8n, 2)).toEqual({ text: '210.5', exact: true });
    expect(lotUnitCost(110225n, 20n * 10n ** 8n, 2)).toEqual({ text: '55.1125', exact: true });
    expect(lotUnitCost(10000n, 3n * 10n ** 8n, 2)).toEqual({ text: '33.3333333333', exact: false });
    expect(lotUnitCost(20000n, 3n * 10n ** 8n, 2)).toEqual({ text: '66.6666666667', exact: false });
  });

  it('when units times a cost per unit are the cost to the minor unit, then they cost exactly', () => {
    expect(costsExactly(-2n * 10n ** 8n, '220.2', 44040n, 2)).toBe(true);
    expect(costsExactly(5n * 10n ** 8n, '55.125', 27562n, 2)).toBe(false);
    expect(costsExactly(10n ** 8n, '33.3333333333', 3333n, 2)).toBe(false);
  });

  it('when a sale reduces a lot, then beancount names its cost and date, ledger its lot price and date, hledger weighs it at cost', () => {
    const sold: BookUnits = {
      symbol: 'VTI',
      atoms: -4n * 10n ** 8n,
      lotDate: '2024-01-05',
      unitCost: '210.5',
      exact: true,
      costMinor: 84200n,
      price: '250',
    };
    expect(unitsAmount(sold, 'USD', 'beancount')).toBe('-4 VTI {210.5 USD, 2024-01-05} @ 250 USD');
    expect(unitsAmount(sold, 'USD', 'ledger')).toBe('-4 VTI {210.5 USD} [2024-01-05] @ 250 USD');
    expect(unitsAmount(sold, 'USD', 'hledger')).toBe('-4 VTI @ 210.5 USD');
    const inexact = { ...sold, atoms: -(10n ** 8n), unitCost: '33.3333333333', exact: false, costMinor: 3334n };
    expect(unitsAmount(inexact, 'USD', 'ledger')).toBe('-1 VTI {{33.34 USD}} [2024-01-05] @ 250 USD');
    expect(unitsAmount(inexact, 'USD', 'hledger')).toBe('-1 VTI @@ 33.34 USD');
    expect(unitsAmount({ ...sold, atoms: 10n * 10n ** 8n, price: null }, 'USD', 'beancount')).toBe(
      '10 VTI {210.5 USD}',
    );
  });
});
