/**
 * Money as both sides of the API read and write it: the amount format, the currencies' minor-unit
 * digits, and amounts read and printed exactly in minor units. The renderer takes them from here
 * (it imports nothing of the server but its contract); the server's code uses the same module,
 * domain/money.ts, directly. No zod here: what the renderer imports stays small.
 */
export {
  AMOUNT_PATTERN,
  compareDecimals,
  MAX_AMOUNT_UNITS,
  SIGNED_AMOUNT_PATTERN,
  formatMinor,
  groupDecimal,
  formatScaled,
  parseAmount,
  parseSignedAmount,
  plainAmount,
  tidyAmount,
  type AmountProblem,
  type Minor,
} from '../domain/money.ts';
export { allCurrencyCodes, currencyDigits, isKnownCurrency } from '../domain/currencies.ts';
