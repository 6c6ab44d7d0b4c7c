import { currencyDigits } from './currencies.ts';

/**
 * Money is integer minor units as bigint inside (cents for USD, yen for JPY, fils for KWD) and a
 * decimal string outside. Nothing here ever passes through a binary float.
 *
 * The one money module of the app: the server uses it here, the renderer through
 * server/contract/money.ts. It imports only the ISO 4217 table (currencies.ts), so the renderer's
 * bundle gets nothing more of the server. Reading an amount needs no decimal library: the format
 * admits digits and one dot only, so the digits themselves, joined, are the exact minor units.
 */
export type Minor = bigint;

/**
 * The amount format everywhere (requests, the entry editor, journal files' quantities once signs and
 * separators are read): a plain positive decimal such as "82.50": digits, optionally a dot and more
 * digits; no sign, separators, spaces or exponent.
 */
export const AMOUNT_PATTERN = /^\d+(\.\d+)?$/;

/** Largest accepted line amount: under one trillion currency units, so sums stay exact in SQLite's int64. */
export const MAX_AMOUNT_UNITS = 1_000_000_000_000n;

export type AmountProblem = 'format' | 'digits' | 'zero' | 'too_large';

/** Digits of MAX_AMOUNT_UNITS: a whole part with fewer is below it. */
const MAX_WHOLE_DIGITS = MAX_AMOUNT_UNITS.toString().length;
const ZERO = 48; // '0'

/**
 * Reads an amount in AMOUNT_PATTERN's format into minor units of `currency`, or says what is wrong
 * with it: more decimals than the currency has (trailing zeros aside: "82.500" is 82.50 USD), zero,
 * or one trillion units or more. The work is one pass over the text whatever its length.
 */
export function parseAmount(text: string, currency: string): { minor: Minor } | { problem: AmountProblem } {
  if (!AMOUNT_PATTERN.test(text)) return { problem: 'format' };
  const digits = currencyDigits(currency);
  const dot = text.indexOf('.');
  const wholeEnd = dot < 0 ? text.length : dot;
  let wholeStart = 0;
  while (wholeStart < wholeEnd && text.charCodeAt(wholeStart) === ZERO) wholeStart++;
  let fractionEnd = text.length;
  if (dot >= 0) while (fractionEnd > dot + 1 && text.charCodeAt(fractionEnd - 1) === ZERO) fractionEnd--;
  const whole = text.slice(wholeStart, wholeEnd);
  const fraction = dot < 0 ? '' : text.slice(dot + 1, fractionEnd);
  if (fraction.length > digits) return { problem: 'digits' };
  if (whole === '' && fraction === '') return { problem: 'zero' };
  if (whole.length >= MAX_WHOLE_DIGITS && (whole.length > MAX_WHOLE_DIGITS || BigInt(whole) >= MAX_AMOUNT_UNITS))
    return { problem: 'too_large' };
  return { minor: BigInt(whole + fraction.padEnd(digits, '0')) };
}

/** Formats minor units with exactly the currency's minor-unit digits: 8250n USD -> "82.50", -5n -> "-0.05". */
export function formatMinor(minor: Minor, currency: string): string {
  return formatScaled(minor, currencyDigits(currency));
}

/** Formats an integer scaled by 10^digits with exactly that many decimals: 10850n, 4 -> "1.0850". */
export function formatScaled(minor: bigint, digits: number): string {
  const negative = minor < 0n;
  const abs = (negative ? -minor : minor).toString();
  if (digits === 0) return (negative ? '-' : '') + abs;
  const padded = abs.padStart(digits + 1, '0');
  const whole = padded.slice(0, -digits);
  const fraction = padded.slice(-digits);
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/**
 * A bound of an amount range (AMOUNT_PATTERN, any number of decimals) in minor units of
 * `currency`: a lower bound rounds up, an upper bound down, so the range holds exactly the
 * amounts of that currency between the two decimals ("10.005" from is 10.01 USD, to is 10.00).
 */
export function boundMinor(text: string, currency: string, bound: 'lower' | 'upper'): Minor {
  const digits = currencyDigits(currency);
  const [whole = '0', fraction = ''] = text.split('.');
  const kept = BigInt((whole || '0') + fraction.slice(0, digits).padEnd(digits, '0'));
  return bound === 'lower' && /[1-9]/.test(fraction.slice(digits)) ? kept + 1n : kept;
}

/** Compares two AMOUNT_PATTERN decimals exactly: negative, zero or positive as a is below, at or above b. */
export function compareDecimals(a: string, b: string): number {
  const [aw = '', af = ''] = a.split('.');
  const [bw = '', bf = ''] = b.split('.');
  const scale = Math.max(af.length, bf.length);
  const diff = BigInt((aw || '0') + af.padEnd(scale, '0')) - BigInt((bw || '0') + bf.padEnd(scale, '0'));
  return diff < 0n ? -1 : diff > 0n ? 1 : 0;
}

/** A balance: AMOUNT_PATTERN with an optional leading '-' ("-1250.00"); zero allowed. */
export const SIGNED_AMOUNT_PATTERN = /^-?\d+(\.\d+)?$/;

/**
 * Reads a signed amount (a balance, which may be zero or negative) into minor units of `currency`,
 * or says what is wrong with it, as `parseAmount` does.
 */
export function parseSignedAmount(
  text: string,
  currency: string,
): { minor: Minor } | { problem: Exclude<AmountProblem, 'zero'> } {
  if (!SIGNED_AMOUNT_PATTERN.test(text)) return { problem: 'format' };
  const negative = text.startsWith('-');
  const parsed = parseAmount(negative ? text.slice(1) : text, currency);
  if ('minor' in parsed) return { minor: negative ? -parsed.minor : parsed.minor };
  if (parsed.problem === 'zero') return { minor: 0n };
  return { problem: parsed.problem };
}

/**
 * A decimal string with thousands separators for reading ("-1234567.80" -> "-1,234,567.80"). The
 * app's two languages group the same way (English and Chinese both write 1,234,567.80), so the
 * interface, its charts and the advisor all show a figure this one way.
 */
export function groupDecimal(decimal: string): string {
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(decimal);
  if (!match) return decimal;
  const grouped = (match[2] ?? '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${match[1] ?? ''}${grouped}${match[3] ?? ''}`;
}

/**
 * An amount as typed into the interface, back in the API's format: thousands separators and spaces
 * taken out ("3,000.00" -> "3000.00"). Text that is not an amount is given back trimmed, for
 * parseAmount to say what is wrong with it.
 */
export function plainAmount(typed: string): string {
  const trimmed = typed.trim();
  return /^\d{1,3}([, ]\d{3})+(\.\d*)?$/.test(trimmed) ? trimmed.replace(/[, ]/g, '') : trimmed;
}

/**
 * An amount as typed, shown the way figures are shown once the field is left: "3000" in USD
 * becomes "3,000.00". Text that is not an amount of the currency stays as typed.
 */
export function tidyAmount(typed: string, currency: string): string {
  const read = parseAmount(plainAmount(typed), currency);
  return 'minor' in read ? groupDecimal(formatMinor(read.minor, currency)) : typed;
}
