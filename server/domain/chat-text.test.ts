import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectLanguage, maskSecrets, StreamMasker } from './chat-text.ts';

describe('chat text', () => {
  it('when a message has CJK characters, then it is Chinese', () => {
    expect(detectLanguage('我上个月在食品上花了多少钱？')).toBe('zh');
    expect(detectLanguage('What did I spend on groceries?')).toBe('en');
    expect(detectLanguage('Spent 100 元 at the store')).toBe('zh');
  });

  it('when text carries a card number, then only its last four digits remain', () => {
    expect(maskSecrets('card 4111 1111 1111 1234 was used')).toBe('card ••••1234 was used');
    expect(maskSecrets('iban digits 123456789012345678')).toBe('iban digits ••••5678');
    expect(maskSecrets('4111-1111-1111-1234')).toBe('••••1234');
    expect(maskSecrets('you spent 1234.56 in 2026 on 12 items')).toBe('you spent 1234.56 in 2026 on 12 items');
  });

  it('when a card number is split across stream chunks anywhere, then the joined output equals masking the whole text', () => {
    const text = 'Paid with 4111 1111 1111 1234 and 5500-0000-0000-0004 today, total 1,234.50 USD.';
    fc.assert(
      fc.property(fc.array(fc.nat(text.length), { maxLength: 8 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const masker = new StreamMasker();
        let out = '';
        let last = 0;
        for (const p of [...points, text.length]) {
          out += masker.push(text.slice(last, p));
          last = p;
        }
        out += masker.flush();
        expect(out).toBe(maskSecrets(text));
        expect(out).not.toMatch(/4111/);
      }),
    );
  });
});
