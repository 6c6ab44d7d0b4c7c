import type { Direction, PostingLine } from './double-entry.ts';
import type { Minor } from './money.ts';

/**
 * Exchanges between currencies in one entry. A line may state its cost in another currency (the
 * total it cost, as ledger's `@@` and beancount's total price do): it then weighs its cost, and an
 * entry is valid when its weights balance in every currency, as the plain-text tools hold it.
 * To keep every currency's own debits and credits equal (a trial balance of exactly zero in each),
 * each costed line gets two automatic lines on currency trading accounts, as GnuCash's trading
 * accounts do: the line's amount back on its currency's trading account (carrying the same cost),
 * and the cost on the cost currency's trading account.
 */

export interface Cost {
  amountMinor: Minor;
  currency: string;
}

export interface CostedLine extends PostingLine {
  cost?: Cost | null;
}

export interface TradingLine extends CostedLine {
  /** the currency whose trading account takes the line */
  tradingCurrency: string;
}

const opposite = (d: Direction): Direction => (d === 'DEBIT' ? 'CREDIT' : 'DEBIT');

/** Debits minus credits per currency, each line weighing its cost where it states one. */
export function weightImbalances(lines: readonly CostedLine[]): { currency: string; imbalance: Minor }[] {
  const sums = new Map<string, Minor>();
  for (const l of lines) {
    const weight = l.cost ?? { amountMinor: l.amountMinor, currency: l.currency };
    const signed = l.direction === 'DEBIT' ? weight.amountMinor : -weight.amountMinor;
    sums.set(weight.currency, (sums.get(weight.currency) ?? 0n) + signed);
  }
  return [...sums].filter(([, s]) => s !== 0n).map(([currency, imbalance]) => ({ currency, imbalance }));
}

/**
 * The automatic lines that make each currency's own debits equal its credits, two per costed line.
 * With them, every currency balances exactly when the weights balance.
 */
export function tradingLines(lines: readonly CostedLine[]): TradingLine[] {
  const out: TradingLine[] = [];
  for (const l of lines) {
    if (!l.cost) continue;
    out.push({
      tradingCurrency: l.currency,
      direction: opposite(l.direction),
      amountMinor: l.amountMinor,
      currency: l.currency,
      cost: l.cost,
    });
    out.push({
      tradingCurrency: l.cost.currency,
      direction: l.direction,
      amountMinor: l.cost.amountMinor,
      currency: l.cost.currency,
      cost: null,
    });
  }
  return out;
}
