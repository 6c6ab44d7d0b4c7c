import { z } from 'zod';
import { dateRange, inOrder, isoDate, pageOf, pagination, resourceId } from './common.ts';
import { CLEARED_STATES, ENTRY_STATUSES } from './journal.ts';

export const registerQuery = inOrder(z.strictObject({ ...dateRange, ...pagination }));

export const registerLine = z
  .object({
    entry_id: resourceId,
    line_id: resourceId,
    entry_date: isoDate,
    memo: z.string().nullable(),
    /** the entry's other accounts (each once), by name */
    counter_accounts: z.array(z.object({ id: resourceId, name: z.string() })),
    /** signed in the account's normal direction: positive raises its balance */
    amount: z.string(),
    currency: z.string(),
    /** the account's balance just after this line */
    running_balance: z.string(),
    cleared: z.enum(CLEARED_STATES),
    /** posted, or void (a voided entry stays in history; its reversal is a line of its own) */
    status: z.enum(ENTRY_STATUSES),
  })
  .meta({ id: 'RegisterLine' });

export const registerPage = pageOf(registerLine);

export type RegisterQuery = z.infer<typeof registerQuery>;
export type RegisterLineDto = z.infer<typeof registerLine>;
