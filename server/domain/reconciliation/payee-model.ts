import { payeeTokens } from './description.ts';

/**
 * Payee → counter-account model, learnt from accepted matches and from entries created from bank
 * transactions: naive Bayes over the payee tokens of a bank description (see `payeeTokens`), in the
 * form GnuCash's import matcher uses (per-token account probabilities combined under the naive
 * independence assumption), with additive (Laplace-style) smoothing, plus an exact memory of payee
 * keys.
 *
 * Counts: N examples, K accounts, D_a examples of account a, c(t) examples containing token t and
 * c(t,a) of those that went to a (each example counts each distinct token once).
 *
 *   prior        π_a      = (D_a + 1) / (N + K)                      (Laplace-smoothed)
 *   per token    P(a | t) = (c(t,a) + α·π_a) / (c(t) + α),  α = 1    (one pseudo-example per token,
 *                                                                      spread by the prior)
 *   combined     P(a | q) ∝ π_a · Π_{t∈q} P(a | t) / π_a              (naive Bayes)
 *
 * over the known tokens q of the description (tokens never seen are ignored), normalised over all
 * K accounts (accounts sharing no token are summed in closed form, so a prediction costs
 * O(tokens × accounts sharing a token), not O(K)).
 *
 * Calibration: the posterior is damped by the evidence for that account, n / (n + 1) where
 * n = max_{t∈q} c(t,a) (how many examples of the account share its best-supported token). So an
 * account with no shared token gets 0, and a payee seen once gets at most 0.5 (twice 0.67,
 * nine times 0.9) however sharp the posterior. Confidences are in [0, 1] and sum to at most 1
 * (each is at most its posterior).
 */

export interface PayeeExample {
  readonly description: string;
  readonly accountId: string;
}

export interface AccountPrediction {
  readonly accountId: string;
  /** 0..1; see the calibration note above. */
  readonly confidence: number;
}

/** What the history score needs about one bank description, computed once per transaction. */
export interface HistoryEvidence {
  /** Accounts an earlier example with the very same payee key went to. */
  readonly exactAccounts: ReadonlySet<string>;
  /** Calibrated confidence per account (accounts absent have 0). */
  readonly confidence: ReadonlyMap<string, number>;
}

/** JSON-serialisable counts; `PayeeModel.fromState(model.toState())` rebuilds the same model. */
export interface PayeeModelState {
  readonly version: 1;
  /** [accountId, examples] */
  readonly accounts: readonly (readonly [string, number])[];
  /** [token, [accountId, count][]] */
  readonly tokens: readonly (readonly [string, readonly (readonly [string, number])[]])[];
  /** [payeeKey, [accountId, count][]] */
  readonly payees: readonly (readonly [string, readonly (readonly [string, number])[]])[];
}

export const EMPTY_HISTORY_EVIDENCE: HistoryEvidence = Object.freeze({
  exactAccounts: new Set<string>(),
  confidence: new Map<string, number>(),
});

/** Pseudo-examples per token (α) in the smoothed per-token probability. */
export const TOKEN_SMOOTHING = 1;
/** Evidence damping constant k in n / (n + k). */
export const EVIDENCE_DAMPING = 1;
const EVIDENCE_CACHE_LIMIT = 8192;

/** Counts of one token: how many examples contain it, and how many of those went to each account. */
interface TokenCounts {
  total: number;
  readonly byAccount: Map<string, number>;
}

function bump(map: Map<string, number>, key: string, by: number): void {
  const next = (map.get(key) ?? 0) + by;
  if (next <= 0) map.delete(key);
  else map.set(key, next);
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortedPairs(m: ReadonlyMap<string, number>): [string, number][] {
  return [...m].sort(([a], [b]) => compareIds(a, b));
}

export class PayeeModel {
  /** accountId → number of examples */
  readonly #docs = new Map<string, number>();
  /** token → counts */
  readonly #tokens = new Map<string, TokenCounts>();
  /** payee key → accountId → count */
  readonly #payees = new Map<string, Map<string, number>>();
  #examples = 0;
  #evidenceCache = new Map<string, HistoryEvidence>();
  readonly #tokenize: (description: string) => string[];

  /** `tokenize` reads a description's payee tokens (`payeeTokens`; another only to compare tokenisers). */
  constructor(tokenize: (description: string) => string[] = payeeTokens) {
    this.#tokenize = tokenize;
  }

  /** Builds a model from (description, account) rows, e.g. as read from the database. */
  static fromExamples(
    examples: Iterable<PayeeExample>,
    tokenize: (description: string) => string[] = payeeTokens,
  ): PayeeModel {
    const model = new PayeeModel(tokenize);
    for (const e of examples) model.learn(e.description, e.accountId);
    return model;
  }

  /** Rebuilds a model from `toState()` output. */
  static fromState(state: PayeeModelState): PayeeModel {
    if (state.version !== 1) throw new RangeError(`unknown payee model state version ${String(state.version)}`);
    const model = new PayeeModel();
    for (const [accountId, docs] of state.accounts) {
      if (!Number.isSafeInteger(docs) || docs < 0) throw new RangeError(`bad example count for ${accountId}`);
      if (docs > 0) {
        model.#docs.set(accountId, docs);
        model.#examples += docs;
      }
    }
    for (const [token, counts] of state.tokens) {
      const tc: TokenCounts = { total: 0, byAccount: new Map() };
      for (const [accountId, n] of counts) {
        if (n > 0) {
          tc.byAccount.set(accountId, n);
          tc.total += n;
        }
      }
      if (tc.total > 0) model.#tokens.set(token, tc);
    }
    for (const [key, counts] of state.payees) {
      const m = new Map<string, number>();
      for (const [accountId, n] of counts) if (n > 0) m.set(accountId, n);
      if (m.size > 0) model.#payees.set(key, m);
    }
    return model;
  }

  /** The model's counts as plain JSON-friendly arrays, sorted (equal models give equal states). */
  toState(): PayeeModelState {
    return {
      version: 1,
      accounts: sortedPairs(this.#docs),
      tokens: [...this.#tokens.keys()]
        .sort()
        .map((t) => [t, sortedPairs(this.#tokens.get(t)?.byAccount ?? new Map())] as const),
      payees: [...this.#payees.keys()].sort().map((k) => [k, sortedPairs(this.#payees.get(k) ?? new Map())] as const),
    };
  }

  /** Number of examples learnt (those with at least one payee token). */
  get size(): number {
    return this.#examples;
  }

  /**
   * Learns that a bank description went to `accountId`. Returns false (and learns nothing) when
   * the description has no payee token (only noise words or numbers).
   */
  learn(description: string, accountId: string): boolean {
    return this.#apply(description, accountId, 1);
  }

  /**
   * Undoes one earlier `learn(description, accountId)` (e.g. an accepted match that is undone).
   * Returns false and changes nothing when no such example was learnt.
   */
  forget(description: string, accountId: string): boolean {
    return this.#apply(description, accountId, -1);
  }

  #apply(description: string, accountId: string, by: 1 | -1): boolean {
    const toks = this.#tokenize(description);
    if (toks.length === 0) return false;
    const key = toks.join(' ');
    let payee = this.#payees.get(key);
    if (by < 0 && (payee?.get(accountId) ?? 0) <= 0) return false;
    if (!payee) {
      payee = new Map();
      this.#payees.set(key, payee);
    }
    bump(payee, accountId, by);
    if (payee.size === 0) this.#payees.delete(key);
    for (const t of toks) {
      let tc = this.#tokens.get(t);
      if (!tc) {
        tc = { total: 0, byAccount: new Map() };
        this.#tokens.set(t, tc);
      }
      tc.total += by;
      bump(tc.byAccount, accountId, by);
      if (tc.total <= 0) this.#tokens.delete(t);
    }
    bump(this.#docs, accountId, by);
    this.#examples += by;
    if (this.#evidenceCache.size > 0) this.#evidenceCache = new Map();
    return true;
  }

  /** Whether this very payee (same payee key, see `payeeKey`) was learnt before. */
  knownPayee(description: string): boolean {
    const key = this.#tokenize(description).join(' ');
    return key !== '' && this.#payees.has(key);
  }

  /** How often the same payee key went to each account. */
  payeeAccounts(description: string): ReadonlyMap<string, number> {
    return new Map(this.#payees.get(this.#tokenize(description).join(' ')) ?? []);
  }

  /**
   * Counter accounts ranked by calibrated confidence (highest first; ties by account id), only
   * accounts with some evidence (confidence > 0). Empty when no token of the description is known.
   */
  predict(description: string, limit = Infinity): AccountPrediction[] {
    const { ids, confidences } = this.#confidences(this.#tokenize(description));
    const out: AccountPrediction[] = [];
    for (let i = 0; i < ids.length; i++) {
      const confidence = confidences[i] as number;
      if (confidence > 0) out.push({ accountId: ids[i] as string, confidence });
    }
    out.sort((a, b) => b.confidence - a.confidence || compareIds(a.accountId, b.accountId));
    return limit < out.length ? out.slice(0, Math.max(0, limit)) : out;
  }

  /**
   * Calibrated confidences of the accounts that share at least one token with `toks`.
   *
   * Written sparsely: with L_t = log(α/(c(t)+α)), an account's log score is
   *   log π_a + Σ_t L_t + Σ_{t: c(t,a)>0} log(1 + c(t,a)/(α·π_a)),
   * so only (token, account) pairs with a count cost a logarithm, and Σ_t L_t, common to every
   * account, cancels in the normalisation. Accounts sharing no token add (1 − Σ_cand π_a) to the
   * normaliser. Every sum runs in an order that does not depend on the order examples were learnt
   * in (per account: query-token order; across accounts: over numerically sorted terms), so a model
   * rebuilt from rows in any order gives bit-identical confidences.
   */
  #confidences(toks: readonly string[]): { ids: string[]; confidences: number[] } {
    const known: TokenCounts[] = [];
    for (const t of toks) {
      const tc = this.#tokens.get(t);
      if (tc) known.push(tc);
    }
    const ids: string[] = [];
    const confidences: number[] = [];
    if (known.length === 0) return { ids, confidences };

    const alpha = TOKEN_SMOOTHING;
    const norm = this.#examples + this.#docs.size; // N + K
    const index = new Map<string, number>();
    const weights: number[] = []; // D_a + 1
    const bonus: number[] = [];
    const evidence: number[] = [];
    let candidateWeight = 0; // Σ_cand (D_a + 1), an exact integer
    for (const tc of known) {
      for (const [id, c] of tc.byAccount) {
        let i = index.get(id);
        if (i === undefined) {
          i = ids.length;
          index.set(id, i);
          ids.push(id);
          const w = (this.#docs.get(id) ?? 0) + 1;
          candidateWeight += w;
          weights.push(w);
          bonus.push(0);
          evidence.push(0);
        }
        const alphaPrior = (alpha * (weights[i] as number)) / norm;
        bonus[i] = (bonus[i] as number) + Math.log1p(c / alphaPrior);
        if (c > (evidence[i] as number)) evidence[i] = c;
      }
    }

    const logs = ids.map((_, i) => Math.log((weights[i] as number) / norm) + (bonus[i] as number));
    const restPrior = (norm - candidateWeight) / norm;
    const rest = restPrior > 0 ? Math.log(restPrior) : -Infinity;
    let max = rest;
    for (const lp of logs) if (lp > max) max = lp;
    const terms = new Float64Array(logs.length + 1);
    for (let i = 0; i < logs.length; i++) terms[i] = Math.exp((logs[i] as number) - max);
    terms[logs.length] = rest === -Infinity ? 0 : Math.exp(rest - max);
    terms.sort();
    let z = 0;
    for (const x of terms) z += x;

    for (let i = 0; i < ids.length; i++) {
      const n = evidence[i] as number;
      const posterior = Math.exp((logs[i] as number) - max) / z;
      confidences.push(Math.min(1, Math.max(0, posterior * (n / (n + EVIDENCE_DAMPING)))));
    }
    return { ids, confidences };
  }

  /** History evidence for a bank description; cached until the model next changes. */
  historyEvidence(description: string): HistoryEvidence {
    const cached = this.#evidenceCache.get(description);
    if (cached) return cached;
    const toks = this.#tokenize(description);
    let evidence: HistoryEvidence;
    if (toks.length === 0) {
      evidence = EMPTY_HISTORY_EVIDENCE;
    } else {
      const exact = this.#payees.get(toks.join(' '));
      const { ids, confidences } = this.#confidences(toks);
      const confidence = new Map<string, number>();
      for (let i = 0; i < ids.length; i++) {
        const c = confidences[i] as number;
        if (c > 0) confidence.set(ids[i] as string, c);
      }
      evidence = { exactAccounts: new Set(exact ? exact.keys() : []), confidence };
    }
    if (this.#evidenceCache.size >= EVIDENCE_CACHE_LIMIT) this.#evidenceCache = new Map();
    this.#evidenceCache.set(description, evidence);
    return evidence;
  }
}

/**
 * History score from prepared evidence and the entry's counter accounts:
 * - 100 when an earlier example with the same payee key went to one of the counter accounts;
 * - otherwise round(100·c), clamped to 1..99, where c is the highest calibrated confidence the
 *   model gives any of the counter accounts (a similar payee went there, or the same payee went
 *   there through other token evidence);
 * - 0 when c is 0: a new payee, or a payee whose every known token went to other accounts only.
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
): number {
  return scoreHistoryPrepared(payeeModel.historyEvidence(description), counterAccountIds);
}
