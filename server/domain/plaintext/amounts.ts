import { currencyDigits, isKnownCurrency } from '../currencies.ts';
import { parseAmount, type Minor } from '../money.ts';
import { divideHalfEven, parseRate, RATE_DECIMALS } from '../rates.ts';
import { invalid, journalError, JOURNAL_ERRORS, shown, unsupported } from './errors.ts';

/**
 * Currency symbols read as ISO codes: the three that ledger's and hledger's manuals use for these
 * currencies. Any other commodity that is not an ISO 4217 code is refused: we are a currency ledger.
 */
export const SYMBOL_CURRENCIES: Readonly<Record<string, string>> = { $: 'USD', '€': 'EUR', '£': 'GBP' };

/** The ISO code a commodity stands for; refuses one that is no currency, naming it and the line. */
export function currencyOf(commodity: string, line: number): string {
  const bare =
    commodity.startsWith('"') && commodity.endsWith('"') && commodity.length >= 2 ? commodity.slice(1, -1) : commodity;
  const code = SYMBOL_CURRENCIES[bare] ?? bare;
  if (/^[A-Z]{3}$/.test(code) && isKnownCurrency(code)) return code;
  throw journalError(
    JOURNAL_ERRORS.commodity,
    line,
    `commodity ${shown(bare)} is not an ISO 4217 currency (the ledger keeps currencies only; $, € and £ are read as USD, EUR and GBP)`,
  );
}

const NUMBER = /^([+-])?(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d*))?$/;

/**
 * A signed decimal quantity ("-1,234.50", "10.", ".5") in minor units of the currency, exact:
 * more decimal places than the currency has, or a value of a trillion units or more, is refused.
 * The amount rules are money.ts's, the same as for every entry.
 */
export function quantityToMinor(text: string, currency: string, line: number): Minor {
  const m = NUMBER.exec(text);
  if (!m || (m[2] === undefined && !m[3])) invalid(line, `${shown(text)} is not a number`);
  const whole = (m[2] ?? '0').replace(/,/g, '');
  const fraction = m[3] ?? '';
  if (/^0*$/.test(whole) && /^0*$/.test(fraction)) return 0n;
  const parsed = parseAmount(fraction === '' ? whole : `${whole}.${fraction}`, currency);
  if ('problem' in parsed) {
    const why =
      parsed.problem === 'digits'
        ? `has more decimal places than ${currency} allows`
        : parsed.problem === 'too_large'
          ? 'is a trillion units or more'
          : 'is not a valid amount';
    throw journalError('VALIDATION_ERROR', line, `amount ${shown(text)} ${why}`);
  }
  return m[1] === '-' ? -parsed.minor : parsed.minor;
}

const SYMBOL = String.raw`"[^"]*"|[^\s\d+\-.,@=;{}()\[\]*/"]+`;
const QUANTITY = String.raw`[+-]?\s*(?:\d[\d,]*(?:\.\d*)?|\.\d+)`;
const LEDGER_AMOUNT = new RegExp(String.raw`^([+-])?\s*(?:(${SYMBOL})\s*)?(${QUANTITY})\s*(${SYMBOL})?$`);

/** Features of a ledger/hledger posting amount we do not import, by their marks. */
function refuseLedgerAmountFeatures(text: string, line: number): void {
  const outsideQuotes = text.replace(/"[^"]*"/g, '""');
  if (outsideQuotes.includes('@')) invalid(line, `${shown(text)} has more than one price (@, @@)`);
  if (outsideQuotes.includes('{')) unsupported(line, 'a lot price or cost ({})');
  if (outsideQuotes.includes('=')) unsupported(line, 'a balance assertion or assignment (=)');
  if (outsideQuotes.trimStart().startsWith('(')) unsupported(line, 'a value expression');
  if (/\d[eE][+-]?\d/.test(outsideQuotes)) unsupported(line, 'an amount in scientific notation');
}

/** A ledger/hledger amount's signed number text and currency, not yet held to the currency's digits. */
function splitLedgerAmount(text: string, line: number): { number: string; currency: string } {
  refuseLedgerAmountFeatures(text, line);
  const m = LEDGER_AMOUNT.exec(text.trim());
  if (!m) invalid(line, `${shown(text)} is not an amount (a number with a currency, such as 10.50 USD)`);
  const [, outerSign, before, quantity, after] = m;
  if (before !== undefined && after !== undefined) invalid(line, `${shown(text)} has two commodities`);
  const symbol = before ?? after;
  if (symbol === undefined) invalid(line, `${shown(text)} has no currency`);
  let number = quantity!.replace(/\s+/g, '');
  if (outerSign === '-') {
    if (/^[+-]/.test(number)) invalid(line, `${shown(text)} has two signs`);
    number = `-${number}`;
  }
  return { number, currency: currencyOf(symbol, line) };
}

/** A ledger/hledger amount: `10.50 USD`, `USD 10.50`, `$-1,000.00`, `-$5`, `500.00€`. */
export function parseLedgerAmount(text: string, line: number): { minor: Minor; currency: string } {
  return amountIn(splitLedgerAmount, text, line);
}

/** How a dialect splits an amount into its signed number text and currency. */
type SplitAmount = (text: string, line: number) => { number: string; currency: string };

/** A posting amount and what it cost (null when no price is given). */
type PostingAmount = {
  amount: { minor: Minor; currency: string } | null;
  cost: { minor: Minor; currency: string } | null;
  rounded?: boolean;
};

function amountIn(split: SplitAmount, text: string, line: number): { minor: Minor; currency: string } {
  const { number, currency } = split(text, line);
  return { minor: quantityToMinor(number, currency, line), currency };
}

/** A posting amount in a dialect, a security quantity or a currency amount with an optional `@` or `@@` price. */
function postingAmountIn(split: SplitAmount, text: string, line: number): PostingAmount {
  const security = securityPostingAmount(text, line);
  if (security) return { ...security, cost: null };
  const parts = splitPrice(text);
  if (!parts) return { amount: amountIn(split, text, line), cost: null };
  const amount = amountIn(split, parts.amount, line);
  const price = split(parts.price, line);
  return { amount, cost: withCost(amount, { kind: parts.kind, ...price }, line) };
}

function priceIn(split: SplitAmount, text: string, line: number): { rateScaled: bigint; currency: string } {
  const { number, currency } = split(text, line);
  return { rateScaled: rateQuantity(number, line, 'the price'), currency };
}

/** A price or rate quantity: positive, at most 12 decimals (not the currency's digits), in 10^-12 units. */
function rateQuantity(number: string, line: number, what: string): bigint {
  const clean = number.replace(/,/g, '').replace(/^\+/, '');
  const normal = clean.startsWith('.') ? `0${clean}` : clean.endsWith('.') ? clean.slice(0, -1) : clean;
  const scaled = parseRate(normal);
  if (scaled === null)
    invalid(line, `${what} ${shown(number)} is not a number above zero with at most ${RATE_DECIMALS} decimals`);
  return scaled;
}

/** A posting amount with an optional cost: `@@ TOTAL` as given, or `@ UNIT` times the amount, exact to the cost currency's digits. */
function withCost(
  amount: { minor: Minor; currency: string },
  price: { kind: '@' | '@@'; number: string; currency: string },
  line: number,
): { minor: Minor; currency: string } {
  if (price.currency === amount.currency)
    invalid(line, `the price of ${amount.currency} is in ${amount.currency} itself`);
  if (price.number.startsWith('-')) invalid(line, 'a price must not be negative');
  if (price.kind === '@@') {
    const minor = quantityToMinor(price.number.replace(/^\+/, ''), price.currency, line);
    if (minor === 0n) invalid(line, 'a total price of zero states no exchange');
    return { minor, currency: price.currency };
  }
  const unit = rateQuantity(price.number, line, 'the unit price');
  const magnitude = amount.minor < 0n ? -amount.minor : amount.minor;
  const numerator = magnitude * unit * 10n ** BigInt(currencyDigits(price.currency));
  const denominator = 10n ** BigInt(currencyDigits(amount.currency) + RATE_DECIMALS);
  if (numerator % denominator !== 0n)
    invalid(
      line,
      `the amount times the unit price is not a whole number of ${price.currency}'s smallest unit; write the total cost with @@`,
    );
  return { minor: numerator / denominator, currency: price.currency };
}

/** Splits `AMOUNT @ PRICE` or `AMOUNT @@ PRICE` outside quotes; no price: null. */
function splitPrice(text: string): { amount: string; kind: '@' | '@@'; price: string } | null {
  const outside = text.replace(/"[^"]*"/g, (q) => '"'.padEnd(q.length - 1, 'x') + '"');
  const at = outside.indexOf('@');
  if (at < 0) return null;
  const kind = outside[at + 1] === '@' ? '@@' : '@';
  return { amount: text.slice(0, at), kind, price: text.slice(at + kind.length) };
}

/** A ledger/hledger posting amount with an optional `@` or `@@` price: the amount and what it cost. */
export function parseLedgerPostingAmount(text: string, line: number): PostingAmount {
  return postingAmountIn(splitLedgerAmount, text, line);
}

/** A `P` directive's price: `1.085 USD`, `$1.085`, at most 12 decimals. */
export function parseLedgerPrice(text: string, line: number): { rateScaled: bigint; currency: string } {
  return priceIn(splitLedgerAmount, text, line);
}

const BEAN_AMOUNT = /^([+-]?(?:\d[\d,]*(?:\.\d*)?|\.\d+))\s+([A-Z][A-Z0-9'._-]*)$/;

function splitBeancountAmount(text: string, line: number): { number: string; currency: string } {
  if (text.includes('@')) invalid(line, `${shown(text)} has more than one price (@, @@)`);
  if (text.includes('{')) unsupported(line, 'a cost ({})');
  const m = BEAN_AMOUNT.exec(text.trim());
  if (!m) {
    if (/[()*/]|\d\s*[+-]\s*\d/.test(text)) unsupported(line, 'an arithmetic expression in an amount');
    invalid(line, `${shown(text)} is not an amount (a number and a currency, such as 10.50 USD)`);
  }
  return { number: m[1]!, currency: currencyOf(m[2]!, line) };
}

/** A beancount amount: `-10.50 USD`; costs and arithmetic are refused by name. */
export function parseBeancountAmount(text: string, line: number): { minor: Minor; currency: string } {
  return amountIn(splitBeancountAmount, text, line);
}

/** A beancount posting amount with an optional price (`@ UNIT` or `@@ TOTAL`): the amount and what it cost. */
export function parseBeancountPostingAmount(text: string, line: number): PostingAmount {
  return postingAmountIn(splitBeancountAmount, text, line);
}

/** A beancount `price` directive's amount: `1.085 USD`, at most 12 decimals. */
export function parseBeancountPrice(text: string, line: number): { rateScaled: bigint; currency: string } {
  return priceIn(splitBeancountAmount, text, line);
}

/**
 * A security's price (`P DATE VTI 250 USD`, `DATE price VTI 250 USD`): its symbol is no ISO 4217 code
 * (docs/investments.md "Interop"). Null when the commodity is not a security symbol; refuses a price
 * that is not a number in a currency.
 */
export function securityPrice(
  commodity: string,
  text: string,
  line: number,
): { symbol: string; price: string; currency: string } | null {
  if (!/^[A-Z][A-Z0-9._-]{0,23}$/.test(commodity) || isKnownCurrency(commodity)) return null;
  const m = /^(\d{1,12}(?:\.\d{1,10})?)\s+(\S+)$/.exec(text.trim());
  if (!m || /^0+(\.0+)?$/.test(m[1]!))
    invalid(line, `the price of ${shown(commodity, 30)} reads a number above zero and a currency, such as 250.00 USD`);
  return { symbol: commodity, price: m[1]!, currency: currencyOf(m[2]!, line) };
}

/** Whether a commodity is a security's symbol (docs/investments.md): no ISO 4217 code, no currency sign. */
export function isSecuritySymbol(commodity: string): boolean {
  return /^[A-Z][A-Z0-9._-]{0,23}$/.test(commodity) && !isKnownCurrency(commodity);
}

const SECURITY_UNITS = /^([+-]?(?:\d[\d,]*(?:\.\d*)?|\.\d+))\s+([A-Z][A-Z0-9._-]{0,23})(?![A-Za-z0-9._-])\s*(.*)$/s;
const COST_PARTS = /^(?:\{\{([^{}]*)\}\}|\{([^{}]*)\})?\s*(?:\[([^\]]*)\])?\s*(?:(@@?)\s*(.*))?$/s;
const PER_UNIT = /^(\d{1,15}(?:\.\d{1,20})?)\s+(\S+)$/;

/**
 * A posting of a security's units with their cost (docs/investments.md "Interop"): beancount
 * `10 VTI {210.50 USD}`, `-4 VTI {210.50 USD, 2024-01-05} @ 250.00 USD`, `{{2105.00 USD}}`; ledger
 * `{210.50 USD} [2024-01-05]`, `{{…}}`; hledger `10 VTI @ 210.50 USD`, `@@ 2105.00 USD`. The ledger
 * keeps money only, so the posting becomes its cost in the cost's currency: the lot's cost when it has
 * one (a sale's `@` price is then what the tools show, not what they weigh), else its `@`/`@@` price.
 * Units times a per-unit cost are rounded half to even to the currency's minor unit (`rounded`), and a
 * lot spec without a number (`{}`, `{2024-01-05}`) leaves the amount to balance the transaction.
 * Null when the commodity is no security.
 */
export function securityPostingAmount(
  text: string,
  line: number,
): { amount: { minor: Minor; currency: string } | null; rounded: boolean } | null {
  const m = SECURITY_UNITS.exec(text.trim());
  if (!m || !isSecuritySymbol(m[2]!)) return null;
  const symbol = m[2]!;
  const units = m[1]!.replace(/,/g, '');
  const um = /^([+-])?(\d*)(?:\.(\d*))?$/.exec(units);
  if (!um || (um[3] ?? '').length > 8 || (um[2] ?? '').length > 10)
    invalid(line, `${shown(units)} ${symbol} is not a number of units with at most 8 decimals`);
  const atoms = BigInt((um[2] || '0') + (um[3] ?? '').padEnd(8, '0'));
  const sign = um[1] === '-' ? -1n : 1n;
  const parts = COST_PARTS.exec(m[3]!.trim());
  if (!parts) invalid(line, `${shown(text)} is not units with a cost (such as 10 ${symbol} {210.50 USD})`);
  const [, total, perUnit, , at, price] = parts;
  let cost: { kind: 'unit' | 'total'; text: string } | null = null;
  if (total !== undefined || perUnit !== undefined) {
    // beancount's components: the cost, a date, a label; the cost is the one with a currency
    const spec = (total ?? perUnit)!
      .split(',')
      .map((c) => c.trim())
      .find((c) => /^\d/.test(c) && /\s/.test(c));
    if (spec === undefined) return { amount: null, rounded: false };
    cost = { kind: total !== undefined ? 'total' : 'unit', text: spec };
  } else if (at !== undefined) cost = { kind: at === '@@' ? 'total' : 'unit', text: price!.trim() };
  if (cost === null)
    throw journalError(
      JOURNAL_ERRORS.commodity,
      line,
      `commodity ${shown(symbol)} is not an ISO 4217 currency, and its units carry no cost ({cost} or @ price) to keep them at`,
    );
  const pm = PER_UNIT.exec(cost.text);
  if (!pm) invalid(line, `the cost of ${symbol} reads a number above zero and a currency, such as 210.50 USD`);
  const currency = currencyOf(pm[2]!, line);
  const digits = currencyDigits(currency);
  if (cost.kind === 'total') {
    const minor = quantityToMinor(pm[1]!, currency, line);
    return { amount: { minor: sign * minor, currency }, rounded: false };
  }
  const [whole, fraction = ''] = pm[1]!.split('.');
  const numerator = atoms * BigInt(whole! + fraction) * 10n ** BigInt(digits);
  const denominator = 10n ** BigInt(8 + fraction.length);
  const minor = divideHalfEven(numerator, denominator);
  if (minor >= 10n ** BigInt(12 + digits)) invalid(line, `the cost of ${symbol} is a trillion units or more`);
  return { amount: { minor: sign * minor, currency }, rounded: numerator % denominator !== 0n };
}
