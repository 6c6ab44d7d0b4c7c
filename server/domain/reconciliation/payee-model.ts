import { payeeTokens } from './description.ts';
import { EMPTY_HISTORY_EVIDENCE, scoreHistoryPrepared, type HistoryEvidence } from './history-score.ts';
import { Bins, Calibration, CALIBRATED_ACCOUNTS, CALIBRATION_WINDOW, MICRO } from './payee-calibration.ts';
import {
  amountBucket,
  bump,
  bumpCounts,
  bumpFeature,
  bumpKey,
  prepare,
  SMOOTHING,
  type Counts,
  type Feature,
  type FeatureCounts,
  type PayeeContext,
  type Prepared,
} from './payee-features.ts';

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

export interface PayeeExample extends PayeeContext {
  readonly description: string;
  readonly accountId: string;
}

interface AccountPrediction {
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

/** Bookings a token needs before it can be found to be noise. */
const NOISE_MIN_EXAMPLES = 4;
/** The most of a noise token's bookings one account may have. */
const NOISE_MAX_SHARE = 0.6;
/** Payee words in a payee key. */
const KEY_WORDS = 2;
const EVIDENCE_CACHE_LIMIT = 8192;

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

/** History score of a bank description against an entry's counter accounts (see `scoreHistoryPrepared`). */
export function scoreHistory(
  payeeModel: PayeeModel,
  description: string,
  counterAccountIds: readonly string[],
  context: PayeeContext = {},
): number {
  return scoreHistoryPrepared(payeeModel.historyEvidence(description, context), counterAccountIds);
}
