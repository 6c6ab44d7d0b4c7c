/**
 * What a search of the journal asks (CONTRACT §15): words in any order, and exact amounts.
 * Pure: it turns the user's text into SQLite FTS5 phrases, one per word, for the indexes of the
 * entries' text and of the account paths (migrations register_and_search and
 * search_bank_and_accounts index them with the unicode61 tokenizer, each Chinese or Japanese
 * character a word of its own), and the amounts to look up among the lines.
 */

/** The most words a search takes: each is one more index lookup. */
export const MAX_SEARCH_TERMS = 12;
export const MAX_SEARCH_LENGTH = 200;

/** Characters written without spaces between words (CJK ideographs, kana), as the index spaces them. */
const SPACED = /([\u2e80-\u9fff\uf900-\ufaff\u3040-\u30ff])/g;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;
/** An amount as people write it: 82.50, 1,234.56, -82.50 (lines have no sign, so a sign is dropped). */
const AMOUNT = /^[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/;

export interface SearchQuery {
  /** the words, each a phrase (a prefix for a last Latin word of 2 characters or more), all required */
  words: string[];
  /** amounts: each matches an entry with a line of that amount, or with the number in its text */
  amounts: { amount: string; memoPhrase: string }[];
}

/** Each ideograph and kana a word of its own, as the index has them. */
export function spaceCjk(text: string): string {
  return text.replace(SPACED, ' $1 ');
}

function phrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** One word of the search as an FTS5 phrase, or null when it holds no letter or digit. */
function wordPhrase(term: string): string | null {
  if (!WORD_CHARACTER.test(term)) return null;
  const spaced = spaceCjk(term).trim();
  const last = /[\p{L}\p{N}]+$/u.exec(spaced)?.[0] ?? '';
  const prefix = last.length >= 2 && !SPACED.test(last.slice(-1));
  SPACED.lastIndex = 0;
  return prefix ? `${phrase(spaced)}*` : phrase(spaced);
}

/**
 * The search's words and amounts; null when the text holds nothing to search for (only spaces or
 * punctuation). At most MAX_SEARCH_TERMS terms are read.
 */
export function parseSearch(text: string): SearchQuery | null {
  const terms = text.trim().split(/\s+/).filter(Boolean).slice(0, MAX_SEARCH_TERMS);
  const words: string[] = [];
  const amounts: SearchQuery['amounts'] = [];
  for (const term of terms) {
    if (AMOUNT.test(term)) {
      const amount = term.replace(/^[-+]/, '').replace(/,/g, '');
      amounts.push({ amount, memoPhrase: phrase(amount) });
      continue;
    }
    const p = wordPhrase(term);
    if (p !== null) words.push(p);
  }
  if (words.length === 0 && amounts.length === 0) return null;
  return { words, amounts };
}
