/**
 * The reconciliation matching written from its definition (server/domain/reconciliation/README.md),
 * for the tests of the date sweep and of the run: every candidate pair scored, the pairs ranked
 * and taken greedily. It imports nothing from server/, so that it checks the code rather than
 * repeats it. What the payee model says of a bank line (its history evidence) is an input, as the
 * lines and entries are: the model has tests of its own.
 *
 * - Candidates of a bank line: entries whose line on the account goes the way the line needs (money
 *   out: CREDIT, money in: DEBIT), dated at most 30 days from it, not refused for it before; an
 *   entry 50 units or more away in amount only on the same day with the same normalised text.
 * - Amount: 100 when equal, 0 at 50·10^digits minor units apart or more, else ⌈100·(1 − diff/limit)⌉
 *   at most 99. Date: the same with 30 days.
 * - Description: both texts normalised (NFKC, lower case, accents and a few letters folded, every
 *   run of other characters one space); 0 when either is empty, 100 when equal; else over the
 *   significant token sets A, B (without noise words and numbers of 6+ digits; all tokens when
 *   either side has none) and their padded character-bigram sets: 100 when A = B, 0 when nothing is
 *   shared, else round(100·(0.35·Jaccard + 0.35·containment + 0.30·Dice)) within 1..99.
 * - Business: 100 when every counter account fits the money's way (out: EXPENSE, ASSET,
 *   LIABILITY; in: INCOME, ASSET, LIABILITY, EQUITY), 75 when some do, 50 when none or no counter.
 * - History: 100 when the payee went to a counter account before (its key), else round(100·c)
 *   within 1..99 for the best calibrated confidence c of a counter account, 0 when c is 0.
 * - Total: ⌊(40a + 25d + 20s + 10b + 5h + 50) / 100⌋; auto-accepted from the auto-accept
 *   threshold, under review from the review threshold, else no match.
 * - Assignment: highest total first, then the smaller date difference, the higher amount score,
 *   the bank line's id, the entry's id; a pair is taken unless its line or entry is taken.
 */

export interface ReferenceTxn {
  readonly id: string;
  readonly date: string;
  readonly description: string;
  readonly amountMinor: bigint;
  readonly type: 'debit' | 'credit';
}

export interface ReferenceEntry {
  readonly id: string;
  readonly entryDate: string;
  readonly memo: string | null;
  /** the entry's net line on the statement's account */
  readonly accountLine: { readonly direction: 'DEBIT' | 'CREDIT'; readonly amountMinor: bigint };
  readonly counterAccounts: readonly { readonly id: string; readonly type: string }[];
}

/** What the payee model says of a bank line: accounts its very payee went to, and confidences. */
interface ReferenceHistory {
  readonly exactAccounts: ReadonlySet<string>;
  readonly confidence: ReadonlyMap<string, number>;
}

export interface ReferencePair {
  txnId: string;
  entryId: string;
  breakdown: { amount: number; date: number; description: number; business: number; history: number };
  total: number;
  status: 'auto_accepted' | 'pending_review';
  dateDiffDays: number;
}

export interface ReferenceOptions {
  readonly digits: number;
  readonly thresholds: { readonly autoAccept: number; readonly review: number };
  readonly rejected?: ReadonlyMap<string, ReadonlySet<string>>;
  readonly history?: (txn: ReferenceTxn) => ReferenceHistory;
}

// --- the words banks add (the definition's list) ---
const NOISE_WORDS = new Set(
  'card payment pos sepa lastschrift purchase debit visa mastercard ref checkcard recurring pmt pymt ach ppd ccd web tel id des indn trn txn auth kartenzahlung folgenr verfalld cb carte prlv'.split(
    ' ',
  ),
);
const FOLDS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', þ: 'th', ł: 'l', ı: 'i' };

function normalise(text: string | null): string {
  if (text === null) return '';
  return text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ßæœøđðþłı]/g, (c) => FOLDS[c]!)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .normalize('NFC');
}

function bigrams(tokens: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const t of tokens) {
    const padded = ` ${t} `;
    for (let i = 0; i + 1 < padded.length; i++) out.add(padded.slice(i, i + 2));
  }
  return out;
}

interface Text {
  normal: string;
  significant: { tokens: Set<string>; grams: Set<string> };
  all: { tokens: Set<string>; grams: Set<string> };
}

/** Each text read once (a run compares a line with dozens of entries). */
const texts = new Map<string, Text>();
function textOf(raw: string | null): Text {
  const key = raw ?? '';
  let t = texts.get(key);
  if (!t) {
    const normal = normalise(raw);
    const words = normal === '' ? [] : normal.split(' ');
    const significant = new Set(words.filter((w) => !NOISE_WORDS.has(w) && !/^\p{Nd}{6,}$/u.test(w)));
    const all = new Set(words);
    t = {
      normal,
      significant: { tokens: significant, grams: bigrams(significant) },
      all: { tokens: all, grams: bigrams(all) },
    };
    if (texts.size > 50_000) texts.clear();
    texts.set(key, t);
  }
  return t;
}

function descriptionScore(a: string | null, b: string | null): number {
  const ta = textOf(a);
  const tb = textOf(b);
  if (ta.normal === '' || tb.normal === '') return 0;
  if (ta.normal === tb.normal) return 100;
  const useAll = ta.significant.tokens.size === 0 || tb.significant.tokens.size === 0;
  const [pa, pb] = useAll ? [ta.all, tb.all] : [ta.significant, tb.significant];
  const setA = pa.tokens;
  const setB = pb.tokens;
  const gramsA = pa.grams;
  const gramsB = pb.grams;
  const common = [...setA].filter((t) => setB.has(t)).length;
  const commonGrams = [...gramsA].filter((g) => gramsB.has(g)).length;
  if (common === setA.size && common === setB.size) return 100;
  if (common === 0 && commonGrams === 0) return 0;
  const sim =
    0.35 * (common / (setA.size + setB.size - common)) +
    0.35 * (common / Math.min(setA.size, setB.size)) +
    0.3 * ((2 * commonGrams) / (gramsA.size + gramsB.size));
  return Math.min(99, Math.max(1, Math.floor(sim * 100 + 0.5)));
}

/** 100 when equal, 0 at the limit or beyond, else ⌈100·(limit − diff)/limit⌉ at most 99 (integers). */
function linearFall(diff: bigint, limit: bigint): number {
  if (diff === 0n) return 100;
  if (diff >= limit) return 0;
  const score = (100n * (limit - diff) + limit - 1n) / limit;
  return Number(score > 99n ? 99n : score);
}

const DAY_MS = 86_400_000;
const dayOf = (date: string) =>
  Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;

const FITS: Record<'debit' | 'credit', ReadonlySet<string>> = {
  debit: new Set(['EXPENSE', 'ASSET', 'LIABILITY']),
  credit: new Set(['INCOME', 'ASSET', 'LIABILITY', 'EQUITY']),
};

function businessScore(t: ReferenceTxn, e: ReferenceEntry): number {
  const counters = e.counterAccounts;
  if (counters.length === 0) return 50;
  const fitting = counters.filter((c) => FITS[t.type].has(c.type)).length;
  return fitting === counters.length ? 100 : fitting === 0 ? 50 : 75;
}

function historyScore(history: ReferenceHistory, e: ReferenceEntry): number {
  let best = 0;
  for (const c of e.counterAccounts) {
    if (history.exactAccounts.has(c.id)) return 100;
    best = Math.max(best, history.confidence.get(c.id) ?? 0);
  }
  return best <= 0 ? 0 : Math.min(99, Math.max(1, Math.floor(best * 100 + 0.5)));
}

const NO_HISTORY: ReferenceHistory = { exactAccounts: new Set(), confidence: new Map() };

/** Every candidate pair scored and the pairs assigned one to one, as the definition says. */
export function referenceMatching(
  txns: readonly ReferenceTxn[],
  entries: readonly ReferenceEntry[],
  options: ReferenceOptions,
): { matches: ReferencePair[]; unmatchedTxnIds: string[] } {
  const limit = 50n * 10n ** BigInt(options.digits);
  const pairs: ReferencePair[] = [];
  // entries by day, so that each line looks only at its 61 days (a year of a busy account stays quick)
  const byDay = entries.map((e) => ({ e, day: dayOf(e.entryDate) })).sort((x, y) => x.day - y.day);
  for (const t of txns) {
    const history = options.history?.(t) ?? NO_HISTORY;
    const day = dayOf(t.date);
    let lo = 0;
    let hi = byDay.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byDay[mid]!.day < day - 30) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < byDay.length && byDay[i]!.day <= day + 30; i++) {
      const e = byDay[i]!.e;
      if (e.accountLine.direction !== (t.type === 'debit' ? 'CREDIT' : 'DEBIT')) continue;
      const days = Math.abs(day - byDay[i]!.day);
      if (options.rejected?.get(t.id)?.has(e.id)) continue;
      const a = t.amountMinor < 0n ? -t.amountMinor : t.amountMinor;
      const b = e.accountLine.amountMinor;
      const diff = a > b ? a - b : b - a;
      if (diff >= limit && !(days === 0 && textOf(t.description).normal === textOf(e.memo).normal)) continue;
      const breakdown = {
        amount: linearFall(diff, limit),
        date: linearFall(BigInt(days), 30n),
        description: descriptionScore(t.description, e.memo),
        business: businessScore(t, e),
        history: historyScore(history, e),
      };
      const total = Math.floor(
        (40 * breakdown.amount +
          25 * breakdown.date +
          20 * breakdown.description +
          10 * breakdown.business +
          5 * breakdown.history +
          50) /
          100,
      );
      if (total < options.thresholds.review) continue;
      const status = total >= options.thresholds.autoAccept ? 'auto_accepted' : 'pending_review';
      pairs.push({ txnId: t.id, entryId: e.id, breakdown, total, status, dateDiffDays: days });
    }
  }
  const byId = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  pairs.sort(
    (p, q) =>
      q.total - p.total ||
      p.dateDiffDays - q.dateDiffDays ||
      q.breakdown.amount - p.breakdown.amount ||
      byId(p.txnId, q.txnId) ||
      byId(p.entryId, q.entryId),
  );
  const takenTxns = new Set<string>();
  const takenEntries = new Set<string>();
  const matches: ReferencePair[] = [];
  for (const p of pairs) {
    if (takenTxns.has(p.txnId) || takenEntries.has(p.entryId)) continue;
    takenTxns.add(p.txnId);
    takenEntries.add(p.entryId);
    matches.push(p);
  }
  return { matches, unmatchedTxnIds: txns.filter((t) => !takenTxns.has(t.id)).map((t) => t.id) };
}

// --- a run (server/domain/reconciliation/README.md, "Reruns") ---

/** A bank line in a run's scope, with the match it is pending review in, if any. */
export interface ReferenceRunTxn extends ReferenceTxn {
  readonly pending: { readonly id: string; readonly entryId: string } | undefined;
}

/** A transaction's live match after a run: the one it kept, or a new one of the run. */
export interface ReferenceOutcome {
  entryId: string;
  status: 'auto_accepted' | 'pending_review';
  /** the new match's score and breakdown, or 'kept' for a pending match that stays as it was */
  scored: Pick<ReferencePair, 'total' | 'breakdown'> | 'kept';
}

export interface ReferenceRun {
  summary: { total_transactions: number; auto_accepted: number; pending_review: number; unmatched: number };
  /** transaction id → its live match after the run (absent: none) */
  outcomes: Map<string, ReferenceOutcome>;
  /** pending match id → the transaction whose new match supersedes it */
  superseded: Map<string, string>;
  /** what the payee model learns: an auto-accepted entry's counter accounts, once each, with its bank line */
  learnt: { description: string; accountId: string; type: 'debit' | 'credit'; amountMinor: bigint }[];
}

/**
 * A run, from the definition: the scope's unreconciled bank lines matched against the candidate
 * entries (`referenceMatching`); a pair its line is already pending review with stays as it is;
 * any other pair is a new match (auto-accepted or under review by its total); a pending match
 * whose line or entry a new match takes is superseded by that match; a pending match nothing
 * takes stays pending. The summary counts the lines, the new auto-accepted matches, the matches
 * under review (new and kept), and the rest. The payee model learns each new auto-accepted
 * match's entry's counter accounts, in the order of the lines.
 */
export function referenceRun(
  txns: readonly ReferenceRunTxn[],
  entries: readonly ReferenceEntry[],
  options: ReferenceOptions,
): ReferenceRun {
  const { matches } = referenceMatching(txns, entries, options);
  const pairOf = new Map(matches.map((p) => [p.txnId, p]));
  const outcomes = new Map<string, ReferenceOutcome>();
  const newByEntry = new Map<string, string>();
  const learnt: ReferenceRun['learnt'] = [];
  let autoAccepted = 0;
  let pendingReview = 0;
  for (const t of txns) {
    const p = pairOf.get(t.id);
    if (!p || t.pending?.entryId === p.entryId) continue;
    outcomes.set(t.id, { entryId: p.entryId, status: p.status, scored: { total: p.total, breakdown: p.breakdown } });
    newByEntry.set(p.entryId, t.id);
    if (p.status === 'pending_review') pendingReview += 1;
    else {
      autoAccepted += 1;
      const entry = entries.find((e) => e.id === p.entryId)!;
      for (const id of new Set(entry.counterAccounts.map((c) => c.id)))
        learnt.push({
          description: t.description,
          accountId: id,
          type: t.type,
          amountMinor: t.amountMinor < 0n ? -t.amountMinor : t.amountMinor,
        });
    }
  }
  const superseded = new Map<string, string>();
  for (const t of txns) {
    if (!t.pending) continue;
    const by = outcomes.has(t.id) ? t.id : newByEntry.get(t.pending.entryId);
    if (by !== undefined) superseded.set(t.pending.id, by);
    else {
      outcomes.set(t.id, { entryId: t.pending.entryId, status: 'pending_review', scored: 'kept' });
      pendingReview += 1;
    }
  }
  return {
    summary: {
      total_transactions: txns.length,
      auto_accepted: autoAccepted,
      pending_review: pendingReview,
      unmatched: txns.length - autoAccepted - pendingReview,
    },
    outcomes,
    superseded,
    learnt,
  };
}
