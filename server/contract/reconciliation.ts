import { z } from 'zod';
import { BANK_TYPES } from './statements.ts';
import { CLEARED_STATES } from './journal.ts';
import { TEXT_LIMITS } from './limits.ts';
import {
  amountString,
  dateRange,
  inOrder,
  isoDate,
  isoDateTime,
  limitedText,
  oneOfFields,
  pageOf,
  pagination,
  resourceId,
  signedAmountString,
  uuid,
  wholeNumber,
} from './common.ts';

export const MATCH_STATUSES = [
  'pending',
  'auto_accepted',
  'pending_review',
  'accepted',
  'rejected',
  'superseded',
] as const;

export const runBody = oneOfFields(
  inOrder(
    z.strictObject({
      statement_id: resourceId.optional(),
      account_id: resourceId.optional(),
      ...dateRange,
    }),
  ),
  'atLeast',
  ['statement_id', 'account_id'],
  'give statement_id or account_id',
);

export const runResult = z.object({
  run_id: resourceId,
  status: z.literal('completed'),
  summary: z.object({
    total_transactions: z.number().int(),
    auto_accepted: z.number().int(),
    pending_review: z.number().int(),
    unmatched: z.number().int(),
  }),
  completed_at: isoDateTime,
});

export const pendingQuery = z
  .strictObject({
    account_id: uuid.optional(),
    min_score: wholeNumber(0, 100).optional(),
    max_score: wholeNumber(0, 100).optional(),
    ...pagination,
  })
  .refine((q) => q.min_score === undefined || q.max_score === undefined || q.min_score <= q.max_score, {
    message: 'min_score must not be above max_score',
    path: ['min_score'],
  });

export const decisionBody = z.strictObject({ version: z.number().int().min(1).optional() });
export const rejectBody = z.strictObject({
  reason: z.string().trim().max(500).optional(),
  version: z.number().int().min(1).optional(),
});

export const batchAcceptBody = z.strictObject({
  min_score: z.number().int().min(0).max(100),
  account_id: uuid.optional(),
  match_ids: z.array(uuid).max(10_000).optional(),
});

export const statsQuery = inOrder(z.strictObject({ account_id: uuid.optional(), ...dateRange }));

export const unmatchedQuery = z.strictObject({
  account_id: uuid.optional(),
  statement_id: uuid
    .optional()
    .describe("Only this statement's bank lines (posted entries belong to no statement, so none are listed)"),
  type: z.enum(['bank_transaction', 'journal_entry']).optional(),
  ...pagination,
});

/** How many accounts one bank line may be split across. */
export const MAX_SPLITS = 50;

/**
 * A part of a bank line booked to one account: `amount` in the bank line's currency; for an account
 * in another currency, `converted_amount` is the part in the account's currency (default: `amount`
 * at the rate table's rate of the line's date).
 */
export const bookingSplit = z
  .strictObject({ account_id: resourceId, amount: amountString, converted_amount: amountString.optional() })
  .meta({ id: 'BookingSplit' });

/**
 * How a bank line is booked: to one account (`account_id`, with `converted_amount` for an account in
 * another currency), or split across several (`splits`, summing exactly to the line).
 */
const bookingFields = {
  account_id: resourceId.optional(),
  converted_amount: amountString.optional(),
  splits: z.array(bookingSplit).min(2).max(MAX_SPLITS).optional(),
  memo: z.string().trim().min(1).max(500).optional(),
};

function oneWayOfBooking<
  T extends z.ZodType<{ account_id?: string | undefined; splits?: unknown; converted_amount?: string | undefined }>,
>(schema: T) {
  return oneOfFields(schema, 'exactly', ['account_id', 'splits'], 'give either account_id or splits')
    .refine((b) => b.converted_amount === undefined || b.account_id !== undefined, {
      message: 'goes with account_id; a split states its own',
      path: ['converted_amount'],
    })
    .meta({ dependentRequired: { converted_amount: ['account_id'] } });
}

export const createEntryFromBankBody = oneWayOfBooking(z.strictObject(bookingFields));

export const scoreBreakdown = z
  .object({
    amount: z.number().int(),
    date: z.number().int(),
    description: z.number().int(),
    business: z.number().int(),
    history: z.number().int(),
  })
  .meta({ id: 'ScoreBreakdown' });

export const matchBankTransaction = z.object({
  id: resourceId,
  /** the statement's account */
  account_id: resourceId,
  date: isoDate,
  description: z.string(),
  amount: z.string(),
  currency: z.string(),
  type: z.enum(BANK_TYPES),
});

export const match = z
  .object({
    id: resourceId,
    status: z.enum(MATCH_STATUSES),
    score: z.number().int(),
    score_breakdown: scoreBreakdown,
    bank_transaction: matchBankTransaction,
    journal_entries: z.array(
      z.object({ id: resourceId, entry_date: isoDate, memo: z.string().nullable(), total_amount: z.string() }),
    ),
    version: z.number().int(),
    superseded_by_id: resourceId.nullable(),
    created_at: isoDateTime,
    updated_at: isoDateTime,
    accepted_at: isoDateTime.nullable(),
    rejected_at: isoDateTime.nullable(),
    reject_reason: z.string().nullable(),
  })
  .meta({ id: 'ReconciliationMatch' });

export const matchPage = pageOf(match);

export const acceptResult = z.object({
  id: resourceId,
  status: z.literal('accepted'),
  accepted_at: isoDateTime,
  version: z.number().int(),
});
export const rejectResult = z.object({
  id: resourceId,
  status: z.literal('rejected'),
  reject_reason: z.string().nullable(),
  rejected_at: isoDateTime,
  version: z.number().int(),
});
export const batchAcceptResult = z.object({ accepted_count: z.number().int(), match_ids: z.array(z.string()) });

/** Kept for scripts written before `matched`: the same count under the name that meant two things. */
const sameAsMatched = (field: string) =>
  z.number().meta({
    deprecated: true,
    description: `Deprecated: the same as \`${field}\` (matched to an entry, not reconciled to the bank's balance).`,
  });

export const stats = z.object({
  total_transactions: z.number().int(),
  matched: z.number().int().describe('Bank transactions matched to a journal entry (accepted or auto-accepted)'),
  reconciled: sameAsMatched('matched').int(),
  pending_review: z.number().int(),
  unmatched: z.number().int(),
  match_rate: z.number().describe('matched / total_transactions, in percent, two decimals'),
  reconciliation_rate: sameAsMatched('match_rate'),
  average_score: z.number(),
  score_distribution: z.object({ '85_100': z.number().int(), '60_84': z.number().int(), '0_59': z.number().int() }),
  by_account: z.array(
    z.object({
      account_id: resourceId,
      account_name: z.string(),
      matched: z.number().int(),
      reconciled: sameAsMatched('matched').int(),
      pending: z.number().int(),
      unmatched: z.number().int(),
      reconciled_through: isoDate
        .nullable()
        .describe(
          "The statement date of the account's last reconciliation to the bank's balance; null when never reconciled",
        ),
    }),
  ),
});

export const unmatchedItem = z.object({
  type: z.enum(['bank_transaction', 'journal_entry']),
  transaction: matchBankTransaction,
  /** The name of the account the line is on (`transaction.account_id`). */
  account_name: z.string(),
  suggested_action: z.enum(['create_entry', 'find_bank_transaction']),
  /** Highest confidence first; a rule's account first with confidence 1 and its `rule_id`. */
  suggested_accounts: z.array(
    z.object({ id: resourceId, name: z.string(), confidence: z.number(), rule_id: resourceId.nullable() }),
  ),
  /** The account to book it against unless the person chooses another: a rule's, or a learnt one at least 0.5 sure. */
  preselected_account_id: resourceId.nullable(),
  /** The parts the matching rule splits the line into (the rule's account, taking the rest, last), or null. */
  preselected_splits: z.array(z.object({ account_id: resourceId, amount: z.string() })).nullable(),
  /**
   * The other side of a transfer between the user's own accounts: an unmatched bank line of the same
   * amount and currency in the opposite direction on another account, a few days apart (the nearest), or null.
   */
  transfer: z.object({ transaction: matchBankTransaction, account_name: z.string() }).nullable(),
});
export const unmatchedPage = pageOf(unmatchedItem);

/** Matches of one status (auto_accepted: what a run decided alone, to look over and undo), highest score first. */
export const matchesQuery = z.strictObject({
  status: z.enum(MATCH_STATUSES).default('auto_accepted'),
  account_id: uuid.optional(),
  statement_id: uuid.optional(),
  ...pagination,
});

export const MAX_BOOKING_ITEMS = 500;

export const createEntriesBody = oneOfFields(
  z.strictObject({
    items: z
      .array(oneWayOfBooking(z.strictObject({ bank_transaction_id: resourceId, ...bookingFields })))
      .min(1)
      .max(MAX_BOOKING_ITEMS)
      .optional(),
    statement_id: resourceId.optional(),
  }),
  'exactly',
  ['items', 'statement_id'],
  'give either items or statement_id',
);

export const createEntriesResult = z.object({
  created: z.array(z.object({ bank_transaction_id: resourceId, entry_id: resourceId, match_id: resourceId })),
  /** The statement's unmatched transactions no rule matched (empty for `items`). */
  skipped: z.array(resourceId),
});

/** How many days apart the two bank lines of a transfer may be. */
export const TRANSFER_DAYS = 5;

/** A transfer between two of the user's accounts: the bank line of the money out and the one of the money in. */
export const transferBody = z.strictObject({
  from_transaction_id: resourceId,
  to_transaction_id: resourceId,
  memo: z.string().trim().min(1).max(500).optional(),
});

// Reconciling an account to the bank (CONTRACT §14)

export const clearedBody = z.strictObject({
  line_ids: z.array(resourceId).min(1).max(1000),
  cleared: z.boolean(),
});
export const clearedResult = z.object({
  lines: z.array(z.object({ id: resourceId, cleared: z.enum(CLEARED_STATES) })),
});

export const reconcileQuery = z.strictObject({ statement_date: isoDate, statement_balance: signedAmountString });
export const reconcileBody = z.strictObject({ statement_date: isoDate, statement_balance: signedAmountString });

export const reconcileStatus = z
  .object({
    statement_date: isoDate,
    statement_balance: z.string(),
    /** posted lines dated on or before statement_date that are cleared or reconciled, signed as the account's balance */
    cleared_balance: z.string(),
    /** statement_balance − cleared_balance */
    difference: z.string(),
    uncleared_count: z.number().int(),
  })
  .meta({ id: 'ReconcileStatus' });

export const reconciliation = z
  .object({
    id: resourceId,
    account_id: resourceId,
    statement_date: isoDate,
    statement_balance: z.string(),
    line_count: z.number().int(),
    created_at: isoDateTime,
  })
  .meta({ id: 'Reconciliation' });
export const reconciliationPage = pageOf(reconciliation);
export const reconciliationsQuery = z.strictObject({ ...pagination });

/** The lines left to reconcile (uncleared or cleared) dated on or before a day, newest first. */
export const unreconciledQuery = z.strictObject({ statement_date: isoDate, ...pagination });
export const unreconciledLine = z.object({
  line_id: resourceId,
  entry_id: resourceId,
  entry_date: isoDate,
  memo: z.string().nullable(),
  /** signed as the account's balance: what the line adds to it */
  amount: z.string(),
  currency: z.string(),
  cleared: z.enum(CLEARED_STATES),
});
export const unreconciledPage = pageOf(unreconciledLine);

export type MatchDto = z.infer<typeof match>;
export type BookingChoice = z.infer<typeof createEntryFromBankBody>;
export type TransferInput = z.infer<typeof transferBody>;
export type UnmatchedItemDto = z.infer<typeof unmatchedItem>;

/**
 * What closes a first reconciliation's gap: an entry of two lines, one on the reconciled account
 * (`amount`, signed as its balance: positive raises it) and its other side on `offset_account_id`;
 * the account's line is booked cleared, since the bank already shows that money.
 */
const differenceEntryFields = {
  entry_date: isoDate,
  amount: signedAmountString,
  offset_account_id: resourceId,
  memo: limitedText(TEXT_LIMITS.memo).optional(),
};
/** The opening balance: `offset_account_id` is an EQUITY account (Opening balances), dated before the account's first line. */
export const openingBalanceBody = z.strictObject(differenceEntryFields);
/** An adjustment for the difference: `offset_account_id` is any other active account the user picks. */
export const adjustmentBody = z.strictObject(differenceEntryFields);
