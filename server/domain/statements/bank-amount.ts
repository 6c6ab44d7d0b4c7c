import { Decimal } from 'decimal.js';
import { LIMITS } from './limits.ts';

/**
 * How the decimal mark is chosen:
 * - '.' or ',': as given (CSV mapping); the other mark, an apostrophe or a space may group thousands.
 * - 'ofx': '.' or ',' is the decimal mark, no grouping (the OFX spec allows either mark).
 * - 'auto' (QIF): the right-most of '.'/',' when both occur; a lone ',' is a decimal mark unless it
 *   groups thousands ("1,234" is 1234).
 */
export type AmountMode = '.' | ',' | 'ofx' | 'auto';

const CURRENCY_SYMBOL = /^[$€£¥₤]|[$€£¥₤]$/;
const CURRENCY_CODE = /^[A-Z]{3}\s*(?=[\d.,+\-(−])|(?<=[\d.,)])\s*[A-Z]{3}$/;
const GROUP_SEPARATORS = new Set([',', '.', "'", '’', ' ']);

/**
 * Reads an amount as a bank file writes it, with its locale's marks: optional sign (leading
 * '+'/'-', trailing '-', or parentheses), optional currency symbol or ISO code, thousands
 * separators, and the decimal mark `mode` says. Returns null when the text is not a number. Never
 * uses floating point. (The API's own amounts are read by domain/money.ts's parseAmount.)
 */
export function readBankAmount(raw: string, mode: AmountMode): Decimal | null {
  let s = raw.replace(/[\u00a0\u202f\u2009]/g, ' ').trim();
  if (s === '' || s.length > LIMITS.maxAmountChars) return null;
  let negative = false;
  let signs = 0;
  for (let guard = 0; guard < 8; guard += 1) {
    const before = s;
    if (s.startsWith('(') && s.endsWith(')')) {
      negative = !negative;
      signs += 1;
      s = s.slice(1, -1).trim();
    }
    if (/^[+\-−]/.test(s)) {
      if (s[0] !== '+') negative = !negative;
      signs += 1;
      s = s.slice(1).trim();
    }
    if (/[+\-−]$/.test(s)) {
      if (!s.endsWith('+')) negative = !negative;
      signs += 1;
      s = s.slice(0, -1).trim();
    }
    s = s.replace(CURRENCY_SYMBOL, '').replace(CURRENCY_CODE, '').trim();
    if (s === before) break;
  }
  if (signs > 1 || s === '' || !/^[\d.,'’ ]+$/.test(s) || !/\d/.test(s)) return null;

  const mark = decimalMark(s, mode);
  if (mark === null) return null;
  const at = s.lastIndexOf(mark);
  let intPart = s;
  let fraction = '';
  if (at !== -1) {
    if (s.indexOf(mark) !== at) return null;
    intPart = s.slice(0, at);
    fraction = s.slice(at + 1);
    if (!/^\d+$/.test(fraction)) return null;
  }
  const digits = integerDigits(intPart, mark, mode === 'ofx');
  if (digits === null || (digits === '' && fraction === '')) return null;
  const value = new Decimal(`${digits === '' ? '0' : digits}.${fraction === '' ? '0' : fraction}`);
  return negative ? value.negated() : value;
}

function decimalMark(s: string, mode: AmountMode): '.' | ',' | null {
  if (mode === '.' || mode === ',') return mode;
  const dot = s.lastIndexOf('.');
  const comma = s.lastIndexOf(',');
  if (mode === 'ofx') {
    if (dot !== -1 && comma !== -1) return null;
    return comma !== -1 ? ',' : '.';
  }
  if (dot !== -1 && comma !== -1) return dot > comma ? '.' : ',';
  if (comma !== -1) return /^\d{1,3}(?:,\d{3})+$/.test(s) ? '.' : ',';
  return '.';
}

/** The digits of the integer part, accepting one consistent thousands separator; null if malformed. */
function integerDigits(intPart: string, mark: '.' | ',', noGrouping: boolean): string | null {
  if (/^\d*$/.test(intPart)) return intPart;
  if (noGrouping) return null;
  const m = /^\d{1,3}([,.'’ ])\d{3}(?:\1\d{3})*$/.exec(intPart);
  if (!m || m[1] === mark || !GROUP_SEPARATORS.has(m[1] ?? '')) return null;
  return intPart.replace(/\D/g, '');
}

/** Fixed-point text with at least two decimals and no trailing zeros beyond them: 7.8 → "7.80", 0.125 → "0.125". */
export function formatBankAmount(value: Decimal): string {
  return value.toFixed(Math.max(2, value.decimalPlaces()));
}
