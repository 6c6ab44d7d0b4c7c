import type { Minor } from './money.ts';
import { divideHalfEven } from './rates.ts';

/**
 * Splitting one bank line across several accounts. A rule states each part as a fixed amount or a
 * percentage of the line; the parts are taken in order and the last account (the rule's own) takes
 * the rest: the line less the parts. A percentage is rounded half to even to the currency's minor
 * units, so the rest also carries the rounding, and the parts and the rest always sum to the line
 * exactly.
 */

/** A part of a line: a fixed amount in minor units, or a percentage in 10^-4 units (12.5 % is 125000n). */
export type SplitShare = { amountMinor: Minor } | { percentScaled: bigint };

export const PERCENT_DECIMALS = 4;
const PERCENT_SCALE = 10n ** BigInt(PERCENT_DECIMALS);
/** Above 0 and below 100, at most 4 decimals: "12.5", "33.3333". */
export const PERCENT_PATTERN = /^\d{1,2}(\.\d{1,4})?$/;

/** A percentage in 10^-4 units, or null when the text is not one above 0 and below 100. */
export function parsePercent(text: string): bigint | null {
  if (!PERCENT_PATTERN.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  const scaled = BigInt(whole! + fraction.padEnd(PERCENT_DECIMALS, '0'));
  return scaled > 0n ? scaled : null;
}

/** `percentScaled` of `totalMinor`, rounded half to even to a minor unit. */
export function percentOf(totalMinor: Minor, percentScaled: bigint): Minor {
  return divideHalfEven(totalMinor * percentScaled, 100n * PERCENT_SCALE);
}

/**
 * The amounts of a line split by `shares`, in their order, and the rest the last account takes.
 * A part or the rest may come out zero or (the rest) negative: the caller refuses such a split.
 */
export function splitByShares(totalMinor: Minor, shares: readonly SplitShare[]): { parts: Minor[]; rest: Minor } {
  const parts = shares.map((s) => ('amountMinor' in s ? s.amountMinor : percentOf(totalMinor, s.percentScaled)));
  return { parts, rest: parts.reduce((rest, p) => rest - p, totalMinor) };
}
