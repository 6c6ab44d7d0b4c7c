import { defaultStatementName, tradingAccountCurrency } from '../../server/contract/names.ts';
import type { Translate } from './i18n/index.ts';

/**
 * An account's name as the interface shows it: a currency's trading account, still named as the
 * server made it ("Currency trading CNY"), in the interface language; any other name as it is.
 */
export function accountLabel(name: string, t: Translate): string {
  const currency = tradingAccountCurrency(name);
  return currency ? t('names.tradingAccount', { currency }) : name;
}

/** A statement's name: the one the server gave an unnamed import, in the interface language; a given name as it is. */
export function statementLabel(
  statement: { name: string; source: string; start_date: string | null },
  t: Translate,
): string {
  if (statement.name !== defaultStatementName(statement.source, statement.start_date)) return statement.name;
  const date = statement.start_date ?? '';
  return (
    statement.source === 'json'
      ? t('names.statement', { date })
      : t('names.import', { format: statement.source.toUpperCase(), date })
  ).trim();
}
