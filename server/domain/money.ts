import { Decimal } from 'decimal.js';
import { currencyDigits } from './currencies.ts';

/**
 * Money is integer minor units as bigint inside (cents for USD, yen for JPY, fils for KWD) and a
 * decimal string outside. Nothing here ever passes through a binary float.
 */
export type Minor = bigint;

const AMOUNT_PATTERN = /^\d{1,20}(\.\d{1,20})?$/;

/** Largest accepted line amount: under one trillion currency units, so sums stay exact in SQLite's int64. */
export const MAX_AMOUNT_UNITS = 1_000_000_000_000n;

export type AmountProblem = 'format' | 'digits' | 'zero' | 'too_large';

/** Parses a positive decimal string into minor units, or says what is wrong with it. */
export function parseAmount(text: string, currency: string): { minor: Minor } | { problem: AmountProblem } {
  if (!AMOUNT_PATTERN.test(text)) return { problem: 'format' };
  const digits = currencyDigits(currency);
  const value = new Decimal(text);
  if (value.decimalPlaces() > digits) return { problem: 'digits' };
  if (value.isZero()) return { problem: 'zero' };
  if (value.gte(MAX_AMOUNT_UNITS.toString())) return { problem: 'too_large' };
  return { minor: BigInt(value.times(new Decimal(10).pow(digits)).toFixed(0)) };
}

/** Formats minor units with exactly the currency's minor-unit digits: 8250n USD -> "82.50", -5n -> "-0.05". */
export function formatMinor(minor: Minor, currency: string): string {
  const digits = currencyDigits(currency);
  const negative = minor < 0n;
  const abs = (negative ? -minor : minor).toString();
  if (digits === 0) return (negative ? '-' : '') + abs;
  const padded = abs.padStart(digits + 1, '0');
  const whole = padded.slice(0, -digits);
  const fraction = padded.slice(-digits);
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

export function sumMinor(values: Iterable<Minor>): Minor {
  let total = 0n;
  for (const v of values) total += v;
  return total;
}
