import countryToCurrency from 'country-to-currency';
import { allCurrencyCodes, isKnownCurrency } from '../../server/contract/money.ts';
import type { Language } from './i18n/index.ts';

/** Every ISO 4217 code, for the home currency and the account forms. */
export const CURRENCY_CODES: readonly string[] = allCurrencyCodes();

/** A currency's name in the interface language ("人民币", "Chinese Yuan"), or its code where the browser knows none. */
export function currencyName(code: string, language: Language): string {
  try {
    const names = new Intl.DisplayNames([language === 'zh' ? 'zh-CN' : 'en'], { type: 'currency', fallback: 'code' });
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * The currency of a browser locale's country: zh-CN → CNY, en-GB → GBP, de → EUR (a language alone
 * stands for its most likely country); USD when the locale names no country with a currency.
 */
export function localeCurrency(locale: string): string {
  try {
    const region = new Intl.Locale(locale).maximize().region;
    const currency = region ? (countryToCurrency as Record<string, string | undefined>)[region] : undefined;
    return currency && isKnownCurrency(currency) ? currency : 'USD';
  } catch {
    return 'USD';
  }
}
