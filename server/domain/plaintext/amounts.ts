import { isKnownCurrency } from '../currencies.ts';
import { parseAmount, type Minor } from '../money.ts';
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
  if (outsideQuotes.includes('@@')) unsupported(line, 'a total price (@@)');
  if (outsideQuotes.includes('@')) unsupported(line, 'a price (@)');
  if (outsideQuotes.includes('{')) unsupported(line, 'a lot price or cost ({})');
  if (outsideQuotes.includes('=')) unsupported(line, 'a balance assertion or assignment (=)');
  if (outsideQuotes.trimStart().startsWith('(')) unsupported(line, 'a value expression');
  if (/\d[eE][+-]?\d/.test(outsideQuotes)) unsupported(line, 'an amount in scientific notation');
}

/** A ledger/hledger amount: `10.50 USD`, `USD 10.50`, `$-1,000.00`, `-$5`, `500.00€`. */
export function parseLedgerAmount(text: string, line: number): { minor: Minor; currency: string } {
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
  const currency = currencyOf(symbol, line);
  return { minor: quantityToMinor(number, currency, line), currency };
}

const BEAN_AMOUNT = /^([+-]?(?:\d[\d,]*(?:\.\d*)?|\.\d+))\s+([A-Z][A-Z0-9'._-]*)$/;

/** A beancount amount: `-10.50 USD`; costs, prices and arithmetic are refused by name. */
export function parseBeancountAmount(text: string, line: number): { minor: Minor; currency: string } {
  if (text.includes('@@')) unsupported(line, 'a total price (@@)');
  if (text.includes('@')) unsupported(line, 'a price (@)');
  if (text.includes('{')) unsupported(line, 'a cost ({})');
  const m = BEAN_AMOUNT.exec(text.trim());
  if (!m) {
    if (/[()*/]|\d\s*[+-]\s*\d/.test(text)) unsupported(line, 'an arithmetic expression in an amount');
    invalid(line, `${shown(text)} is not an amount (a number and a currency, such as 10.50 USD)`);
  }
  const currency = currencyOf(m[2]!, line);
  return { minor: quantityToMinor(m[1]!, currency, line), currency };
}
