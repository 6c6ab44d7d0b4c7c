import { describe, expect, it } from 'vitest';
import { CURRENCY_CODES, currencyName, localeCurrency } from './currencies.ts';

describe('currencies in the renderer', () => {
  it('when the home currency is chosen, then every ISO 4217 code is offered, not a short list', () => {
    expect(CURRENCY_CODES.length).toBeGreaterThan(150);
    for (const code of ['CNY', 'USD', 'EUR', 'GBP', 'JPY', 'KWD', 'CHF', 'ZAR']) expect(CURRENCY_CODES).toContain(code);
    expect([...CURRENCY_CODES].sort()).toEqual(CURRENCY_CODES);
  });

  it('when a browser locale is known, then the home currency defaults to its country’s', () => {
    expect(localeCurrency('zh-CN')).toBe('CNY');
    expect(localeCurrency('zh')).toBe('CNY');
    expect(localeCurrency('zh-TW')).toBe('TWD');
    expect(localeCurrency('en-GB')).toBe('GBP');
    expect(localeCurrency('en-US')).toBe('USD');
    expect(localeCurrency('de-DE')).toBe('EUR');
    expect(localeCurrency('ja')).toBe('JPY');
  });

  it('when a locale names no country with a currency, then the default is USD', () => {
    expect(localeCurrency('not a locale!')).toBe('USD');
    expect(localeCurrency('en-AQ')).toBe('USD');
  });

  it('when a currency is named, then it is named in the interface language', () => {
    expect(currencyName('CNY', 'zh')).toBe('人民币');
    expect(currencyName('EUR', 'en')).toBe('Euro');
  });
});
