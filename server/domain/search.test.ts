import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_TERMS, parseSearch, spaceCjk } from './search.ts';

describe('parseSearch', () => {
  it('when words are given, then each becomes a required phrase, a Latin last word of two letters or more a prefix', () => {
    expect(parseSearch('  Market  groceries ')).toEqual({ words: ['"Market"*', '"groceries"*'], amounts: [] });
    expect(parseSearch('a')).toEqual({ words: ['"a"'], amounts: [] });
  });

  it('when a word holds quotes or FTS operators, then they are quoted, never obeyed', () => {
    expect(parseSearch('"rent" OR NEAR(x')).toEqual({ words: ['"""rent"""', '"OR"*', '"NEAR(x"'], amounts: [] });
    expect(parseSearch('memo:* -x')?.words).toEqual(['"memo:*"', '"-x"']);
  });

  it('when Chinese is given, then each character is a word of the phrase, with no prefix', () => {
    expect(parseSearch('超市')).toEqual({ words: ['"超  市"'], amounts: [] });
    expect(spaceCjk('家乐福超市 Market')).toBe(' 家  乐  福  超  市  Market');
    expect(parseSearch('Walmart超市')?.words).toEqual(['"Walmart 超  市"']);
  });

  it('when an amount is given, then it is looked for among the lines and as a number in the text', () => {
    expect(parseSearch('82.50')).toEqual({ words: [], amounts: [{ amount: '82.50', memoPhrase: '"82.50"' }] });
    expect(parseSearch('-1,234.56 rent')).toEqual({
      words: ['"rent"*'],
      amounts: [{ amount: '1234.56', memoPhrase: '"1234.56"' }],
    });
    expect(parseSearch('1,23')?.amounts).toEqual([]);
  });

  it('when nothing searchable is given, then there is no search', () => {
    expect(parseSearch('   ')).toBeNull();
    expect(parseSearch('!!! --- ***')).toBeNull();
  });

  it('when more terms are given than the limit, then only the first are read', () => {
    const many = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    expect(parseSearch(many)!.words).toHaveLength(MAX_SEARCH_TERMS);
  });
});
