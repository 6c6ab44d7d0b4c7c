import { describe, expect, it } from 'vitest';
import { translate } from './i18n/translate.ts';
import { waitInWords } from './wait-in-words.ts';

const en = (seconds: number) => waitInWords(seconds, (key, values) => translate('en', key, values));
const zh = (seconds: number) => waitInWords(seconds, (key, values) => translate('zh', key, values));

describe('a wait in words', () => {
  it('when a lock-out has seconds, minutes or hours left, then it reads in its largest unit, rounded up', () => {
    expect([1, 40, 59, 60, 61, 900, 3599, 3600, 3601].map(en)).toEqual([
      '1 second',
      '40 seconds',
      '59 seconds',
      '1 minute',
      '2 minutes',
      '15 minutes',
      '60 minutes',
      '1 hour',
      '2 hours',
    ]);
  });

  it('when the language is Chinese, then the unit is Chinese too', () => {
    expect([30, 900, 7200].map(zh)).toEqual(['30 秒', '15 分钟', '2 小时']);
  });
});
