import { DomainError } from '../errors.ts';
import type {
  AccountLine,
  AccountType,
  BankTxn,
  CandidateEntry,
  Direction,
  MatchStatus,
  ScoreBreakdown,
  Thresholds,
} from './types.ts';

/** Amount differences of this many whole currency units or more score 0. */
const AMOUNT_LIMIT_UNITS = 50n;
/** Dates this many calendar days apart or more score 0. */
const DATE_LIMIT_DAYS = 30;

const SCORE_WEIGHTS = Object.freeze({
  amount: 40,
  date: 25,
  description: 20,
  business: 10,
  history: 5,
});

export const DEFAULT_THRESHOLDS: Thresholds = Object.freeze({ autoAccept: 85, review: 60 });

const THRESHOLD_ENV = Object.freeze({
  autoAccept: 'RECONCILIATION_AUTO_ACCEPT_THRESHOLD',
  review: 'RECONCILIATION_REVIEW_THRESHOLD',
});

// ---------------------------------------------------------------------------------------------
// Linear falls, shared rounding rule
// ---------------------------------------------------------------------------------------------

/**
 * 100·(1 − diff/limit) as an integer, exactly (bigint arithmetic), for 0 ≤ diff:
 * - diff = 0 → 100; diff ≥ limit → 0;
 * - strictly between: the ceiling, capped at 99. So 100 means "exactly equal", 0 means "at or
 *   past the limit", and every difference in between gets 1..99 (a difference of 49.99 units
 *   scores 1, not 0). Exact fractions are kept: 25 of 50 units → 50.
 * Monotone non-increasing in diff.
 */
function linearFallBig(diff: bigint, limit: bigint): number {
  if (diff <= 0n) return 100;
  if (diff >= limit) return 0;
  const ceil = (100n * (limit - diff) + limit - 1n) / limit;
  return Math.min(99, Number(ceil));
}

/** The same rule for small non-negative integers (days). */
function linearFall(diff: number, limit: number): number {
  if (diff <= 0) return 100;
  if (diff >= limit) return 0;
  return Math.min(99, Math.floor((100 * (limit - diff) + limit - 1) / limit));
}

// ---------------------------------------------------------------------------------------------
// amount
// ---------------------------------------------------------------------------------------------

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

function assertDigits(digits: number): void {
  if (!Number.isInteger(digits) || digits < 0 || digits > 18) {
    throw new RangeError(`minor-unit digits must be an integer 0..18, got ${digits}`);
  }
}

/** The amount difference (in minor units) at which the amount score reaches 0: 50·10^digits. */
export function amountLimitMinor(digits: number): bigint {
  assertDigits(digits);
  return AMOUNT_LIMIT_UNITS * 10n ** BigInt(digits);
}

/**
 * Amount score of two amounts in minor units of one currency with `digits` minor-unit digits:
 * 100 when equal, falling linearly to 0 at a difference of 50 currency units or more (rounding:
 * see `linearFallBig`). The values are compared as given; callers pass magnitudes (the direction
 * is the business dimension's concern).
 */
export function scoreAmount(aMinor: bigint, bMinor: bigint, digits: number): number {
  return linearFallBig(abs(aMinor - bMinor), amountLimitMinor(digits));
}

// ---------------------------------------------------------------------------------------------
// date
// ---------------------------------------------------------------------------------------------

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/**
 * Day number of a proleptic-Gregorian `YYYY-MM-DD` date (days since 1970-01-01), computed with
 * integer arithmetic (H. Hinnant's days_from_civil), so neither time zones nor `Date`'s two-digit
 * year quirk can shift a day. Throws RangeError on anything that is not a real calendar date.
 */
export function dayNumber(date: string): number {
  const m = DATE_PATTERN.exec(date);
  if (!m) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  let y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const monthDays = mo === 2 && isLeapYear(y) ? 29 : MONTH_DAYS[mo - 1];
  if (monthDays === undefined || d < 1 || d > monthDays) {
    throw new RangeError(`not a calendar date: ${date}`);
  }
  if (mo <= 2) y -= 1;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Absolute difference in calendar days between two `YYYY-MM-DD` dates. */
export function daysApart(a: string, b: string): number {
  return Math.abs(dayNumber(a) - dayNumber(b));
}

/** Date score from a day difference (sign ignored): 100 same day, linearly to 0 at 30 days. */
export function scoreDays(days: number): number {
  if (!Number.isInteger(days)) throw new RangeError(`day difference must be an integer, got ${days}`);
  return linearFall(Math.abs(days), DATE_LIMIT_DAYS);
}

/** Date score of two `YYYY-MM-DD` dates: 100 same day, linearly to 0 at 30 days or more apart. */
export function scoreDate(a: string, b: string): number {
  return scoreDays(daysApart(a, b));
}

// ---------------------------------------------------------------------------------------------
// business
// ---------------------------------------------------------------------------------------------

/** Counter-account types that fit money going out of the statement's account. */
const MONEY_OUT_COUNTER_TYPES: ReadonlySet<AccountType> = new Set<AccountType>(['EXPENSE', 'ASSET', 'LIABILITY']);
/** Counter-account types that fit money coming into the statement's account. */
const MONEY_IN_COUNTER_TYPES: ReadonlySet<AccountType> = new Set<AccountType>([
  'INCOME',
  'ASSET',
  'LIABILITY',
  'EQUITY',
]);

/** Business score when the direction matches and some, but not all, counter accounts fit. */
const BUSINESS_PARTIAL_FIT = 75;
/** Business score when the direction matches but no counter account fits, or there is none. */
const BUSINESS_NO_FIT = 50;

/** The line direction on the statement's account that a bank transaction corresponds to. */
export function expectedLineDirection(type: BankTxn['type']): Direction {
  // Bank `debit` = money out of the account = CREDIT line on it; bank `credit` = DEBIT line.
  return type === 'debit' ? 'CREDIT' : 'DEBIT';
}

/**
 * Business score:
 * - 0 when the entry's line on the statement's account has the wrong direction;
 * - 100 when the direction matches and every counter account fits (money out to
 *   EXPENSE/ASSET/LIABILITY, money in from INCOME/ASSET/LIABILITY/EQUITY);
 * - 75 when the direction matches and only some counter accounts fit;
 * - 50 when the direction matches and none fits, or the entry has no counter line.
 */
export function scoreBusiness(
  txn: Pick<BankTxn, 'type'>,
  entry: Pick<CandidateEntry, 'accountLine' | 'counterAccounts'>,
): number {
  if (entry.accountLine.direction !== expectedLineDirection(txn.type)) return 0;
  const fits = txn.type === 'debit' ? MONEY_OUT_COUNTER_TYPES : MONEY_IN_COUNTER_TYPES;
  const counters = entry.counterAccounts;
  if (counters.length === 0) return BUSINESS_NO_FIT;
  let fitting = 0;
  for (const c of counters) if (fits.has(c.type)) fitting += 1;
  if (fitting === counters.length) return 100;
  return fitting === 0 ? BUSINESS_NO_FIT : BUSINESS_PARTIAL_FIT;
}

/**
 * Nets several lines of one entry on the statement's account into one `AccountLine`, in signed
 * form (DEBIT positive, CREDIT negative). A net of zero comes out as DEBIT 0.
 */
export function netAccountLines(lines: readonly AccountLine[]): AccountLine {
  let net = 0n;
  for (const l of lines) net += l.direction === 'DEBIT' ? abs(l.amountMinor) : -abs(l.amountMinor);
  return net < 0n ? { direction: 'CREDIT', amountMinor: -net } : { direction: 'DEBIT', amountMinor: net };
}

// ---------------------------------------------------------------------------------------------
// total and classification
// ---------------------------------------------------------------------------------------------

function assertDimension(name: string, v: number): void {
  if (!Number.isInteger(v) || v < 0 || v > 100) {
    throw new RangeError(`score ${name} must be an integer 0..100, got ${v}`);
  }
}

/**
 * round(0.40·amount + 0.25·date + 0.20·description + 0.10·business + 0.05·history), exactly:
 * the weighted sum is an integer in hundredths, (40a + 25d + 20s + 10b + 5h), rounded half up
 * with integer division, so x.5 always goes up and no float error can move a boundary.
 */
export function totalScore(b: ScoreBreakdown): number {
  assertDimension('amount', b.amount);
  assertDimension('date', b.date);
  assertDimension('description', b.description);
  assertDimension('business', b.business);
  assertDimension('history', b.history);
  const hundredths =
    SCORE_WEIGHTS.amount * b.amount +
    SCORE_WEIGHTS.date * b.date +
    SCORE_WEIGHTS.description * b.description +
    SCORE_WEIGHTS.business * b.business +
    SCORE_WEIGHTS.history * b.history;
  return Math.floor((hundredths + 50) / 100);
}

function thresholdProblem(name: string, v: unknown): string | null {
  if (typeof v !== 'number' || !Number.isInteger(v)) return `${name} must be an integer`;
  if (v < 0 || v > 100) return `${name} must be between 0 and 100`;
  return null;
}

/**
 * Checks 0 ≤ review ≤ autoAccept ≤ 100 (integers). Throws DomainError `VALIDATION_ERROR` with
 * field errors `autoAccept` / `review`; returns the thresholds unchanged when valid.
 */
export function validateThresholds(t: Thresholds): Thresholds {
  const errors: { field: string; message: string }[] = [];
  const a = thresholdProblem('autoAccept', t.autoAccept);
  const r = thresholdProblem('review', t.review);
  if (a) errors.push({ field: 'autoAccept', message: a });
  if (r) errors.push({ field: 'review', message: r });
  if (!a && !r && t.review > t.autoAccept) {
    errors.push({ field: 'review', message: 'review must not be above autoAccept' });
  }
  if (errors.length > 0) {
    throw new DomainError(
      'VALIDATION_ERROR',
      `invalid reconciliation thresholds: ${errors.map((e) => e.message).join('; ')}`,
      errors,
    );
  }
  return t;
}

function parseEnvThreshold(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const text = raw.trim();
  if (!/^\d{1,3}$/.test(text)) {
    throw new DomainError('VALIDATION_ERROR', `${name} must be an integer 0..100, got ${JSON.stringify(raw)}`, [
      { field: name, message: 'must be an integer 0..100' },
    ]);
  }
  return Number(text);
}

/**
 * Thresholds from environment values (pass `process.env`; this module reads nothing itself):
 * RECONCILIATION_AUTO_ACCEPT_THRESHOLD (default 85) and RECONCILIATION_REVIEW_THRESHOLD
 * (default 60). Unset or blank → default; anything else must be an integer and the pair must
 * pass `validateThresholds`.
 */
export function thresholdsFromEnv(env: Readonly<Record<string, string | undefined>>): Thresholds {
  return validateThresholds({
    autoAccept: parseEnvThreshold(
      THRESHOLD_ENV.autoAccept,
      env[THRESHOLD_ENV.autoAccept],
      DEFAULT_THRESHOLDS.autoAccept,
    ),
    review: parseEnvThreshold(THRESHOLD_ENV.review, env[THRESHOLD_ENV.review], DEFAULT_THRESHOLDS.review),
  });
}

/** total ≥ autoAccept → auto_accepted; review ≤ total < autoAccept → pending_review; else unmatched. */
export function classify(total: number, thresholds: Thresholds = DEFAULT_THRESHOLDS): MatchStatus {
  validateThresholds(thresholds);
  if (!Number.isFinite(total)) throw new RangeError(`total must be a finite number, got ${total}`);
  if (total >= thresholds.autoAccept) return 'auto_accepted';
  if (total >= thresholds.review) return 'pending_review';
  return 'unmatched';
}
