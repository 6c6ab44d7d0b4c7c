import { z } from 'zod';
import { currencyCode } from './common.ts';

/**
 * The user's settings, kept in their ledger file. `home_currency`: the currency the dashboard,
 * the reports and the advisor convert into by default; until it is set, the currency most of the
 * user's accounts are in (USD with no accounts).
 */
export const settings = z
  .object({ home_currency: z.string(), home_currency_set: z.boolean() })
  .meta({ id: 'Settings' });

export const updateSettingsBody = z.strictObject({ home_currency: currencyCode });

export type SettingsDto = z.infer<typeof settings>;
export type UpdateSettingsInput = z.infer<typeof updateSettingsBody>;
