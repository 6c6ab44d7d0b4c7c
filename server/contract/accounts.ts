import { z } from 'zod';
import { ACCOUNT_TYPES } from '../domain/double-entry.ts';
import { missingRate } from './prices.ts';
import {
  currencyCode,
  isoDate,
  isoDateTime,
  limitedText,
  nameText,
  pageOf,
  pagination,
  queryBool,
  resourceId,
  uuid,
} from './common.ts';
import { TEXT_LIMITS } from './limits.ts';

/**
 * Accounts a ledger may hold (trading accounts, one per currency, aside): far more than a household's
 * books need, few enough that every tree, balance sheet and plan of an import stays small.
 */
export const MAX_ACCOUNTS = 10_000;

export const accountType = z.enum(ACCOUNT_TYPES);

export const createAccountBody = z.strictObject({
  name: nameText(TEXT_LIMITS.accountName),
  // checked by the service, so that an unknown type answers INVALID_TYPE as the spec says
  type: z.string().meta({ enum: [...ACCOUNT_TYPES] }),
  currency: currencyCode.optional(),
  description: limitedText(TEXT_LIMITS.accountDescription).nullable().optional(),
  parent_id: uuid.nullable().optional(),
});

export const updateAccountBody = z.strictObject({
  name: nameText(TEXT_LIMITS.accountName).optional(),
  description: limitedText(TEXT_LIMITS.accountDescription).nullable().optional(),
  is_active: z.boolean().optional(),
  parent_id: uuid.nullable().optional(),
  // present only so that the answer says why: the type and currency of an account never change
  type: z.never({ error: 'the account type cannot be changed' }).optional(),
  currency: z.never({ error: 'the account currency cannot be changed' }).optional(),
});

export const listAccountsQuery = z.strictObject({
  type: accountType.optional(),
  is_active: queryBool.optional(),
  parent_id: uuid.optional(),
  ...pagination,
});

export const asOfQuery = z.strictObject({ as_of: isoDate.optional() });
export const balancesQuery = z.strictObject({ as_of: isoDate.optional(), convert_to: currencyCode.optional() });

export const account = z
  .object({
    id: resourceId,
    name: z.string(),
    type: accountType,
    currency: z.string(),
    description: z.string().nullable(),
    is_active: z.boolean(),
    parent_id: resourceId.nullable(),
    created_at: isoDateTime,
    updated_at: isoDateTime,
  })
  .meta({ id: 'Account' });

export const accountPage = pageOf(account);

export const accountBalance = z
  .object({ account_id: resourceId, balance: z.string(), currency: z.string(), as_of: isoDate })
  .meta({ id: 'AccountBalance' });

export const allBalances = z.object({
  balances: z.array(
    z.object({
      account_id: resourceId,
      name: z.string(),
      type: accountType,
      balance: z.string(),
      currency: z.string(),
      parent_id: resourceId.nullable(),
      is_active: z.boolean(),
      /** with convert_to: the balance in that currency at as_of, null when its rate is missing */
      converted_balance: z.string().nullable().optional(),
    }),
  ),
  as_of: isoDate,
  missing_rates: z.array(missingRate).optional(),
});

export type AccountDto = z.infer<typeof account>;
export type CreateAccountInput = z.infer<typeof createAccountBody>;
export type UpdateAccountInput = z.infer<typeof updateAccountBody>;
export type ListAccountsQuery = z.infer<typeof listAccountsQuery>;
