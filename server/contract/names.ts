/**
 * The names the server gives things itself, in English, as the API and the exports show them: a
 * currency's trading account and a statement imported without a name. The interface recognises
 * them (a name still as the server made it) and shows them in the user's language; a name the user
 * gave or changed is shown as it is. No zod here: the renderer imports this module.
 */

/** A currency's trading account, made by the first exchange in that currency: "Currency trading CNY". */
export function tradingAccountName(currency: string): string {
  return `Currency trading ${currency}`;
}

/** The currency of a trading account's name as the server made it ("Currency trading CNY" → CNY), else null. */
export function tradingAccountCurrency(name: string): string | null {
  return /^Currency trading ([A-Z]{3})$/.exec(name)?.[1] ?? null;
}

/**
 * A statement's name when none was given: "OFX import 2023-01-12" for a file (its format and
 * first day), "Statement 2023-01-12" for one posted as JSON.
 */
export function defaultStatementName(source: string, startDate: string | null): string {
  const words = source === 'json' ? 'Statement' : `${source.toUpperCase()} import`;
  return `${words} ${startDate ?? ''}`.trim();
}
