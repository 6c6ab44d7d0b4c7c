/**
 * Description similarity between a bank description and an entry memo, and the payee key.
 *
 * Normalising: Unicode NFKC (full-width and compatibility forms fold), lower case, accents
 * folded (NFD, combining marks removed, a few letters without a decomposition mapped: ß→ss,
 * æ→ae, œ→oe, ø→o, đ/ð→d, þ→th, ł→l, ı→i), every run of characters that are neither letters nor
 * digits (punctuation, symbols, spaces) → one space, trimmed, then NFC again.
 *
 * Significant tokens: the normalised words minus the bank noise words in `NOISE_WORDS` and minus
 * pure-digit tokens of 6 or more digits (card, reference and mandate numbers).
 */

/**
 * Words banks add to descriptions that say nothing about the payee; matched after normalising.
 * Card and direct-debit markers (English, German, French), and the US ACH layout's field names
 * ("PPD ID: 1234", "WEB ID", "DES:", "INDN:") that every ACH line carries alike. ("CO", of "CO ID:",
 * stays: it is also the "Co" of a company's name.)
 */
const NOISE_WORDS: ReadonlySet<string> = new Set([
  'card',
  'payment',
  'pos',
  'sepa',
  'lastschrift',
  'purchase',
  'debit',
  'visa',
  'mastercard',
  'ref',
  'checkcard',
  'recurring',
  'pmt',
  'pymt',
  'ach',
  'ppd',
  'ccd',
  'web',
  'tel',
  'id',
  'des',
  'indn',
  'trn',
  'txn',
  'auth',
  'kartenzahlung',
  'folgenr',
  'verfalld',
  'cb',
  'carte',
  'prlv',
]);

/** Pure-digit tokens at least this long are treated as reference numbers and ignored. */
const REFERENCE_NUMBER_MIN_DIGITS = 6;

const LETTER_FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ł: 'l',
  ı: 'i',
};
const LETTER_FOLD_PATTERN = /[ßæœøđðþłı]/g;
const MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/gu;
const ALL_DIGITS = /^\p{Nd}+$/u;
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const ASCII_SEPARATORS = /[^a-z0-9]+/g;

/** The normal form both sides are compared in (see the module comment). */
export function normaliseDescription(s: string): string {
  // Fast path, same result: ASCII is stable under NFKC/NFD/NFC and has no marks or folds.
  if (ASCII_ONLY.test(s)) return s.toLowerCase().replace(ASCII_SEPARATORS, ' ').trim();
  return s
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(MARKS, '')
    .replace(LETTER_FOLD_PATTERN, (c) => LETTER_FOLDS[c] ?? c)
    .replace(SEPARATORS, ' ')
    .trim()
    .normalize('NFC');
}

function wordsOf(normalised: string): string[] {
  return normalised === '' ? [] : normalised.split(' ');
}

function isReferenceNumber(token: string): boolean {
  return token.length >= REFERENCE_NUMBER_MIN_DIGITS && ALL_DIGITS.test(token);
}

/** Normalised words in order (duplicates kept). */
export function tokens(s: string): string[] {
  return wordsOf(normaliseDescription(s));
}

/** Normalised words without noise words and reference numbers, in order (duplicates kept). */
export function significantTokens(s: string): string[] {
  return tokens(s).filter((t) => !NOISE_WORDS.has(t) && !isReferenceNumber(t));
}

/**
 * Words banks print around a card payment's merchant on their statements (the channel, as
 * "Mobile Purchase Sign Based" or "girocard"), beside `NOISE_WORDS`. Kept out of the payee key;
 * the classifier still reads them (a channel can tell pay from a purchase). Words a user's own
 * bank prints on most lines are found from their bookings instead (`PayeeModel`).
 */
const CHANNEL_WORDS: ReadonlySet<string> = new Set([
  'mobile',
  'sign',
  'based',
  'pin',
  'electronic',
  'returns',
  'girocard',
  'paiement',
  'par',
  'am',
  'pm',
]);

/**
 * Payment processors that print their name before the merchant's: Square's "SQ *", Toast's
 * "TST*", Shopify's "SP", PayPal's "PAYPAL *". Left out of the payee key when a merchant follows.
 */
const PROCESSOR_PREFIXES: ReadonlySet<string> = new Set(['sq', 'tst', 'sp', 'py', 'paypal', 'pp']);

/** Clock times on the raw text ("01:12p", "10:41 PM", "14.33"): gone before normalising splits them into a word ("12p"). */
const CLOCK_TIME = /\b\d{1,2}[:.]\d{2}(?:[:.]\d{2})?\s?(?:[ap]\.?m?\b\.?)?/giu;
const LETTERS_THEN_DIGITS = /^(\p{L}+)\p{Nd}+$/u;
const DIGITS_THEN_LETTERS = /^\p{Nd}+(\p{L}+)$/u;
const HAS_DIGIT = /\p{Nd}/u;
const DIGITS = /\p{Nd}/gu;
/** The most digits a word may have and still be a name as written ("o2", "76ers"). */
const NAME_MAX_DIGITS = 2;
const ONLY_X = /^x+$/;

/** Letters that can be (part of) a name: three or more Latin letters, not a mask of x's; two or more of another script (上海). */
function nameLike(letters: string): boolean {
  if (ASCII_ONLY.test(letters)) return letters.length >= 3 && !ONLY_X.test(letters);
  return [...letters].length >= 2;
}

/**
 * A normalised word as a payee's word, or null: a number, a code or a lone letter says nothing of
 * who was paid. A word with a digit or two is a name ("o2", "3m", "7eleven"); a name with more
 * digits glued on keeps its letters ("target00027599" → "target", "grubhub8888275055" →
 * "grubhub"); a masked card ("xxxx1234"), a store or terminal code ("t2767", "d5438",
 * "la4yl3gp3") and a single Latin letter go.
 */
function payeeWord(t: string): string | null {
  if (!HAS_DIGIT.test(t)) return ASCII_ONLY.test(t) && t.length < 2 ? null : t;
  if (ALL_DIGITS.test(t)) return null;
  if ((t.match(DIGITS)?.length ?? 0) <= NAME_MAX_DIGITS) return t;
  const glued = LETTERS_THEN_DIGITS.exec(t);
  if (glued) return nameLike(glued[1]!) ? glued[1]! : null;
  const led = DIGITS_THEN_LETTERS.exec(t);
  if (led) return nameLike(led[1]!) && led[1]!.length >= 4 ? t : null;
  return null;
}

/**
 * The words of a bank description that can name a payee, in order, each once: the description
 * without clock times, normalised, each word through `payeeWord`. Channel and noise words stay
 * (the classifier reads them); `payeeTokens` leaves them out.
 */
export function descriptionWords(s: string): string[] {
  const out: string[] = [];
  for (const t of tokens(s.replace(CLOCK_TIME, ' '))) {
    const w = payeeWord(t);
    if (w !== null && !out.includes(w)) out.push(w);
  }
  return out;
}

/**
 * The words that name the payee: `descriptionWords` without the banks' noise and channel words and
 * without a processor's name before the merchant's ("SQ *LUCY'S COFFEE" → lucy, coffee).
 */
export function payeeTokens(s: string): string[] {
  return payeeTokensOf(descriptionWords(s));
}

/** `payeeTokens` of a description's `descriptionWords`. */
export function payeeTokensOf(descriptionWords: readonly string[]): string[] {
  const words = descriptionWords.filter((t) => !NOISE_WORDS.has(t) && !CHANNEL_WORDS.has(t));
  let first = 0;
  while (first < words.length - 1 && PROCESSOR_PREFIXES.has(words[first]!)) first++;
  return first === 0 ? words : words.slice(first);
}

/**
 * The payee's words joined by single spaces, e.g. "CARD PAYMENT TESCO STORES 3021 12/03" →
 * "tesco stores". Empty when nothing identifies a payee. (The payee model keys a payee by its
 * first words that the user's own bank does not print on most lines; see `PayeeModel`.)
 */
export function payeeKey(s: string): string {
  return payeeTokens(s).join(' ');
}

// ---------------------------------------------------------------------------------------------
// Prepared form: tokenise once per item, compare many times.
// ---------------------------------------------------------------------------------------------

/** A token set and its character-bigram set, both sorted and without duplicates. */
interface TokenProfile {
  readonly tokens: readonly string[];
  /** Bigram codes (UTF-16 unit pair as hi·65536 + lo), sorted ascending. */
  readonly bigrams: Uint32Array;
}

export interface PreparedDescription {
  readonly normalised: string;
  /** Significant tokens (the profile normally compared). */
  readonly significant: TokenProfile;
  /** All normalised tokens; used when either side has no significant token. */
  readonly all: TokenProfile;
}

const SPACE = 32;

function profileOf(words: readonly string[]): TokenProfile {
  const unique = [...new Set(words)].sort();
  const codes: number[] = [];
  for (const w of unique) {
    // Each word padded with a space on both sides: "tea" → " t", "te", "ea", "a ".
    let prev = SPACE;
    for (let i = 0; i < w.length; i++) {
      const c = w.charCodeAt(i);
      codes.push(prev * 65536 + c);
      prev = c;
    }
    codes.push(prev * 65536 + SPACE);
  }
  const sorted = Uint32Array.from(codes).sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++) {
    const v = sorted[i] as number;
    if (n === 0 || sorted[n - 1] !== v) sorted[n++] = v;
  }
  return { tokens: unique, bigrams: sorted.slice(0, n) };
}

const EMPTY_PROFILE: TokenProfile = Object.freeze({
  tokens: Object.freeze([]) as readonly string[],
  bigrams: new Uint32Array(0),
});

/** Normalises and tokenises once; the result is compared with `scoreDescriptionPrepared`. */
export function prepareDescription(s: string | null | undefined): PreparedDescription {
  const normalised = s == null ? '' : normaliseDescription(s);
  if (normalised === '') return { normalised, significant: EMPTY_PROFILE, all: EMPTY_PROFILE };
  const words = wordsOf(normalised);
  const sig = words.filter((t) => !NOISE_WORDS.has(t) && !isReferenceNumber(t));
  const all = profileOf(words);
  return { normalised, significant: sig.length === words.length ? all : profileOf(sig), all };
}

/** How many values two ascending lists share (tokens or bigram codes), in one merge walk. */
function intersectSorted<T extends string | number>(a: ArrayLike<T>, b: ArrayLike<T>): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as T;
    const y = b[j] as T;
    if (x === y) {
      n++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return n;
}

/** Weights of the similarity blend; they sum to 1. */
const DESCRIPTION_WEIGHTS = Object.freeze({ jaccard: 0.35, containment: 0.35, dice: 0.3 });

/**
 * Similarity 0..100 of two prepared descriptions:
 * - 0 when either side is empty after normalising (an empty memo scores 0);
 * - 100 when the normalised texts are equal;
 * - otherwise, over the significant token sets A, B (or all tokens when either side has no
 *   significant token) and their character-bigram sets (each token padded with spaces):
 *     sim = 0.35·|A∩B|/|A∪B| + 0.35·|A∩B|/min(|A|,|B|) + 0.30·2|Ga∩Gb|/(|Ga|+|Gb|)
 *   rounded half up to an integer, then clamped to 1..99 unless sim is exactly 0 or 1. So 0 means
 *   nothing shared (no token, no bigram), and 100 means equal text or equal significant token sets
 *   (e.g. texts that differ only in noise words and reference numbers).
 * Symmetric (every term is symmetric in A, B) and deterministic.
 */
export function scoreDescriptionPrepared(a: PreparedDescription, b: PreparedDescription): number {
  if (a.normalised === '' || b.normalised === '') return 0;
  if (a.normalised === b.normalised) return 100;
  let pa = a.significant;
  let pb = b.significant;
  if (pa.tokens.length === 0 || pb.tokens.length === 0) {
    pa = a.all;
    pb = b.all;
  }
  const na = pa.tokens.length;
  const nb = pb.tokens.length;
  const common = intersectSorted(pa.tokens, pb.tokens);
  const ga = pa.bigrams.length;
  const gb = pb.bigrams.length;
  const commonBigrams = intersectSorted(pa.bigrams, pb.bigrams);
  if (common === na && common === nb) return 100;
  if (common === 0 && commonBigrams === 0) return 0;
  const sim =
    DESCRIPTION_WEIGHTS.jaccard * (common / (na + nb - common)) +
    DESCRIPTION_WEIGHTS.containment * (common / Math.min(na, nb)) +
    DESCRIPTION_WEIGHTS.dice * ((2 * commonBigrams) / (ga + gb));
  return Math.min(99, Math.max(1, Math.floor(sim * 100 + 0.5)));
}

/** `scoreDescriptionPrepared` on raw text; `memo` null or empty scores 0. */
export function scoreDescription(a: string, b: string | null): number {
  return scoreDescriptionPrepared(prepareDescription(a), prepareDescription(b));
}
