import { z } from 'zod';
import { FIRST_MONTH, isMonth, LAST_MONTH } from '../domain/budgets.ts';
import { DATE_RANGE_TEXT, FIRST_YEAR, isCalendarDate, isLedgerDate, isLedgerYear, LAST_YEAR } from '../domain/dates.ts';
import { FIELD_MESSAGES, tooLong } from './limits.ts';
import { AMOUNT_PATTERN, SIGNED_AMOUNT_PATTERN, isKnownCurrency } from './money.ts';

/**
 * A UUID, checked as one. Every filter takes it (a query's `account_id`, a batch's `match_ids`): a
 * filter whose value can never name anything is a VALIDATION_ERROR, not an empty answer.
 */
export const uuid = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'must be a UUID')
  .meta({ format: 'uuid' });

/**
 * The id of something the server made: a UUID, documented as one but not checked as one, so that
 * an id that names nothing is answered as the contract says (NOT_FOUND, INVALID_ACCOUNT), never as
 * a VALIDATION_ERROR.
 */
export const resourceId = z.string().max(100).meta({ format: 'uuid' });

const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

/**
 * A new password (CONTRACT §8): 8..72 bytes of UTF-8 (bcrypt reads no further), not only white
 * space. JSON Schema counts characters, so the document states the bytes as `x-min-bytes` and
 * `x-max-bytes`, and the characters they allow as `minLength` (8 bytes are at least 2 characters,
 * of four bytes each) and `maxLength`.
 */
export const newPassword = z
  .string()
  .refine((p) => utf8Bytes(p) >= 8, 'must be at least 8 bytes')
  .refine((p) => utf8Bytes(p) <= 72, 'must be at most 72 bytes (bcrypt reads no further)')
  .refine((p) => p.trim() !== '', 'must not be only white space')
  .meta({
    minLength: 2,
    maxLength: 72,
    'x-min-bytes': 8,
    'x-max-bytes': 72,
    // String.prototype.trim and \s take away the same white space
    pattern: '\\S',
    description: '8 to 72 bytes of UTF-8 (8 to 72 ASCII characters; bcrypt reads no further), not only white space',
  });

/** Years the ledger's calendar holds (domain/dates.ts), as a pattern of the documents. */
const LEDGER_YEAR_PATTERN = '(19[0-9]{2}|2[01][0-9]{2})';

export const isoDate = z
  .string()
  .refine(isCalendarDate, FIELD_MESSAGES.date)
  .refine(isLedgerDate, `must be a date from ${DATE_RANGE_TEXT}`)
  .meta({
    format: 'date',
    pattern: `^${LEDGER_YEAR_PATTERN}-[0-9]{2}-[0-9]{2}$`,
    description: `A calendar date YYYY-MM-DD from ${DATE_RANGE_TEXT}`,
    example: '2026-01-31',
  });

/** A month YYYY-MM of the ledger's calendar. */
export const isoMonth = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, FIELD_MESSAGES.month)
  .refine(isMonth, `must be a month YYYY-MM from ${FIRST_MONTH} to ${LAST_MONTH}`)
  .meta({
    pattern: `^${LEDGER_YEAR_PATTERN}-(0[1-9]|1[0-2])$`,
    description: `A month YYYY-MM from ${FIRST_MONTH} to ${LAST_MONTH}`,
    example: '2026-03',
  });

/** A year YYYY of the ledger's calendar. */
export const isoYear = z
  .string()
  .regex(/^\d{4}$/, 'must be a year YYYY')
  .refine((y) => isLedgerYear(Number(y)), `must be a year from ${FIRST_YEAR} to ${LAST_YEAR}`)
  .meta({
    pattern: `^${LEDGER_YEAR_PATTERN}$`,
    description: `A year from ${FIRST_YEAR} to ${LAST_YEAR}`,
    example: '2026',
  });

/**
 * An ISO 4217 code the server knows. The document gives its form (three capital letters) and says
 * the rest in words: a list of every code would type a client's currency as a union of 180 names.
 */
export const currencyCode = z
  .string()
  .refine(isKnownCurrency, FIELD_MESSAGES.currency)
  .meta({ pattern: '^[A-Z]{3}$', description: 'An ISO 4217 currency code', example: 'USD' });

/** A positive decimal string; digits against the currency are checked where the currency is known. */
export const amountString = z
  .string()
  .refine((v) => !isNegativeDecimal(v), { message: FIELD_MESSAGES.negative, abort: true })
  .regex(AMOUNT_PATTERN, FIELD_MESSAGES.amount)
  .meta({ example: '82.50' });

/** "-15.00": a decimal with a minus sign, said as what it is rather than as a malformed amount. */
export function isNegativeDecimal(value: string): boolean {
  return /^-\d+(\.\d+)?$/.test(value.trim());
}

/** Text of at most `max` characters (the limits are in limits.ts, which the renderer reads too). */
export function limitedText(max: number) {
  return z.string().max(max, tooLong(max));
}

/** A name: trimmed, not blank, at most `max` characters. */
export function nameText(max: number) {
  return z.string().trim().min(1, FIELD_MESSAGES.blank).max(max, tooLong(max));
}

/** A balance: a decimal string that may be zero or start with '-' ("-1250.00"). */
export const signedAmountString = z
  .string()
  .regex(SIGNED_AMOUNT_PATTERN, FIELD_MESSAGES.balance)
  .meta({ example: '-1250.00' });

/** A range of dates, either end open: `start_date` and `end_date`, the first not after the second. */
export const dateRange = { start_date: isoDate.optional(), end_date: isoDate.optional() };

/** The check of `dateRange` (JSON Schema cannot compare two fields; the description says it). */
export function inOrder<T extends z.ZodType<{ start_date?: string | undefined; end_date?: string | undefined }>>(
  schema: T,
): T {
  return schema.refine((q) => !q.start_date || !q.end_date || q.start_date <= q.end_date, {
    message: 'start_date must not be after end_date',
    path: ['start_date'],
  });
}

/**
 * "One of these fields is given" (present and not null) as JSON Schema: `exactly` one (oneOf) or
 * `atLeast` one (anyOf), each as a `required` with its value not null.
 */
export function givenFields(rule: 'exactly' | 'atLeast', fields: readonly string[]): Record<string, unknown> {
  const given = fields.map((field) => ({ required: [field], properties: { [field]: { not: { type: 'null' } } } }));
  return rule === 'exactly' ? { oneOf: given } : { anyOf: given };
}

/**
 * An object of which `exactly` one (or `atLeast` one) of `fields` is given: checked, with `message`
 * on the first field, and stated in the document (`givenFields`), so that the two agree.
 */
export function oneOfFields<T extends z.ZodType<object>>(
  schema: T,
  rule: 'exactly' | 'atLeast',
  fields: readonly [string, string, ...string[]],
  message: string,
): T {
  const count = (value: object) => fields.filter((field) => (value as Record<string, unknown>)[field] != null).length;
  return schema
    .refine((value) => (rule === 'exactly' ? count(value) === 1 : count(value) >= 1), {
      message,
      path: [fields[0]],
    })
    .meta(givenFields(rule, fields));
}

export const isoDateTime = z.string().meta({ format: 'date-time' });

/** An integer given as query text, within bounds; documented as the integer it is. */
export function wholeNumber(min: number, max: number) {
  return z
    .string()
    .regex(/^\d{1,15}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .meta({ type: 'integer', minimum: min, maximum: max });
}

/** `true` or `false` given as query text; documented as the boolean it is. */
export const queryBool = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .meta({ type: 'boolean' });

export const pagination = {
  page: wholeNumber(1, 1_000_000_000).default(1),
  per_page: wholeNumber(1, 100).default(20),
};

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    per_page: z.number().int(),
  });
}

/** A path's id: any text, so that a malformed one is NOT_FOUND (CONTRACT §3). */
/** The file part of a multipart upload: its bytes. */
export const filePart = z.string().meta({ format: 'binary', description: 'The file' });

export const idParams = z.object({ id: z.string().meta({ format: 'uuid' }) });

export const errorBody = z
  .object({
    detail: z.string(),
    code: z.string().optional(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Error' });

/** How a route whose work runs as a job (server/jobs) answers a job stopped at its time or memory budget. */
export const jobBudgetResponse = {
  status: 422,
  description:
    'JOB_BUDGET_EXCEEDED: the work needed more time or memory than one job may take and was stopped; nothing was changed',
  schema: errorBody,
};
