import { descriptionWords, payeeTokensOf } from './description.ts';

/**
 * How the payee model reads a bank line (its payee words, words, character n-grams, direction and
 * amount's magnitude, each with its weight), and the weighted counts it keeps of them.
 */

export interface PayeeContext {
  /** the bank line's direction: debit is money out */
  readonly type?: 'debit' | 'credit' | undefined;
  /** the bank line's amount in minor units (its magnitude is used) */
  readonly amountMinor?: bigint | undefined;
}

/** The classifier's additive smoothing α. */
export const SMOOTHING = 0.1;
const NGRAM_WEIGHT = 6;
const DIRECTION_WEIGHT = 2;
const AMOUNT_WEIGHT = 1;
/** Characters of a description the n-grams are read from (bank descriptions are at most 1,000). */
const NGRAM_TEXT_LIMIT = 200;

/** Weighted counts of one feature or word: in all, and per account index. */
export interface Counts {
  total: number;
  readonly byAccount: Map<number, number>;
}

/** One account's weighted count of a feature, and its term of the classifier's sum, log(1 + count / α) (a prediction only adds). */
interface Cell {
  count: number;
  term: number;
}

/** A feature's cells by account index. */
export type FeatureCounts = Map<number, Cell>;

export function bump<K>(map: Map<K, number>, key: K, by: number): void {
  const next = (map.get(key) ?? 0) + by;
  if (next <= 1e-9) map.delete(key);
  else map.set(key, next);
}

export function bumpCounts(map: Map<string, Counts>, key: string, account: number, by: number): void {
  let c = map.get(key);
  if (!c) map.set(key, (c = { total: 0, byAccount: new Map() }));
  c.total += by;
  bump(c.byAccount, account, by);
  if (c.total <= 1e-9) map.delete(key);
}

export function bumpFeature(map: Map<Feature, FeatureCounts>, key: Feature, account: number, by: number): void {
  let cells = map.get(key);
  if (!cells) map.set(key, (cells = new Map()));
  let cell = cells.get(account);
  if (!cell) cells.set(account, (cell = { count: 0, term: 0 }));
  cell.count += by;
  if (cell.count <= 1e-9) {
    cells.delete(account);
    if (cells.size === 0) map.delete(key);
  } else cell.term = Math.log1p(cell.count / SMOOTHING);
}

export function bumpKey(keys: Map<string, Map<string, number>>, key: string, typeAndAccount: string, by: number): void {
  let counts = keys.get(key);
  if (!counts) keys.set(key, (counts = new Map()));
  bump(counts, typeAndAccount, by);
  if (counts.size === 0) keys.delete(key);
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * Character n-grams of the payee words as numbers (no strings to make): 3-grams of words in Latin
 * letters (three UTF-16 units), 2-grams of words in scripts written without spaces (offset by 2^48).
 */
function ngrams(words: readonly string[]): number[] {
  const out = new Set<number>();
  let length = 0;
  for (const w of words) {
    if ((length += w.length) > NGRAM_TEXT_LIMIT) break;
    const units = [32];
    for (let i = 0; i < w.length; i++) units.push(w.charCodeAt(i));
    units.push(32);
    if (ASCII.test(w))
      for (let i = 0; i + 3 <= units.length; i++) out.add((units[i]! * 65536 + units[i + 1]!) * 65536 + units[i + 2]!);
    else for (let i = 0; i + 2 <= units.length; i++) out.add(2 ** 48 + units[i]! * 65536 + units[i + 1]!);
  }
  return [...out];
}

/** The amount's order of magnitude: its bit length (no float near money). */
export function amountBucket(amountMinor: bigint): number {
  const m = amountMinor < 0n ? -amountMinor : amountMinor;
  return m.toString(2).length;
}

/** A feature: a word, the direction or the amount's magnitude by name; an n-gram by its number. */
export type Feature = string | number;

export interface Prepared {
  /** payee words: the key is made from them */
  readonly payee: readonly string[];
  /** every word the classifier reads */
  readonly words: readonly string[];
  /** the words and n-grams first (`textFeatures` of them), then the direction and the amount */
  readonly features: readonly Feature[];
  readonly textFeatures: number;
  /** each feature's weight */
  readonly weights: readonly number[];
}

export function prepare(description: string, context: PayeeContext): Prepared {
  const words = descriptionWords(description);
  const payee = payeeTokensOf(words);
  const features: Feature[] = [];
  const weights: number[] = [];
  for (const w of words) (features.push(`w:${w}`), weights.push(1));
  const grams = ngrams(payee);
  for (const g of grams) (features.push(g), weights.push(NGRAM_WEIGHT / grams.length));
  const textFeatures = features.length;
  if (context.type) (features.push(`d:${context.type}`), weights.push(DIRECTION_WEIGHT));
  if (context.amountMinor !== undefined)
    (features.push(`a:${amountBucket(context.amountMinor)}`), weights.push(AMOUNT_WEIGHT));
  return { payee, words, features, textFeatures, weights };
}
