import { z } from 'zod';
import { accountType } from './accounts.ts';
import { isNegativeDecimal, isoMonth, isoYear, resourceId, uuid } from './common.ts';
import { FIELD_MESSAGES } from './limits.ts';

export const MAX_BUDGET_LINES = 1000;

export const month = isoMonth;

export const monthParams = z.strictObject({ month });

/** A budget amount: a decimal string ≥ 0 ("0" budgets nothing for the account, on purpose). */
const budgetAmount = z
  .string()
  .refine((v) => !isNegativeDecimal(v), { message: FIELD_MESSAGES.negative, abort: true })
  .regex(/^\d+(\.\d+)?$/, FIELD_MESSAGES.budgetAmount)
  .meta({ example: '300.00' });

export const putBudgetBody = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        account_id: uuid,
        amount: budgetAmount,
        /** carry what is left (or overspent) at the month's end into the next month's line */
        carry_over: z.boolean().optional(),
      }),
    )
    .max(MAX_BUDGET_LINES),
});

export const FILL_SOURCES = ['previous_month', 'average_actuals'] as const;
export const fillBudgetBody = z.strictObject({ from: z.enum(FILL_SOURCES) });

export const budgetLine = z
  .object({
    account_id: resourceId,
    name: z.string(),
    type: accountType,
    currency: z.string(),
    parent_id: resourceId.nullable(),
    budgeted: z.string(),
    /** posted activity of the month in the account's normal direction, sub-accounts of its currency included */
    actual: z.string(),
    /** budgeted − actual */
    remaining: z.string(),
    carry_over: z.boolean(),
    /** what the months before carried in (0 unless the month before had carry-over) */
    carried_in: z.string(),
    /** budgeted + carried_in − actual: what is left to spend (or to receive, for INCOME) */
    available: z.string(),
  })
  .meta({ id: 'BudgetLine' });

export const budgetTotals = z.object({
  currency: z.string(),
  type: z.enum(['EXPENSE', 'INCOME']),
  budgeted: z.string(),
  actual: z.string(),
  remaining: z.string(),
  available: z.string(),
});

export const budget = z
  .object({
    month,
    lines: z.array(budgetLine),
    /** per currency and type; a line whose ancestor is budgeted too counts once, in the ancestor */
    totals: z.array(budgetTotals),
  })
  .meta({ id: 'Budget' });

export const budgetReportQuery = z
  .strictObject({
    month: month.optional(),
    year: isoYear.optional().describe('The twelve months of a year instead of one month: give month or year, not both'),
  })
  .refine((q) => !(q.month && q.year), { message: 'give month or year, not both', path: ['year'] });

const monthFigures = { budgeted: z.string(), actual: z.string(), remaining: z.string() };

export const budgetReport = z.object({
  start_month: month,
  end_month: month,
  rows: z.array(
    z.object({
      account_id: resourceId,
      name: z.string(),
      type: accountType,
      currency: z.string(),
      ...monthFigures,
      months: z.array(z.object({ month, ...monthFigures })),
    }),
  ),
  totals: z.array(z.object({ currency: z.string(), type: z.enum(['EXPENSE', 'INCOME']), ...monthFigures })),
});

export type PutBudgetInput = z.infer<typeof putBudgetBody>;
export type BudgetDto = z.infer<typeof budget>;
export type BudgetLineDto = z.infer<typeof budgetLine>;
export type BudgetReportDto = z.infer<typeof budgetReport>;
export type FillSource = (typeof FILL_SOURCES)[number];
