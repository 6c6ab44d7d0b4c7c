import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addMonths, carriedInto, divideHalfEven, isMonth, monthsIn, type MonthFigures } from './budgets.ts';

describe('budget arithmetic', () => {
  it('when a month is written, then only YYYY-MM from 1900-01 to 2199-12 is one', () => {
    expect(['2026-01', '2199-12', '1900-01'].map(isMonth)).toEqual([true, true, true]);
    expect(
      ['2026-13', '2026-00', '0000-05', '2026-1', '2026-01-01', ' 2026-01', '9999-12', '1899-12', '2200-01'].map(
        isMonth,
      ),
    ).toEqual(new Array(9).fill(false));
    expect(monthsIn('2026-01', '2026-12')).toBe(12);
    expect(monthsIn('2199-12', '2199-12')).toBe(1);
    expect(monthsIn('2026-02', '2026-01')).toBe(0);
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2025-11', 14)).toBe('2027-01');
  });

  it('when dividing money, then halves go to the even minor unit', () => {
    expect(divideHalfEven(10n, 3n)).toBe(3n);
    expect(divideHalfEven(11n, 3n)).toBe(4n);
    expect(divideHalfEven(3n, 2n)).toBe(2n);
    expect(divideHalfEven(5n, 2n)).toBe(2n);
    expect(divideHalfEven(-5n, 2n)).toBe(-2n);
    expect(divideHalfEven(-7n, 2n)).toBe(-4n);
  });

  it('when carry-over runs through consecutive months, then what each left (or overspent) adds up', () => {
    const history: MonthFigures[] = [
      { month: '2026-01', budgeted: 300_00n, actual: 250_00n, carryOver: true },
      { month: '2026-02', budgeted: 300_00n, actual: 380_00n, carryOver: true },
      { month: '2026-03', budgeted: 300_00n, actual: 200_00n, carryOver: true },
    ];
    expect(carriedInto('2026-02', history)).toBe(50_00n);
    expect(carriedInto('2026-03', history)).toBe(-30_00n);
    expect(carriedInto('2026-04', history)).toBe(70_00n);
    // a month without carry-over breaks the run; a gap too
    expect(carriedInto('2026-04', [{ ...history[0]! }, { ...history[1]!, carryOver: false }, history[2]!])).toBe(
      100_00n,
    );
    expect(carriedInto('2026-05', history)).toBe(0n);
  });

  it('when any history is given, then the carry equals the sum over the run just before the month', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            budgeted: fc.bigInt(0n, 10n ** 9n),
            actual: fc.bigInt(-(10n ** 9n), 10n ** 9n),
            carryOver: fc.boolean(),
          }),
          {
            maxLength: 30,
          },
        ),
        (months) => {
          const history = months.map((m, i) => ({ ...m, month: addMonths('2020-01', i) }));
          const target = addMonths('2020-01', months.length);
          let expected = 0n;
          for (let i = months.length - 1; i >= 0 && months[i]!.carryOver; i--)
            expected += months[i]!.budgeted - months[i]!.actual;
          expect(carriedInto(target, [...history].reverse())).toBe(expected);
        },
      ),
    );
  });
});
