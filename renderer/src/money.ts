/**
 * Money in the renderer: decimal strings in and out, integer minor units (BigInt) in between.
 * Never a binary float: "0.10" + "0.20" is exactly "0.30" here.
 */

/** ISO 4217 minor-unit digits of the currencies that do not use two; every other currency uses 2. */
const MINOR_DIGITS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

export function currencyDigits(currency: string): number {
  return MINOR_DIGITS[currency.toUpperCase()] ?? 2;
}

const AMOUNT = /^(\d+)(?:\.(\d+))?$/;

export type ParsedAmount = { ok: true; minor: bigint } | { ok: false; reason: 'empty' | 'format' | 'digits' | 'zero' };

/**
 * A positive amount as typed by the user ("82.5", "82.50", "1,234.00" is refused: no separators, as
 * the API wants) in minor units of a currency with `digits` decimals.
 */
export function parseAmount(text: string, digits: number): ParsedAmount {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'empty' };
  const match = AMOUNT.exec(trimmed);
  if (!match) return { ok: false, reason: 'format' };
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return { ok: false, reason: 'digits' };
  const minor = BigInt(whole + fraction.padEnd(digits, '0'));
  if (minor === 0n) return { ok: false, reason: 'zero' };
  return { ok: true, minor };
}

/** Minor units back to a plain decimal string with exactly `digits` decimals ("-12.30"). */
export function formatMinor(minor: bigint, digits: number): string {
  const negative = minor < 0n;
  const text = (negative ? -minor : minor).toString().padStart(digits + 1, '0');
  const whole = digits === 0 ? text : text.slice(0, -digits);
  const fraction = digits === 0 ? '' : `.${text.slice(-digits)}`;
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** A decimal string from the server ("-1234567.80") with thousands separators for reading. */
export function groupDecimal(decimal: string): string {
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(decimal);
  if (!match) return decimal;
  const grouped = (match[2] ?? '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${match[1] ?? ''}${grouped}${match[3] ?? ''}`;
}

export function isNegative(decimal: string): boolean {
  return decimal.startsWith('-') && !isZero(decimal);
}

export function isZero(decimal: string): boolean {
  return /^-?0*(\.0*)?$/.test(decimal);
}

/** Exact minor units of a signed decimal string from the server, at `digits` decimals. */
export function decimalToMinor(decimal: string, digits: number): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
  if (!match) throw new Error(`not a decimal amount: ${decimal}`);
  const fraction = (match[3] ?? '').padEnd(digits, '0').slice(0, digits);
  const value = BigInt((match[2] ?? '0') + fraction);
  return match[1] === '-' ? -value : value;
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
  digits: number;
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
    const digits = currencyDigits(line.currency);
    const entry = byCurrency.get(line.currency) ?? {
      currency: line.currency,
      digits,
      debits: 0n,
      credits: 0n,
      difference: 0n,
    };
    const debit = parseAmount(line.debit, digits);
    const credit = parseAmount(line.credit, digits);
    if (debit.ok) entry.debits += debit.minor;
    if (credit.ok) entry.credits += credit.minor;
    entry.difference = entry.debits - entry.credits;
    byCurrency.set(line.currency, entry);
  }
  return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}
