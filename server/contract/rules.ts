import { z } from 'zod';
import { RULE_DESCRIPTION_OPS } from '../domain/reconciliation/rule-draft.ts';
import { BANK_TYPES } from './statements.ts';
import { amountString, isoDateTime, limitedText, nameText, pageOf, pagination, resourceId } from './common.ts';
import { TEXT_LIMITS } from './limits.ts';

export { RULE_DESCRIPTION_OPS };

/** Rules a ledger may hold: every suggestion and import tests each of them. */
export const MAX_RULES = 1000;

const bound = amountString.max(30).nullable().default(null);

/** A rule as created or replaced (PUT takes the whole rule). */
export const ruleBody = z.strictObject({
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
});

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
    created_at: isoDateTime,
  })
  .meta({ id: 'Rule', description: 'Books a bank line against an account when all its conditions hold' });

export const listRulesQuery = z.strictObject({ ...pagination });
export const rulePage = pageOf(rule);

export type RuleInput = z.infer<typeof ruleBody>;
export type RuleDto = z.infer<typeof rule>;
