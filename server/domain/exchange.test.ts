import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { imbalanceByCurrency } from './double-entry.ts';
import { tradingLines, weightImbalances, type CostedLine } from './exchange.ts';

const line = (
  direction: 'DEBIT' | 'CREDIT',
  amountMinor: bigint,
  currency: string,
  cost: [bigint, string] | null = null,
): CostedLine => ({
  direction,
  amountMinor,
  currency,
  cost: cost ? { amountMinor: cost[0], currency: cost[1] } : null,
});

describe('weightImbalances', () => {
  it('when a EUR line states its cost in USD, then the entry balances against the USD lines', () => {
    const lines = [line('DEBIT', 10000n, 'EUR', [10850n, 'USD']), line('CREDIT', 10850n, 'USD')];
    expect(weightImbalances(lines)).toEqual([]);
  });

  it('when the cost does not match the other side, then the imbalance is named in the cost currency', () => {
    const lines = [line('DEBIT', 10000n, 'EUR', [10850n, 'USD']), line('CREDIT', 10800n, 'USD')];
    expect(weightImbalances(lines)).toEqual([{ currency: 'USD', imbalance: 50n }]);
  });
});

describe('tradingLines', () => {
  it('when a line has a cost, then two trading lines make each currency balance on its own', () => {
    const lines = [line('DEBIT', 10000n, 'EUR', [10850n, 'USD']), line('CREDIT', 10850n, 'USD')];
    const trading = tradingLines(lines);
    expect(trading).toEqual([
      { tradingCurrency: 'EUR', direction: 'CREDIT', amountMinor: 10000n, currency: 'EUR', cost: lines[0]!.cost },
      { tradingCurrency: 'USD', direction: 'DEBIT', amountMinor: 10850n, currency: 'USD', cost: null },
    ]);
    expect([...imbalanceByCurrency([...lines, ...trading]).values()].every((v) => v === 0n)).toBe(true);
    // the trading lines weigh nothing in all: the entry still balances by weight with them
    expect(weightImbalances([...lines, ...trading])).toEqual([]);
  });

  it('when any lines balance by weight, then with their trading lines every currency balances exactly', () => {
    const currencies = ['USD', 'EUR', 'JPY'];
    const costed = fc.record({
      direction: fc.constantFrom('DEBIT' as const, 'CREDIT' as const),
      amountMinor: fc.bigInt({ min: 1n, max: 10n ** 12n }),
      currency: fc.constantFrom(...currencies),
      costAmount: fc.bigInt({ min: 1n, max: 10n ** 12n }),
      costCurrency: fc.constantFrom(...currencies),
    });
    fc.assert(
      fc.property(fc.array(costed, { minLength: 1, maxLength: 8 }), (raw) => {
        const lines: CostedLine[] = raw.map((r) =>
          line(
            r.direction,
            r.amountMinor,
            r.currency,
            r.costCurrency === r.currency ? null : [r.costAmount, r.costCurrency],
          ),
        );
        // balancing lines without cost, one per currency, so that the weights balance
        for (const { currency, imbalance } of weightImbalances(lines)) {
          lines.push(line(imbalance > 0n ? 'CREDIT' : 'DEBIT', imbalance > 0n ? imbalance : -imbalance, currency));
        }
        const all = [...lines, ...tradingLines(lines)];
        expect([...imbalanceByCurrency(all).values()].filter((v) => v !== 0n)).toEqual([]);
        expect(weightImbalances(all)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
