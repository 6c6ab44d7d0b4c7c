/**
 * Money on screen: decimal strings from the server shown for reading, and the sums of an entry
 * being edited. Reading, printing and the currencies' digits are the contract's (the one money
 * module the server uses too): integer minor units (BigInt), never a binary float, so "0.10" +
 * "0.20" is exactly "0.30" here.
 */
import { formatMinor, parseAmount, plainAmount, SIGNED_AMOUNT_PATTERN } from '../../server/contract/money.ts';

export { groupDecimal, plainAmount, tidyAmount } from '../../server/contract/money.ts';

/** Whether text is a balance as the API reads one: digits, an optional '-', an optional '.' and digits. */
export function isBalance(text: string): boolean {
  return SIGNED_AMOUNT_PATTERN.test(text);
}

export function isNegative(decimal: string): boolean {
  return decimal.startsWith('-') && !isZero(decimal);
}

export function isZero(decimal: string): boolean {
  return /^-?0*(\.0*)?$/.test(decimal);
}

/**
 * A decimal string as a JavaScript number, for chart geometry only (the position of a point on
 * a screen); every figure shown as text stays the exact string.
 */
export function chartValue(decimal: string): number {
  return Number(decimal);
}

export interface LineAmount {
  currency: string;
  debit: string;
  credit: string;
}

export interface CurrencyBalance {
  currency: string;
  debits: bigint;
  credits: bigint;
  /** debits − credits; zero when balanced */
  difference: bigint;
}

/**
 * Sums the debit and credit columns of an entry being edited, per currency, exactly. Lines whose
 * amount cannot be read are left out (the editor flags them on their own).
 */
export function entryBalance(lines: readonly LineAmount[]): CurrencyBalance[] {
  const byCurrency = new Map<string, CurrencyBalance>();
  for (const line of lines) {
    const entry = byCurrency.get(line.currency) ?? { currency: line.currency, debits: 0n, credits: 0n, difference: 0n };
    const debit = parseAmount(plainAmount(line.debit), line.currency);
    const credit = parseAmount(plainAmount(line.credit), line.currency);
    if ('minor' in debit) entry.debits += debit.minor;
    if ('minor' in credit) entry.credits += credit.minor;
    entry.difference = entry.debits - entry.credits;
    byCurrency.set(line.currency, entry);
  }
  return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

/** A signed decimal string of the server ("-45.00") in minor units of its currency; text that is not one counts 0. */
export function signedMinor(decimal: string, currency: string): bigint {
  const negative = decimal.startsWith('-');
  const read = parseAmount(negative ? decimal.slice(1) : decimal, currency);
  const minor = 'minor' in read ? read.minor : 0n;
  return negative ? -minor : minor;
}

/** a − b, exactly, as the server would print it. */
export function subtractDecimal(a: string, b: string, currency: string): string {
  return formatMinor(signedMinor(a, currency) - signedMinor(b, currency), currency);
}

/** The sum of decimal strings of one currency, exactly. */
export function sumDecimals(values: readonly string[], currency: string): string {
  return formatMinor(
    values.reduce((sum, v) => sum + signedMinor(v, currency), 0n),
    currency,
  );
}

/**
 * A chart axis tick (a position on the axis, not a figure of the books) with the thousands grouped
 * as the chosen language groups them: 6000 → "6,000".
 */
export function axisTick(value: number, language: 'en' | 'zh'): string {
  return new Intl.NumberFormat(language === 'zh' ? 'zh-CN' : 'en-US', { maximumFractionDigits: 2 }).format(value);
}
