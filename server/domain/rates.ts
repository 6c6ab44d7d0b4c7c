import { currencyDigits } from './currencies.ts';
import type { Minor } from './money.ts';

/**
 * Exchange rates and conversions, exact. A rate is a positive decimal with at most 12 decimals,
 * kept as an integer count of 10^-12 units; the inverse of a rate (1 / the opposite pair's) is an
 * exact fraction. A conversion sums many amounts at their own rates and rounds once, at the end,
 * to the target currency's minor units, half to even.
 */

export const RATE_DECIMALS = 12;
const RATE_SCALE = 10n ** BigInt(RATE_DECIMALS);
/** Up to 15 whole digits: a rate below 10^15 keeps every product well inside what bigint math needs. */
export const RATE_PATTERN = /^\d{1,15}(\.\d{1,12})?$/;

/** A positive rational: one unit of the source currency is worth num / den units of the target. */
export interface Rate {
  num: bigint;
  den: bigint;
}

/** The rate in 10^-12 units, or null when the text is not a positive decimal with at most 12 decimals. */
export function parseRate(text: string): bigint | null {
  if (!RATE_PATTERN.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  const scaled = BigInt(whole! + fraction.padEnd(RATE_DECIMALS, '0'));
  return scaled > 0n ? scaled : null;
}

/** 1085000000000n -> "1.085": no trailing zeros, no leading ones. */
export function formatRate(scaled: bigint): string {
  const whole = scaled / RATE_SCALE;
  const fraction = (scaled % RATE_SCALE).toString().padStart(RATE_DECIMALS, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

/** The rate of a currency to itself. */
export const SAME: Rate = { num: 1n, den: 1n };

export function directRate(scaled: bigint): Rate {
  return { num: scaled, den: RATE_SCALE };
}

export function inverseRate(scaled: bigint): Rate {
  return { num: RATE_SCALE, den: scaled };
}

/** A rate as decimal text with `digits` decimals, rounded half to even (for showing a rate the editor worked out). */
export function rateText(rate: Rate, digits: number): string {
  const scale = 10n ** BigInt(digits);
  const value = divideHalfEven(rate.num * scale, rate.den);
  const whole = value / scale;
  const fraction = (value % scale).toString().padStart(digits, '0');
  return digits > 0 ? `${whole}.${fraction}` : `${whole}`;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** a / b (b > 0) rounded to an integer, half to even. */
export function divideHalfEven(a: bigint, b: bigint): bigint {
  const q = floorDiv(a, b);
  const twice = 2n * (a - q * b);
  if (twice < b) return q;
  if (twice > b) return q + 1n;
  return q % 2n === 0n ? q : q + 1n;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/**
 * Amounts converted into one currency and summed, rounded once. Amounts are grouped by source
 * currency and rate first (exact integer sums); the groups are then summed at 40 guard digits,
 * which decides the rounding unless the sum lies within the truncation's reach of a half, when
 * the exact fraction decides instead.
 */
export class Conversion {
  private readonly groups = new Map<string, { rate: Rate; fromScale: bigint; sum: Minor }>();
  private readonly toScale: bigint;

  constructor(to: string) {
    this.toScale = 10n ** BigInt(currencyDigits(to));
  }

  add(amountMinor: Minor, from: string, rate: Rate): void {
    if (amountMinor === 0n) return;
    const key = `${from} ${rate.num}/${rate.den}`;
    const group = this.groups.get(key);
    if (group) group.sum += amountMinor;
    else this.groups.set(key, { rate, fromScale: 10n ** BigInt(currencyDigits(from)), sum: amountMinor });
  }

  /** Another conversion's amounts (into the same currency) added to this one's, or taken away (sign -1). */
  addAll(other: Conversion, sign: 1n | -1n = 1n): this {
    for (const [key, g] of other.groups) {
      const mine = this.groups.get(key);
      if (mine) mine.sum += sign * g.sum;
      else this.groups.set(key, { ...g, sum: sign * g.sum });
    }
    return this;
  }

  get isEmpty(): boolean {
    for (const g of this.groups.values()) if (g.sum !== 0n) return false;
    return true;
  }

  /** The sum in minor units of the target currency, rounded once, half to even. */
  result(): Minor {
    const guard = 10n ** 40n;
    let total = 0n;
    let inexact = 0n;
    for (const { rate, fromScale, sum } of this.groups.values()) {
      const numerator = sum * rate.num * this.toScale * guard;
      const denominator = rate.den * fromScale;
      const q = floorDiv(numerator, denominator);
      if (q * denominator !== numerator) inexact += 1n;
      total += q;
    }
    // The exact sum lies in [total, total + inexact) guard units (strictly above total when inexact > 0).
    const whole = floorDiv(total, guard);
    const rest = total - whole * guard;
    const half = guard / 2n;
    if (inexact === 0n) {
      if (rest < half) return whole;
      if (rest > half) return whole + 1n;
      return whole % 2n === 0n ? whole : whole + 1n;
    }
    if (rest + inexact <= half) return whole;
    if (rest >= half && rest + inexact <= guard) return whole + 1n;
    return this.exactResult();
  }

  private exactResult(): Minor {
    let num = 0n;
    let den = 1n;
    for (const { rate, fromScale, sum } of this.groups.values()) {
      const n = sum * rate.num * this.toScale;
      const d = rate.den * fromScale;
      num = num * d + n * den;
      den *= d;
      const g = gcd(num, den);
      if (g > 1n) {
        num /= g;
        den /= g;
      }
    }
    return divideHalfEven(num, den);
  }
}

/** One currency pair's prices as the rate look-up needs them: dates ascending, rates in 10^-12 units. */
export interface PriceSeries {
  dates: string[];
  rates: bigint[];
}

/** The index of the latest date on or before `date`, or -1. */
function latestOnOrBefore(series: PriceSeries, date: string): number {
  let lo = 0;
  let hi = series.dates.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (series.dates[mid]! <= date) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * The rate for a day: the latest price on or before it for the pair, or else 1 / the latest on or
 * before it of the opposite pair; null when neither has one.
 */
export function rateOn(direct: PriceSeries, opposite: PriceSeries, date: string): Rate | null {
  const d = latestOnOrBefore(direct, date);
  if (d >= 0) return directRate(direct.rates[d]!);
  const o = latestOnOrBefore(opposite, date);
  if (o >= 0) return inverseRate(opposite.rates[o]!);
  return null;
}
