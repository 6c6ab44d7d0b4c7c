import { z } from 'zod';
import { DIRECTIONS } from '../domain/double-entry.ts';
import { AMOUNT_PATTERN, compareDecimals } from '../domain/money.ts';
import { MAX_SEARCH_LENGTH } from '../domain/search.ts';
import {
  amountString,
  dateRange,
  inOrder,
  currencyCode,
  isoDate,
  isoDateTime,
  limitedText,
  pageOf,
  pagination,
  resourceId,
  uuid,
} from './common.ts';
import { TEXT_LIMITS, tooLong } from './limits.ts';

/** A line's state against the bank: uncleared, cleared (the bank shows it) or reconciled (CONTRACT §14). */
export const CLEARED_STATES = ['uncleared', 'cleared', 'reconciled'] as const;

export const ENTRY_STATUSES = ['draft', 'posted', 'void'] as const;
export const SOURCE_TYPES = ['manual', 'import', 'system', 'reconciliation', 'schedule'] as const;
export const MAX_LINES_PER_ENTRY = 1000;

/** What a line in one currency cost in another (ledger's `@@`, beancount's total price). */
export const lineCost = z.strictObject({ amount: amountString, currency: currencyCode }).meta({ id: 'LineCost' });

export const lineInput = z.strictObject({
  account_id: resourceId,
  direction: z.enum(DIRECTIONS),
  amount: amountString,
  currency: currencyCode.optional(),
  /** an exchange: the line weighs its cost; automatic lines on the currency trading accounts balance each currency */
  cost: lineCost.nullable().optional(),
});

const entryFields = {
  entry_date: isoDate,
  memo: limitedText(TEXT_LIMITS.memo).nullable().optional(),
  // fewer than two lines is TOO_FEW_LINES, checked by the service as the spec names it
  lines: z.array(lineInput).max(MAX_LINES_PER_ENTRY),
};

export const createEntryBody = z.strictObject({ ...entryFields, auto_post: z.boolean().optional() });

/** How many entries one batch request may create (CONTRACT §18). */
export const MAX_BATCH_ENTRIES = 1000;

export const createEntriesBody = z.strictObject({
  entries: z.array(createEntryBody).min(1).max(MAX_BATCH_ENTRIES),
});
export const updateEntryBody = z.strictObject({
  entry_date: entryFields.entry_date.optional(),
  memo: entryFields.memo,
  lines: entryFields.lines.optional(),
});
export const voidEntryBody = z.strictObject({
  reason: z.string().trim().max(TEXT_LIMITS.reason, tooLong(TEXT_LIMITS.reason)).optional(),
});

/** A posted entry corrected: the entry as it should be (posted at once) and, optionally, why (the void's reason). */
export const correctEntryBody = z.strictObject({
  ...entryFields,
  reason: z.string().trim().max(500).optional(),
});

/** Longest amount bound accepted: more digits than any amount the ledger can hold, and a limit on the work. */
export const MAX_AMOUNT_BOUND_LENGTH = 32;

/** A bound of an amount range: a plain decimal string ("82.50"), zero allowed, no sign. */
const amountBound = z
  .string()
  .max(MAX_AMOUNT_BOUND_LENGTH, tooLong(MAX_AMOUNT_BOUND_LENGTH))
  .regex(AMOUNT_PATTERN, 'must be a decimal amount such as 82.50')
  .meta({ example: '50.00' });

export const listEntriesQuery = inOrder(
  z.strictObject({
    status: z.enum(ENTRY_STATUSES).optional(),
    ...dateRange,
    account_id: uuid.optional(),
    source_type: z.enum(SOURCE_TYPES).optional(),
    /** memo words (any order, any case) and exact amounts (82.50): CONTRACT §15 */
    q: z.string().max(MAX_SEARCH_LENGTH).optional(),
    /** entries with a line of at least this amount, in any currency (a decimal string) */
    amount_min: amountBound.optional(),
    /** entries with a line of at most this amount, in any currency (a decimal string) */
    amount_max: amountBound.optional(),
    ...pagination,
  }),
).refine((q) => !q.amount_min || !q.amount_max || compareDecimals(q.amount_min, q.amount_max) <= 0, {
  message: 'amount_min must not be above amount_max',
  path: ['amount_min'],
});

export const journalLine = z
  .object({
    id: resourceId,
    account_id: resourceId,
    account_name: z.string(),
    direction: z.enum(DIRECTIONS),
    amount: z.string(),
    currency: z.string(),
    /** uncleared, cleared (the bank shows it) or reconciled (CONTRACT §14) */
    cleared: z.enum(CLEARED_STATES),
    cost: z.object({ amount: z.string(), currency: z.string() }).nullable(),
    /** a line the server added on a currency trading account for an exchange */
    automatic: z.boolean(),
  })
  .meta({ id: 'JournalLine' });

export const journalEntry = z
  .object({
    id: resourceId,
    entry_date: isoDate,
    memo: z.string().nullable(),
    status: z.enum(ENTRY_STATUSES),
    source_type: z.enum(SOURCE_TYPES),
    lines: z.array(journalLine),
    created_at: isoDateTime,
    updated_at: isoDateTime,
    posted_at: isoDateTime.nullable(),
    voided_at: isoDateTime.nullable(),
    void_reason: z.string().nullable(),
    reversal_entry_id: resourceId.nullable(),
    reverses_entry_id: resourceId.nullable(),
    /** the entry this one corrected (voided by the correction) */
    corrects: resourceId.nullable(),
    /** the entry that corrected this one (this one is then void) */
    corrected_by: resourceId.nullable(),
  })
  .meta({ id: 'JournalEntry' });

/**
 * How many matches past the asked page a search counts for its total: the total is exact below
 * `offset + per_page + SEARCH_COUNT_AHEAD` matches and past it says "at least this many" (a
 * common word matches tens of thousands of entries; counting them all costs more than the page).
 */
export const SEARCH_COUNT_AHEAD = 1000;

export const entryPage = pageOf(journalEntry).extend({
  total_exact: z.boolean().meta({
    description:
      `false when \`total\` is a lower bound: a search (\`q=\`) counts its matches only up to ${SEARCH_COUNT_AHEAD.toLocaleString('en')} past the page asked for, ` +
      'so a common word answers "at least `total`" and later pages may exist; the list without `q` is always exact',
  }),
});
export const entryList = z.object({ items: z.array(journalEntry) });
export const voidResult = z.object({ voided_entry: journalEntry, reversal_entry: journalEntry });
export const correctResult = z.object({
  /** the entry as it was, now void and pointing at its correction */
  voided_entry: journalEntry,
  reversal_entry: journalEntry,
  /** the corrected entry, posted */
  entry: journalEntry,
});

export type EntryStatus = (typeof ENTRY_STATUSES)[number];
export type SourceType = (typeof SOURCE_TYPES)[number];
export type JournalEntryDto = z.infer<typeof journalEntry>;
export type CreateEntryInput = z.infer<typeof createEntryBody>;
export type CreateEntriesInput = z.infer<typeof createEntriesBody>;
export type UpdateEntryInput = z.infer<typeof updateEntryBody>;
export type CorrectEntryInput = z.infer<typeof correctEntryBody>;
export type ListEntriesQuery = z.infer<typeof listEntriesQuery>;
export type LineInput = z.infer<typeof lineInput>;
