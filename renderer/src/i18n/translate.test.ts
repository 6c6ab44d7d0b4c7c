import { describe, expect, it } from 'vitest';
import type { Language } from './keys.ts';
import { messageKeys, translate } from './translate.ts';

const LANGUAGES: Language[] = ['en', 'zh'];

function marks(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
}

describe('translate', () => {
  it('when a text is read by its dotted path, then the text of that language comes back, however deep its group', () => {
    expect(translate('en', 'loading')).toBe('Loading…');
    expect(translate('zh', 'nav.journal')).toBe('日记账');
    expect(translate('en', 'backup.reason.pre-restore')).toBe('Before a restore');
    expect(translate('zh', 'editor.problem.zero')).toBe('金额必须大于零');
  });

  it('when values are given, then each {name} is replaced and a name with no value stays as written', () => {
    expect(translate('en', 'pager.position', { page: 2, pages: 5, total: 93 })).toBe('Page 2 of 5 (93 in all)');
    expect(translate('zh', 'pager.position', { page: 2, pages: 5, total: 93 })).toBe('第 2 / 5 页（共 93 条）');
    expect(translate('en', 'accounts.renameLabel', { other: 'x' })).toBe('Rename {name}');
  });

  it('when the languages are compared, then each has the same texts and every text puts in the same values', () => {
    const english = messageKeys('en').sort();
    for (const language of LANGUAGES) {
      expect(messageKeys(language).sort()).toEqual(english);
      const differing = english.filter(
        (key) => marks(translate(language, key)).join() !== marks(translate('en', key)).join(),
      );
      expect(differing, `texts of ${language} whose {marks} differ from English`).toEqual([]);
    }
  });
});
