import { describe, expect, it } from 'vitest';
import { defaultStatementName, tradingAccountName } from '../../server/contract/names.ts';
import { translate } from './i18n/translate.ts';
import type { MessageKey, MessageValues } from './i18n/keys.ts';
import { accountLabel, statementLabel } from './names.ts';

const zh = (key: MessageKey, values?: MessageValues) => translate('zh', key, values);
const en = (key: MessageKey, values?: MessageValues) => translate('en', key, values);

describe('names the server made, in the interface language', () => {
  it('when a trading account still has the name the server gave it, then it is shown in Chinese', () => {
    expect(accountLabel(tradingAccountName('CNY'), zh)).toBe('货币兑换 CNY');
    expect(accountLabel(tradingAccountName('CNY'), en)).toBe('Currency trading CNY');
    expect(accountLabel('Currency trading for fun', zh)).toBe('Currency trading for fun');
    expect(accountLabel('储蓄', zh)).toBe('储蓄');
  });

  it('when a statement has the name the server gave an unnamed import, then it is shown in Chinese; a given name stays', () => {
    const ofx = { name: defaultStatementName('ofx', '2023-01-12'), source: 'ofx', start_date: '2023-01-12' };
    expect(ofx.name).toBe('OFX import 2023-01-12');
    expect(statementLabel(ofx, zh)).toBe('OFX 导入 2023-01-12');
    expect(statementLabel(ofx, en)).toBe('OFX import 2023-01-12');
    const json = { name: defaultStatementName('json', '2023-01-12'), source: 'json', start_date: '2023-01-12' };
    expect(statementLabel(json, zh)).toBe('对账单 2023-01-12');
    expect(statementLabel({ ...ofx, name: 'January' }, zh)).toBe('January');
  });
});
