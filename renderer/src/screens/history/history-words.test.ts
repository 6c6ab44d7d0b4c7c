import { describe, expect, it } from 'vitest';
import { translate } from '../../i18n/translate.ts';
import { changeInWords } from './history-words.ts';

describe('changeInWords', () => {
  it('when a change of a known kind is read, then its kind and action are in the interface language and its label as it came', () => {
    const item = {
      kind: 'journal_entries',
      action: 'posted',
      label: '2026-01-05 · Corner market · 40.00 USD',
    } as const;
    expect(changeInWords(item, (key, values) => translate('en', key, values))).toBe(
      'Entry posted: 2026-01-05 · Corner market · 40.00 USD',
    );
    expect(changeInWords(item, (key, values) => translate('zh', key, values))).toBe(
      '分录已过账：2026-01-05 · Corner market · 40.00 USD',
    );
  });

  it('when a reconciliation or a bank line from another device is read, then its kind is in the interface language', () => {
    const item = { kind: 'bank_reconciliations', action: 'created', label: '2026-03-31' } as const;
    expect(changeInWords(item, (key, values) => translate('en', key, values))).toBe(
      'Reconciliation created: 2026-03-31',
    );
    expect(changeInWords(item, (key, values) => translate('zh', key, values))).toBe('银行对账已创建：2026-03-31');
    const line = { kind: 'bank_transactions', action: 'created', label: '2026-03-02 · BISTRO 77' } as const;
    expect(changeInWords(line, (key, values) => translate('en', key, values))).toBe(
      'Bank line created: 2026-03-02 · BISTRO 77',
    );
  });

  it('when a change names a kind this app has no words for, then the kind is shown as it came', () => {
    const item = { kind: 'chat_sessions', action: 'deleted', label: 'Budget talk' } as const;
    expect(changeInWords(item, (key, values) => translate('en', key, values))).toBe(
      'chat_sessions deleted: Budget talk',
    );
  });
});
