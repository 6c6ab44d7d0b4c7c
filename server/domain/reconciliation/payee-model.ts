import { descriptionWords, payeeTokens, payeeTokensOf } from './description.ts';

/**
 * What the app learns from the bank lines a user books: which counter account a bank description
 * goes to. Learnt from accepted matches and from entries created from bank lines, in the order
 * they were booked. Three parts, surest first:
 *
 * 1. **The payee booked before.** A description's payee key is its first two payee words
 *    (`payeeTokens`) that are not noise for this user's bank; a token is noise once it has come
 *    with at least `NOISE_MIN_EXAMPLES` bookings to at least three accounts and no account has more
 *    than `NOISE_MAX_SHARE` of them (a channel word, a home town, a processor's name: they say
 *    nothing of the account). The accounts the same key went to before, in the line's direction,
 *    speak first: an account's share of those n bookings, damped by n / (n + 1).
 * 2. **A text classifier** over all bookings: multinomial naive Bayes whose features are the
 *    description's words (`descriptionWords`, weight 1 each), the character n-grams of its payee
 *    words (3-grams, 2-grams in scripts without spaces; weight `NGRAM_WEIGHT` shared among them),
 *    the direction (weight `DIRECTION_WEIGHT`) and the amount's order of magnitude (its bit
 *    length, weight `AMOUNT_WEIGHT`), with additive smoothing α = `SMOOTHING`. Its posterior fills
 *    the rest: 1 / (n + 1) of it for a payee booked n times, all of it for a new payee.
 * 3. **Calibration.** Before each booking is learnt, the model ranks the line as it would have
 *    then, and remembers for its three best accounts the raw score and whether it was the booked
 *    account, for the latest `CALIBRATION_WINDOW` bookings, in twenty bins per source (a payee
 *    booked before, or the classifier alone). A shown
 *    confidence is the share right in the raw score's bin, with `CALIBRATION_PRIOR` pseudo-lines
 *    at the raw score itself, made non-decreasing across bins (pool-adjacent-violators). So a shown
 *    80 % was right about 80 % of the time for this user, and a new user's raw scores show as
 *    they are until bookings say otherwise.
 *
 * Results depend on the order bookings were learnt in only through calibration (the counts are
 * sums); a model kept and taught booking by booking answers exactly as one built afresh from the
 * same bookings. `forget` takes a booking's counts back (its calibration stays).
 */

export interface PayeeContext {
  /** the bank line's direction: debit is money out */
  readonly type?: 'debit' | 'credit' | undefined;
  /** the bank line's amount in minor units (its magnitude is used) */
  readonly amountMinor?: bigint | undefined;
}

export interface PayeeExample extends PayeeContext {
  readonly description: string;
  readonly accountId: string;
}

export interface AccountPrediction {
  readonly accountId: string;
  /** calibrated, 0..1 */
  readonly confidence: number;
  /** whether at least `CALIBRATION_SUPPORT` ranked bookings stand behind that confidence */
  readonly supported: boolean;
}

/** A ranking of counter accounts for one bank line. */
export interface Prediction {
  readonly accounts: readonly AccountPrediction[];
  /** how often this payee (its key) was booked before in the line's direction, any account */
  readonly payeeBookings: number;
  /** the account this payee went to most often before, if one has more than half of its bookings */
  readonly payeeAccount: string | null;
}

/** What the history score needs about one bank description, computed once per transaction. */
export interface HistoryEvidence {
  /** Accounts an earlier booking with the very same payee key went to. */
  readonly exactAccounts: ReadonlySet<string>;
  /** Calibrated confidence per account that has evidence (the payee's key, or a word in common). */
  readonly confidence: ReadonlyMap<string, number>;
}

export const EMPTY_HISTORY_EVIDENCE: HistoryEvidence = Object.freeze({
  exactAccounts: new Set<string>(),
  confidence: new Map<string, number>(),
});

/** Bookings a token needs before it can be found to be noise. */
export const NOISE_MIN_EXAMPLES = 4;
/** The most of a noise token's bookings one account may have. */
export const NOISE_MAX_SHARE = 0.6;
/** Payee words in a payee key. */
export const KEY_WORDS = 2;
/** The classifier's additive smoothing α. */
export const SMOOTHING = 0.1;
export const NGRAM_WEIGHT = 6;
export const DIRECTION_WEIGHT = 2;
export const AMOUNT_WEIGHT = 1;
/** Pseudo-lines at the raw score in each calibration bin. */
export const CALIBRATION_PRIOR = 4;
/** Ranked bookings in a raw score's bin for its calibrated confidence to count as measured. */
export const CALIBRATION_SUPPORT = 20;
/** The latest bookings calibration is read from (a model built afresh ranks only these before learning them). */
export const CALIBRATION_WINDOW = 1000;
const CALIBRATION_BINS = 20;
const CALIBRATED_ACCOUNTS = 3;
/** Raw scores are summed in millionths, as integers, so that a window's sums are exact whichever way they were reached. */
const MICRO = 1_000_000;
const EVIDENCE_CACHE_LIMIT = 8192;
/** Characters of a description the n-grams are read from (bank descriptions are at most 1,000). */
const NGRAM_TEXT_LIMIT = 200;

/** Weighted counts of one feature or word: in all, and per account index. */
interface Counts {
  total: number;
  readonly byAccount: Map<number, number>;
}

/** One account's weighted count of a feature, and its term of the classifier's sum, log(1 + count / α) (a prediction only adds). */
interface Cell {
  count: number;
  term: number;
}

/** A feature's cells by account index. */
type FeatureCounts = Map<number, Cell>;

function bump<K>(map: Map<K, number>, key: K, by: number): void {
  const next = (map.get(key) ?? 0) + by;
  if (next <= 1e-9) map.delete(key);
  else map.set(key, next);
}

function bumpCounts(map: Map<string, Counts>, key: string, account: number, by: number): void {
  let c = map.get(key);
  if (!c) map.set(key, (c = { total: 0, byAccount: new Map() }));
  c.total += by;
  bump(c.byAccount, account, by);
  if (c.total <= 1e-9) map.delete(key);
}

function bumpFeature(map: Map<Feature, FeatureCounts>, key: Feature, account: number, by: number): void {
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

function bumpKey(keys: Map<string, Map<string, number>>, key: string, typeAndAccount: string, by: number): void {
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
function amountBucket(amountMinor: bigint): number {
  const m = amountMinor < 0n ? -amountMinor : amountMinor;
  return m.toString(2).length;
}

/** A feature: a word, the direction or the amount's magnitude by name; an n-gram by its number. */
type Feature = string | number;

interface Prepared {
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

function prepare(description: string, context: PayeeContext): Prepared {
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

/** One ranked account's record: which calibration, its raw score in millionths, whether it was the booked account. */
interface Record {
  readonly payee: boolean;
  readonly raw: number;
  readonly hit: boolean;
}

/** Twenty bins of raw scores and how often the account scored there was the one booked. */
class Bins {
  readonly lines = new Int32Array(CALIBRATION_BINS);
  /** millionths */
  readonly raw = new Float64Array(CALIBRATION_BINS);
  readonly right = new Int32Array(CALIBRATION_BINS);
  private map: Float64Array | null = null;

  static bin(raw: number): number {
    return Math.min(CALIBRATION_BINS - 1, Math.max(0, Math.floor(raw * CALIBRATION_BINS)));
  }

  add(r: Record, by: 1 | -1): void {
    const b = Bins.bin(r.raw / MICRO);
    this.lines[b]! += by;
    this.raw[b]! += by * r.raw;
    if (r.hit) this.right[b]! += by;
    this.map = null;
  }

  /**
   * The calibrated confidence of a raw score (see the module comment): the fitted rates of the
   * bins read as points at each bin's mean raw score, joined by straight lines (from 0 at 0, flat
   * past the last), so that a higher raw score never shows a lower confidence.
   */
  of(raw: number): number {
    if (raw <= 0) return 0;
    const map = (this.map ??= this.fit());
    let x0 = 0;
    let y0 = 0;
    for (let b = 0; b < CALIBRATION_BINS; b++) {
      const x1 = this.mid(b);
      const y1 = map[b]!;
      if (raw <= x1) return Math.min(1, Math.max(0, y0 + ((y1 - y0) * (raw - x0)) / (x1 - x0)));
      x0 = x1;
      y0 = y1;
    }
    return Math.min(1, Math.max(0, y0));
  }

  /** Whether the raw score's bin holds at least `CALIBRATION_SUPPORT` records. */
  supports(raw: number): boolean {
    return this.lines[Bins.bin(raw)]! >= CALIBRATION_SUPPORT;
  }

  private mid(b: number): number {
    const n = this.lines[b]!;
    return n === 0 ? (b + 0.5) / CALIBRATION_BINS : this.raw[b]! / MICRO / n;
  }

  private rate(b: number): number {
    return (this.right[b]! + CALIBRATION_PRIOR * this.mid(b)) / (this.lines[b]! + CALIBRATION_PRIOR);
  }

  /** Each bin's rate made non-decreasing (pool-adjacent-violators, weighted by lines). */
  private fit(): Float64Array {
    const blocks: { value: number; weight: number; bins: number }[] = [];
    for (let b = 0; b < CALIBRATION_BINS; b++) {
      blocks.push({ value: this.rate(b), weight: this.lines[b]! + CALIBRATION_PRIOR, bins: 1 });
      while (blocks.length > 1 && blocks.at(-2)!.value > blocks.at(-1)!.value) {
        const last = blocks.pop()!;
        const prev = blocks.at(-1)!;
        const weight = prev.weight + last.weight;
        prev.value = (prev.value * prev.weight + last.value * last.weight) / weight;
        prev.weight = weight;
        prev.bins += last.bins;
      }
    }
    const out = new Float64Array(CALIBRATION_BINS);
    let b = 0;
    for (const block of blocks) for (let i = 0; i < block.bins; i++) out[b++] = block.value;
    return out;
  }
}

/** The records of the latest `CALIBRATION_WINDOW` bookings, binned per source. */
class Calibration {
  readonly payee = new Bins();
  readonly text = new Bins();
  private readonly window: (readonly Record[])[] = [];
  private start = 0;

  remember(records: readonly Record[]): void {
    if (this.window.length - this.start === CALIBRATION_WINDOW) {
      for (const r of this.window[this.start]!) (r.payee ? this.payee : this.text).add(r, -1);
      this.window[this.start++] = [];
      if (this.start > CALIBRATION_WINDOW) (this.window.splice(0, this.start), (this.start = 0));
    }
    this.window.push(records);
    for (const r of records) (r.payee ? this.payee : this.text).add(r, 1);
  }
}

interface Ranked {
  account: number;
  raw: number;
}

interface Ranking {
  /** accounts by raw score, best first (every account booked before) */
  ranked: Ranked[];
  /** this payee's bookings (its key's) that speak first, per account id; empty when none */
  payee: Map<string, number>;
  /** how many those are */
  bookings: number;
  /** whether they are this very payee's (its whole key), not only a payee's of the same first word */
  exact: boolean;
}

export class PayeeModel {
  /** account ids by index, and back */
  readonly #ids: string[] = [];
  readonly #index = new Map<string, number>();
  /** bookings per account index */
  readonly #docs: number[] = [];
  /** the weight of all features per account index */
  readonly #weight: number[] = [];
  /** feature → weighted counts per account */
  readonly #features = new Map<Feature, FeatureCounts>();
  /** payee word → bookings per account (noise is read from these) */
  readonly #payeeWords = new Map<string, Counts>();
  /** payee words (joined) → bookings per `type|account id` */
  readonly #payees = new Map<string, { words: readonly string[]; counts: Map<string, number> }>();
  /** payee key → bookings per `type|account id`, rebuilt from #payees when a word's noise changes */
  #keys: Map<string, Map<string, number>> | null = null;
  readonly #calibration = new Calibration();
  #examples = 0;
  /** accounts with at least one booking */
  #accounts = 0;
  #evidenceCache = new Map<string, HistoryEvidence>();

  /**
   * Builds a model from bookings in the order they were made, e.g. as read from the database: the
   * latest `CALIBRATION_WINDOW` are ranked before they are learnt, as a model taught one by one would have.
   */
  static fromExamples(examples: Iterable<PayeeExample>): PayeeModel {
    const all = [...examples];
    const model = new PayeeModel();
    const calibrateFrom = all.length - CALIBRATION_WINDOW;
    all.forEach((e, i) => model.#learn(e.description, e.accountId, e, i >= calibrateFrom));
    return model;
  }

  /** Number of bookings learnt (those with at least one word). */
  get size(): number {
    return this.#examples;
  }

  /**
   * Learns that a bank line went to `accountId`, after ranking it as the model would have (for
   * calibration). Returns false (and learns nothing) when the description has no word at all.
   */
  learn(description: string, accountId: string, context: PayeeContext = {}): boolean {
    return this.#learn(description, accountId, context, true);
  }

  #learn(description: string, accountId: string, context: PayeeContext, calibrate: boolean): boolean {
    const p = prepare(description, context);
    if (p.words.length === 0) return false;
    if (calibrate) this.#calibrate(p, context, accountId);
    this.#apply(p, accountId, context, 1);
    return true;
  }

  /**
   * Undoes one earlier `learn(description, accountId, context)` (an accepted match undone).
   * Returns false and changes nothing when no such booking was learnt.
   */
  forget(description: string, accountId: string, context: PayeeContext = {}): boolean {
    const p = prepare(description, context);
    const payee = this.#payees.get(p.payee.join(' '));
    if (p.words.length === 0 || (payee?.counts.get(`${context.type ?? ''}|${accountId}`) ?? 0) <= 0) return false;
    this.#apply(p, accountId, context, -1);
    return true;
  }

  #accountIndex(accountId: string): number {
    let i = this.#index.get(accountId);
    if (i === undefined) {
      i = this.#ids.length;
      this.#index.set(accountId, i);
      this.#ids.push(accountId);
      this.#docs.push(0);
      this.#weight.push(0);
    }
    return i;
  }

  #apply(p: Prepared, accountId: string, context: PayeeContext, by: 1 | -1): void {
    const a = this.#accountIndex(accountId);
    const noiseBefore = p.payee.map((w) => this.#isNoise(w));
    if (this.#docs[a] === 0) this.#accounts += 1;
    this.#docs[a]! += by;
    if (this.#docs[a] === 0) this.#accounts -= 1;
    this.#examples += by;
    let weight = 0;
    p.features.forEach((f, i) => {
      bumpFeature(this.#features, f, a, by * p.weights[i]!);
      weight += p.weights[i]!;
    });
    this.#weight[a] = Math.max(0, this.#weight[a]! + by * weight);
    for (const w of p.payee) bumpCounts(this.#payeeWords, w, a, by);
    const joined = p.payee.join(' ');
    const typeAndAccount = `${context.type ?? ''}|${accountId}`;
    let payee = this.#payees.get(joined);
    if (!payee) this.#payees.set(joined, (payee = { words: p.payee, counts: new Map() }));
    bump(payee.counts, typeAndAccount, by);
    if (payee.counts.size === 0) this.#payees.delete(joined);
    if (this.#keys && p.payee.some((w, i) => this.#isNoise(w) !== noiseBefore[i])) this.#keys = null;
    else if (this.#keys) for (const key of this.#indexKeysOf(p.payee)) bumpKey(this.#keys, key, typeAndAccount, by);
    if (this.#evidenceCache.size > 0) this.#evidenceCache = new Map();
  }

  /** A payee word that says nothing of the account: it came with many bookings, spread over several accounts. */
  #isNoise(word: string): boolean {
    const c = this.#payeeWords.get(word);
    if (!c || c.total < NOISE_MIN_EXAMPLES || c.byAccount.size < 3) return false;
    let most = 0;
    for (const n of c.byAccount.values()) if (n > most) most = n;
    return most <= NOISE_MAX_SHARE * c.total;
  }

  /**
   * The payee's keys, surest first: its first `KEY_WORDS` payee words that are not noise (its
   * whole key), its first such word when that is a payee's whole key, and (marked "1:") its first
   * word as the first word of a longer payee. None when every word is noise.
   */
  #keysOf(words: readonly string[]): string[] {
    const kept: string[] = [];
    for (const w of words) {
      if (this.#isNoise(w)) continue;
      kept.push(w);
      if (kept.length === KEY_WORDS) break;
    }
    if (kept.length === 0) return [];
    return kept.length === 1 ? [kept[0]!, `1:${kept[0]!}`] : [kept.join(' '), kept[0]!, `1:${kept[0]!}`];
  }

  /** The keys a booked payee is found by: its whole key, and its first word for longer payees that start alike. */
  #indexKeysOf(words: readonly string[]): string[] {
    const keys = this.#keysOf(words);
    return keys.length === 3 ? [keys[0]!, keys[2]!] : keys;
  }

  #keyIndex(): Map<string, Map<string, number>> {
    if (this.#keys) return this.#keys;
    const keys = new Map<string, Map<string, number>>();
    for (const { words, counts } of this.#payees.values())
      for (const key of this.#indexKeysOf(words)) for (const [k, n] of counts) bumpKey(keys, key, k, n);
    return (this.#keys = keys);
  }

  /**
   * How often this payee went to each account before, in the given direction (any, when none is
   * given): by its whole key (or a one-word payee's that is its first word), else (with
   * `byFirstWord`) by longer payees' first word; `exact` says which.
   */
  #payeeCounts(
    payee: readonly string[],
    type: PayeeContext['type'],
    byFirstWord = false,
  ): { counts: Map<string, number>; exact: boolean } {
    const index = this.#keyIndex();
    const keys = this.#keysOf(payee);
    for (const [i, key] of keys.entries()) {
      const exact = i < keys.length - 1;
      if (!exact && !byFirstWord) break;
      const counts = new Map<string, number>();
      for (const [k, n] of index.get(key) ?? []) {
        const bar = k.indexOf('|');
        if (type !== undefined && bar > 0 && k.slice(0, bar) !== type) continue;
        bump(counts, k.slice(bar + 1), n);
      }
      if (counts.size > 0) return { counts, exact };
    }
    return { counts: new Map(), exact: false };
  }

  /** Whether this very payee (its key) was booked before. */
  knownPayee(description: string): boolean {
    return this.#payeeCounts(payeeTokens(description), undefined).counts.size > 0;
  }

  /** How often this payee's key went to each account, in the direction given (any when none is). */
  payeeAccounts(description: string, type?: PayeeContext['type']): ReadonlyMap<string, number> {
    return this.#payeeCounts(payeeTokens(description), type).counts;
  }

  /** The classifier's posterior per account index (0 for an account with no booking left); see the module comment. */
  #posterior(p: Prepared): Float64Array {
    const n = this.#ids.length;
    const logs = new Float64Array(n);
    const out = new Float64Array(n);
    if (this.#examples === 0) return out;
    let queryWeight = 0;
    let text = 0;
    let knownText = 0;
    const known: [FeatureCounts, number][] = [];
    p.features.forEach((f, i) => {
      const c = this.#features.get(f);
      const isText = i < p.textFeatures;
      if (isText) text += p.weights[i]!;
      if (c) {
        known.push([c, p.weights[i]!]);
        queryWeight += p.weights[i]!;
        if (isText) knownText += p.weights[i]!;
      }
    });
    const smoothed = SMOOTHING * this.#features.size;
    const norm = Math.log(this.#examples + this.#accounts);
    for (let a = 0; a < n; a++) {
      if (this.#docs[a]! <= 0) continue;
      logs[a] = Math.log(this.#docs[a]! + 1) - norm + queryWeight * Math.log(SMOOTHING / (this.#weight[a]! + smoothed));
    }
    for (const [cells, w] of known) cells.forEach((cell, a) => (logs[a] = logs[a]! + w * cell.term));
    let max = -Infinity;
    for (let a = 0; a < n; a++) if (this.#docs[a]! > 0 && logs[a]! > max) max = logs[a]!;
    let z = 0;
    for (let a = 0; a < n; a++) {
      if (this.#docs[a]! <= 0) continue;
      out[a] = Math.exp(logs[a]! - max);
      z += out[a]!;
    }
    // the share of the text seen before: words and spellings never booked say nothing
    const coverage = text === 0 ? 0 : knownText / text;
    for (let a = 0; a < n; a++) out[a] = (out[a]! / z) * coverage;
    return out;
  }

  /** Raw scores, surest first: this payee's own bookings, the classifier filling the rest. */
  #rank(p: Prepared, context: PayeeContext): Ranking {
    let found = this.#payeeCounts(p.payee, context.type, true);
    // a payee never booked this way round before (a refund from a shop) goes where it went the other way
    const sameWay = found.counts.size > 0 || context.type === undefined;
    if (!sameWay) found = this.#payeeCounts(p.payee, undefined, true);
    const payee = found.counts;
    let bookings = 0;
    for (const c of payee.values()) bookings += c;
    const raw = this.#posterior(p);
    const rest = 1 / (bookings + 1);
    for (let a = 0; a < raw.length; a++) raw[a] = raw[a]! * rest;
    for (const [id, c] of payee) {
      const a = this.#index.get(id)!;
      raw[a] = Math.min(1, raw[a]! + (c / bookings) * (bookings / (bookings + 1)));
    }
    const ranked: Ranked[] = [];
    for (let a = 0; a < raw.length; a++) if (raw[a]! > 0) ranked.push({ account: a, raw: raw[a]! });
    ranked.sort((x, y) => y.raw - x.raw || (this.#ids[x.account]! < this.#ids[y.account]! ? -1 : 1));
    return {
      ranked,
      payee: sameWay ? payee : new Map(),
      bookings: sameWay ? bookings : 0,
      exact: sameWay && found.exact,
    };
  }

  #bins(r: Ranking): Bins {
    return r.bookings > 0 ? this.#calibration.payee : this.#calibration.text;
  }

  #calibrate(p: Prepared, context: PayeeContext, booked: string): void {
    if (this.#examples === 0) return this.#calibration.remember([]);
    const ranking = this.#rank(p, context);
    const payee = ranking.bookings > 0;
    this.#calibration.remember(
      ranking.ranked.slice(0, CALIBRATED_ACCOUNTS).map((r) => ({
        payee,
        raw: Math.round(r.raw * MICRO),
        hit: this.#ids[r.account] === booked,
      })),
    );
  }

  /**
   * Counter accounts for a bank line, surest first, with calibrated confidences (at most `limit`),
   * and what this payee's own bookings say.
   */
  predict(description: string, context: PayeeContext = {}, limit = 8): Prediction {
    const p = prepare(description, context);
    if (p.words.length === 0 || this.#examples === 0) return { accounts: [], payeeBookings: 0, payeeAccount: null };
    const ranking = this.#rank(p, context);
    const bins = this.#bins(ranking);
    const accounts = ranking.ranked
      .slice(0, limit)
      .map((r) => ({ accountId: this.#ids[r.account]!, confidence: bins.of(r.raw), supported: bins.supports(r.raw) }));
    let payeeAccount: string | null = null;
    if (ranking.exact) for (const [id, c] of ranking.payee) if (c * 2 > ranking.bookings) payeeAccount = id;
    return { accounts, payeeBookings: ranking.bookings, payeeAccount };
  }

  /** History evidence for a bank line (for the match score); cached until the model next changes. */
  historyEvidence(description: string, context: PayeeContext = {}): HistoryEvidence {
    const cacheKey = `${context.type ?? ''}|${context.amountMinor === undefined ? '' : amountBucket(context.amountMinor)}|${description}`;
    const cached = this.#evidenceCache.get(cacheKey);
    if (cached) return cached;
    const p = prepare(description, context);
    let evidence: HistoryEvidence = EMPTY_HISTORY_EVIDENCE;
    if (p.words.length > 0 && this.#examples > 0) {
      const ranking = this.#rank(p, context);
      const bins = this.#bins(ranking);
      // only accounts the line has evidence for: its payee's, or one sharing a word with it
      const related = new Set([...ranking.payee.keys()].map((id) => this.#index.get(id)!));
      for (const w of p.words) for (const a of this.#features.get(`w:${w}`)?.keys() ?? []) related.add(a);
      const confidence = new Map<string, number>();
      for (const r of ranking.ranked) {
        if (!related.has(r.account)) continue;
        const c = bins.of(r.raw);
        if (c > 0) confidence.set(this.#ids[r.account]!, c);
      }
      evidence = { exactAccounts: new Set(this.#payeeCounts(p.payee, undefined).counts.keys()), confidence };
    }
    if (this.#evidenceCache.size >= EVIDENCE_CACHE_LIMIT) this.#evidenceCache = new Map();
    this.#evidenceCache.set(cacheKey, evidence);
    return evidence;
  }
}

/**
 * History score from prepared evidence and the entry's counter accounts:
 * - 100 when an earlier booking with the same payee key went to one of the counter accounts;
 * - otherwise round(100·c), clamped to 1..99, where c is the highest calibrated confidence the
 *   model gives any of the counter accounts that the line has evidence for;
 * - 0 when c is 0: a new payee sharing no word with any booking, or no counter account with evidence.
 */
export function scoreHistoryPrepared(evidence: HistoryEvidence, counterAccountIds: readonly string[]): number {
  let best = 0;
  for (const id of counterAccountIds) {
    if (evidence.exactAccounts.has(id)) return 100;
    best = Math.max(best, evidence.confidence.get(id) ?? 0);
  }
  return confidenceScore(best);
}

/** The highest history score the evidence gives any counter accounts: a bound on `scoreHistoryPrepared`. */
export function bestHistoryScore(evidence: HistoryEvidence): number {
  if (evidence.exactAccounts.size > 0) return 100;
  return confidenceScore(Math.max(0, ...evidence.confidence.values()));
}

function confidenceScore(confidence: number): number {
  if (confidence <= 0) return 0;
  return Math.min(99, Math.max(1, Math.floor(confidence * 100 + 0.5)));
}

/** History score of a bank description against an entry's counter accounts (see `scoreHistoryPrepared`). */
export function scoreHistory(
  payeeModel: PayeeModel,
  description: string,
  counterAccountIds: readonly string[],
  context: PayeeContext = {},
): number {
  return scoreHistoryPrepared(payeeModel.historyEvidence(description, context), counterAccountIds);
}
