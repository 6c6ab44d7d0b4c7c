import currencyCodes from 'currency-codes';

const digitsByCode = new Map<string, number>(currencyCodes.data.map((c) => [c.code, c.digits] as const));

/** Whether `code` is a current ISO 4217 alphabetic code. */
export function isKnownCurrency(code: string): boolean {
  return digitsByCode.has(code);
}

/** ISO 4217 minor-unit digits (USD 2, JPY 0, KWD 3); codes without minor units count as 0. */
export function currencyDigits(code: string): number {
  const digits = digitsByCode.get(code);
  if (digits === undefined) throw new Error(`unknown currency ${code}`);
  return digits;
}

/** Every current ISO 4217 alphabetic code, in alphabetical order (the home currency offers them all). */
export function allCurrencyCodes(): string[] {
  return [...digitsByCode.keys()].sort();
}
