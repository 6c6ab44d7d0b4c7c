import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  descriptionWords,
  normaliseDescription,
  payeeKey,
  payeeTokens,
  prepareDescription,
  scoreDescription,
  scoreDescriptionPrepared,
  significantTokens,
  tokens,
} from './description.ts';

describe('normaliseDescription', () => {
  it('when text has case, punctuation and runs of spaces, then lower case words separated by single spaces', () => {
    expect(normaliseDescription('  AMAZON.COM*Mktp   US--Seattle!! ')).toBe('amazon com mktp us seattle');
  });

  it('when text has accents or special letters, then they are folded', () => {
    expect(normaliseDescription('Café Müller Straße Øresund Łódź ÆON İstanbul')).toBe(
      'cafe muller strasse oresund lodz aeon istanbul',
    );
  });

  it('when text has full-width or compatibility characters, then NFKC folds them', () => {
    expect(normaliseDescription('ＡＭＡＺＯＮ　１２３')).toBe('amazon 123');
    expect(normaliseDescription('ﬁnance')).toBe('finance');
  });

  it('when text is composed or decomposed Unicode, then both normalise alike', () => {
    expect(normaliseDescription('Cafe\u0301')).toBe(normaliseDescription('Caf\u00e9'));
  });

  it('when text is only punctuation or spaces, then empty', () => {
    expect(normaliseDescription('  *** -- // ')).toBe('');
  });

  it('when text is in a non-Latin script, then its letters are kept', () => {
    expect(normaliseDescription('Покупка: МАГАЗИН')).toBe('покупка магазин');
    expect(normaliseDescription('超市 购物')).toBe('超市 购物');
  });
});

describe('tokens', () => {
  it('when a description has noise words and long numbers, then significant tokens drop them', () => {
    expect(tokens('CARD PAYMENT TESCO 3021 12345678')).toEqual(['card', 'payment', 'tesco', '3021', '12345678']);
    expect(significantTokens('CARD PAYMENT TESCO 3021 12345678')).toEqual(['tesco', '3021']);
    expect(significantTokens('SEPA-Lastschrift POS Visa Purchase DEBIT ref Mastercard ACME')).toEqual(['acme']);
  });

  it('when pure numbers are shorter than 6 digits, then they are significant, and mixed tokens always are', () => {
    expect(significantTokens('Invoice 12345 AB123456')).toEqual(['invoice', '12345', 'ab123456']);
  });

  it('when a payee key is made, then noise words and every pure number are dropped, order kept, duplicates removed', () => {
    expect(payeeTokens('CARD PAYMENT TESCO STORES 3021 12/03 tesco')).toEqual(['tesco', 'stores']);
    expect(payeeKey('CARD PAYMENT TESCO STORES 3021 12/03')).toBe('tesco stores');
    expect(payeeKey('Tesco Stores 4410 - 01/04')).toBe('tesco stores');
    expect(payeeKey('POS 123456 01/02')).toBe('');
  });

  it('when a description carries ACH field names and masked card or reference codes, then the payee key leaves them out', () => {
    expect(payeeKey('CHASE CREDIT CRD AUTOPAY PPD ID: 4760039224')).toBe('chase credit crd autopay');
    expect(payeeKey('AMAZON MKTP XXXX1234 WEB ID 99 REF AB12345')).toBe('amazon mktp');
    expect(payeeKey('ACME CORP DES:PAYROLL ID:XXXXX7788 INDN:ADA LOVELACE CO ID:XXXXX12345 PPD')).toBe(
      'acme corp payroll ada lovelace co',
    );
    // a name with a digit or two stays a name
    expect(payeeKey('7ELEVEN 2231 O2 UK')).toBe('7eleven o2 uk');
  });

  it('when a bank line carries a network code, glued store numbers, the channel, a clock time and the card, then the payee words are the merchant’s and its town’s', () => {
    expect(
      payeeTokens('D5438 TARGET 00027599 SAN LUIS OBIS CA 25 : Mobile Purchase Sign Based 12/09 01:12p #7458'),
    ).toEqual(['target', 'san', 'luis', 'obis', 'ca']);
    expect(payeeTokens('TARGET00027599')).toEqual(['target']);
    expect(payeeTokens('GRUBHUB*GRANDMASKITCHEN8888275055')).toEqual(['grubhub', 'grandmaskitchen']);
    expect(payeeTokens('Audible*LA4YL3GP3 8882835051 NJ 25343')).toEqual(['audible', 'nj']);
    expect(payeeTokens('THE HOME DEPOT #1052 SAN LUIS OBISCAUS05152 : Debit PIN Purchase')).toEqual([
      'the',
      'home',
      'depot',
      'san',
      'luis',
      'obiscaus',
    ]);
    expect(payeeTokens('REINDEERRUN SAN DIEGO CA 25340 : Debit Card Purchase 12/05 10:41 PM #7458')).toEqual([
      'reindeerrun',
      'san',
      'diego',
      'ca',
    ]);
    expect(payeeTokens('POS PURCHASE XXXX1234 12/03')).toEqual([]);
  });

  it('when a processor prints its name before the merchant’s, then the merchant’s words are the payee’s', () => {
    expect(payeeTokens("SQ *LUCY'S COFFEE CO.")).toEqual(['lucy', 'coffee', 'co']);
    expect(payeeTokens('TST* SEEDS')).toEqual(['seeds']);
    expect(payeeTokens('PAYPAL *SPOTIFY')).toEqual(['spotify']);
    // alone, the processor is the payee
    expect(payeeTokens('PAYPAL')).toEqual(['paypal']);
  });

  it('when a description is in a script without spaces, then its words are kept whole, digits after them dropped', () => {
    expect(payeeTokens('ATM取现 上海1234')).toEqual(['atm取现', '上海']);
    expect(payeeTokens('财付通-微信支付-瑞幸咖啡')).toEqual(['财付通', '微信支付', '瑞幸咖啡']);
    expect(descriptionWords('消费 POS 盒马鲜生')).toEqual(['消费', 'pos', '盒马鲜生']);
  });
});

describe('scoreDescription', () => {
  it('when texts are equal after normalising case, punctuation, spaces and accents, then 100', () => {
    expect(scoreDescription('Tesco Stores, London', 'TESCO   stores london')).toBe(100);
    expect(scoreDescription('Café Müller', 'cafe muller')).toBe(100);
    expect(scoreDescription('AMAZON.COM*AB12', 'amazon com ab12')).toBe(100);
    expect(scoreDescription('Rent — May', 'rent may')).toBe(100);
  });

  it('when texts differ only in noise words and reference numbers, then 100', () => {
    expect(scoreDescription('CARD PAYMENT TESCO 12345678', 'Tesco')).toBe(100);
    expect(scoreDescription('SEPA-LASTSCHRIFT Stadtwerke 9876543210', 'stadtwerke')).toBe(100);
  });

  it('when texts share nothing, then 0', () => {
    expect(scoreDescription('Netflix', 'xyz')).toBe(0);
    expect(scoreDescription('Netflix.com', 'Spotify')).toBe(0);
  });

  it('when the memo is empty or null, then 0', () => {
    expect(scoreDescription('Tesco', null)).toBe(0);
    expect(scoreDescription('Tesco', '')).toBe(0);
    expect(scoreDescription('Tesco', ' -- ')).toBe(0);
    expect(scoreDescription('', '')).toBe(0);
    expect(scoreDescription('', null)).toBe(0);
  });

  it('when texts share some words, then a score strictly between 0 and 100, the same both ways', () => {
    const pairs: [string, string][] = [
      ['Rent March', 'Rent April'],
      ['AMAZON MKTPLACE PMTS 123456789', 'Amazon order'],
      ['Shell petrol station', 'SHELL'],
      ['Acme Widgets Ltd invoice 42', 'Invoice 42 Acme'],
    ];
    for (const [a, b] of pairs) {
      const s = scoreDescription(a, b);
      expect(s, `${a} / ${b}`).toBeGreaterThan(0);
      expect(s, `${a} / ${b}`).toBeLessThan(100);
      expect(scoreDescription(b, a)).toBe(s);
    }
  });

  it('when texts share no word but similar spellings, then a low positive score', () => {
    const s = scoreDescription('Starbucks', 'Starbuck');
    expect(s).toBeGreaterThan(0);
    expect(s).toBeLessThan(50);
  });

  it('when more words are shared, then the score is higher', () => {
    const memo = 'acme widgets london';
    const one = scoreDescription('acme gadgets paris', memo);
    const two = scoreDescription('acme widgets paris', memo);
    const three = scoreDescription('acme widgets london ltd', memo);
    expect(one).toBeLessThan(two);
    expect(two).toBeLessThan(three);
    expect(three).toBeLessThan(100);
  });

  it('when a side has only noise words, then all words are compared instead', () => {
    expect(scoreDescription('CARD PAYMENT', 'card payment 12345678')).toBeGreaterThan(0);
    expect(scoreDescription('CARD PAYMENT', 'card payment 12345678')).toBeLessThan(100);
    expect(scoreDescription('POS', 'Tesco')).toBe(0);
  });

  it('when prepared once, then scoring prepared forms gives the same result as raw text', () => {
    const a = 'CARD PAYMENT Café Müller 123456';
    const b = 'Cafe Mueller lunch';
    expect(scoreDescriptionPrepared(prepareDescription(a), prepareDescription(b))).toBe(scoreDescription(a, b));
    expect(prepareDescription(null).normalised).toBe('');
  });

  const text = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc
      .array(
        fc.constantFrom(
          'Tesco',
          'STORES',
          'card',
          'payment',
          '123456789',
          '42',
          'Café',
          'cafe',
          'é',
          '--',
          ' ',
          'Ünïcode',
          'ß',
          'ss',
          '.',
        ),
        { maxLength: 8 },
      )
      .map((w) => w.join(' ')),
  );

  it('when any two texts are compared, then an integer 0..100, symmetric and deterministic', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const s = scoreDescription(a, b);
        expect(Number.isInteger(s)).toBe(true);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(100);
        expect(scoreDescription(b, a)).toBe(s);
        expect(scoreDescription(a, b)).toBe(s);
      }),
    );
  });

  it('when a text is compared with itself or a re-cased copy, then 100 unless it normalises to empty', () => {
    fc.assert(
      fc.property(text, (a) => {
        const expected = normaliseDescription(a) === '' ? 0 : 100;
        expect(scoreDescription(a, a)).toBe(expected);
        const shouted = `  ${a.toUpperCase()}!`;
        // (upper-casing can change some letters' normal form, e.g. 'ǅ'; only compare when it does not)
        if (normaliseDescription(shouted) === normaliseDescription(a))
          expect(scoreDescription(a, shouted)).toBe(expected);
      }),
    );
  });
});
