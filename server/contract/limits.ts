/**
 * The longest text each field takes, in characters, and the words of the field errors the renderer
 * says in the user's language. The contract's schemas refuse longer text with `tooLong`; the
 * renderer's fields stop at these lengths and say so as they near them. No zod here: the renderer
 * imports this module.
 */
export const TEXT_LIMITS = {
  accountName: 100,
  accountDescription: 1000,
  memo: 500,
  reason: 500,
  ruleName: 100,
  rulePattern: 500,
  scheduleName: 100,
  statementName: 200,
  personName: 100,
  question: 4000,
} as const;

/** Field error messages (`errors[].message`) that the renderer translates. */
export const FIELD_MESSAGES = {
  required: 'is required',
  blank: 'must not be blank',
  negative: 'must not be negative',
  amount: 'must be a positive decimal string such as "82.50"',
  budgetAmount: 'must be a decimal string such as "300.00"',
  balance: 'must be a decimal string such as "-1250.00"',
  rate: 'must be a positive decimal string with at most 12 decimals, such as "1.085"',
  date: 'must be a calendar date YYYY-MM-DD',
  month: 'must be a month YYYY-MM',
  currency: 'must be an ISO 4217 currency code',
  unknownField: 'is not a known field',
  zero: 'must be greater than zero',
  tooLarge: 'must be less than one trillion',
} as const;

/** The message of an amount with more decimals than its currency has. */
export function tooManyDecimals(currency: string): string {
  return `has more decimal places than ${currency} allows`;
}

/** Reads `tooManyDecimals`'s message back: its currency, or null for another message. */
export function tooManyDecimalsCurrency(message: string): string | null {
  return /^has more decimal places than ([A-Z]{3}) allows$/.exec(message)?.[1] ?? null;
}

/** The message of a text longer than `max` characters. */
export function tooLong(max: number): string {
  return `must be at most ${max} characters`;
}

/** Reads `tooLong`'s message back: its limit, or null for another message. */
export function tooLongLimit(message: string): number | null {
  const match = /^must be at most (\d+) characters$/.exec(message);
  return match ? Number(match[1]) : null;
}
