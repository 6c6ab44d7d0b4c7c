import { z } from 'zod';
import { RULE_DESCRIPTION_OPS } from '../domain/reconciliation/rule-draft.ts';
import { PERCENT_PATTERN } from '../domain/splits.ts';
import { BANK_TYPES } from './statements.ts';
import {
  amountString,
  givenFields,
  isoDateTime,
  limitedText,
  nameText,
  oneOfFields,
  pageOf,
  pagination,
  resourceId,
} from './common.ts';
import { TEXT_LIMITS } from './limits.ts';

export { RULE_DESCRIPTION_OPS };

/** Rules a ledger may hold: every suggestion and import tests each of them. */
export const MAX_RULES = 1000;

const bound = amountString.max(30).nullable().default(null);

/** A rule's conditions: it has at least one. */
const RULE_CONDITIONS = ['description', 'type', 'amount_min', 'amount_max'];

/** How many parts a rule may split a line into before its own account takes the rest. */
export const MAX_RULE_SPLITS = 19;

/** A percentage above 0 and below 100 with at most 4 decimals ("12.5"). */
export const percentString = z
  .string()
  .regex(PERCENT_PATTERN, 'must be a percentage above 0 and below 100 with at most 4 decimals, such as "12.5"')
  .refine((p) => /[1-9]/.test(p), 'must be above 0')
  .meta({ example: '12.5' });

/** A part a rule books to an account first: a fixed `amount` or a `percent` of the line (exactly one). */
export const ruleSplit = oneOfFields(
  z.strictObject({
    account_id: resourceId,
    amount: amountString.max(30).nullable().default(null),
    percent: percentString.nullable().default(null),
  }),
  'exactly',
  ['amount', 'percent'],
  'give exactly one of amount and percent',
);

/**
 * A rule as created or replaced (PUT takes the whole rule). It has at least one condition, which the
 * domain checks of every rule, whatever its source (server/domain/reconciliation/rules.ts): the
 * document states it here.
 */
export const ruleBody = z
  .strictObject({
    name: nameText(TEXT_LIMITS.ruleName),
    description: z
      .strictObject({ op: z.enum(RULE_DESCRIPTION_OPS), value: limitedText(TEXT_LIMITS.rulePattern).min(1) })
      .nullable()
      .default(null),
    type: z.enum(BANK_TYPES).nullable().default(null),
    amount_min: bound,
    amount_max: bound,
    account_id: resourceId,
    memo: nameText(TEXT_LIMITS.memo).nullable().default(null),
    priority: z.number().int().min(-1_000_000).max(1_000_000).default(0),
    /**
     * Parts booked to other accounts first, in order (a percentage is rounded half to even to the
     * line's currency); `account_id` takes the rest, so the parts always sum to the line exactly.
     */
    splits: z.array(ruleSplit).max(MAX_RULE_SPLITS).default([]),
  })
  .meta(givenFields('atLeast', RULE_CONDITIONS));

export const rule = z
  .object({
    id: resourceId,
    name: z.string(),
    description: z.object({ op: z.enum(RULE_DESCRIPTION_OPS), value: z.string() }).nullable(),
    type: z.enum(BANK_TYPES).nullable(),
    amount_min: z.string().nullable(),
    amount_max: z.string().nullable(),
    account_id: resourceId,
    memo: z.string().nullable(),
    priority: z.number().int(),
    splits: z.array(
      z.object({ account_id: resourceId, amount: z.string().nullable(), percent: z.string().nullable() }),
    ),
    created_at: isoDateTime,
  })
  .meta({ id: 'Rule', description: 'Books a bank line against an account when all its conditions hold' });

export const listRulesQuery = z.strictObject({ ...pagination });
export const rulePage = pageOf(rule);

export type RuleInput = z.infer<typeof ruleBody>;
export type RuleDto = z.infer<typeof rule>;
