import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import {
  amountLimitMinor,
  classify,
  dayNumber,
  daysApart,
  DEFAULT_THRESHOLDS,
  netAccountLines,
  scoreAmount,
  scoreBusiness,
  scoreDate,
  scoreDays,
  thresholdsFromEnv,
  totalScore,
  validateThresholds,
} from './scoring.ts';
import type { AccountType, BankTxn, CandidateEntry, Direction, ScoreBreakdown } from './types.ts';

const USD = 2;
const JPY = 0;
const KWD = 3;

describe('scoreAmount', () => {
  it('when the amounts are equal, then 100', () => {
    expect(scoreAmount(12_345n, 12_345n, USD)).toBe(100);
    expect(scoreAmount(0n, 0n, JPY)).toBe(100);
  });

  it('when the difference is exactly 50 units, then 0', () => {
    expect(scoreAmount(10_000n, 15_000n, USD)).toBe(0);
    expect(scoreAmount(15_000n, 10_000n, USD)).toBe(0);
  });

  it('when the difference is more than 50 units, then 0', () => {
    expect(scoreAmount(0n, 5_001n, USD)).toBe(0);
    expect(scoreAmount(0n, 10n ** 30n, USD)).toBe(0);
  });

  it('when the difference is 49.99, then a small positive score (ceiling rounding)', () => {
    expect(scoreAmount(0n, 4_999n, USD)).toBe(1);
  });

  it('when the difference is 25 units, then exactly 50', () => {
    expect(scoreAmount(100_00n, 125_00n, USD)).toBe(50);
    expect(scoreAmount(100n, 75n, JPY)).toBe(50);
    expect(scoreAmount(100_000n, 125_000n, KWD)).toBe(50);
  });

  it('when the difference is one minor unit, then 99 (100 is kept for exact equality)', () => {
    expect(scoreAmount(100n, 101n, USD)).toBe(99);
    expect(scoreAmount(100n, 101n, KWD)).toBe(99);
    expect(scoreAmount(100n, 101n, JPY)).toBe(98); // 1 yen of 50: 100·49/50 = 98 exactly
  });

  it('when in between, then the ceiling of 100·(1 − diff/limit)', () => {
    expect(scoreAmount(0n, 100n, USD)).toBe(98); // 1.00 of 50.00: 98 exactly
    expect(scoreAmount(0n, 101n, USD)).toBe(98); // 97.98 → 98
    expect(scoreAmount(0n, 1_000n, USD)).toBe(80);
    expect(scoreAmount(0n, 3_333n, USD)).toBe(34); // 33.34 → 34
  });

  it('when the currency has no minor unit (JPY), then the limit is 50 yen', () => {
    expect(amountLimitMinor(JPY)).toBe(50n);
    expect(scoreAmount(1_000n, 1_050n, JPY)).toBe(0);
    expect(scoreAmount(1_000n, 1_049n, JPY)).toBe(2);
    expect(scoreAmount(1_000n, 1_010n, JPY)).toBe(80);
  });

  it('when the currency has three digits (KWD), then the limit is 50.000', () => {
    expect(amountLimitMinor(KWD)).toBe(50_000n);
    expect(scoreAmount(0n, 50_000n, KWD)).toBe(0);
    expect(scoreAmount(0n, 49_999n, KWD)).toBe(1);
    expect(scoreAmount(0n, 12_500n, KWD)).toBe(75);
  });

  it('when digits are not an integer in 0..18, then it throws', () => {
    expect(() => scoreAmount(1n, 1n, -1)).toThrow(RangeError);
    expect(() => scoreAmount(1n, 1n, 2.5)).toThrow(RangeError);
    expect(() => scoreAmount(1n, 1n, 19)).toThrow(RangeError);
  });

  it('when any amounts are scored, then the score is an integer 0..100, symmetric and non-increasing in the difference', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.bigInt({ min: 0n, max: 10n ** 8n }),
        fc.bigInt({ min: 0n, max: 10n ** 8n }),
        fc.integer({ min: 0, max: 4 }),
        (a, d1, d2, digits) => {
          const s1 = scoreAmount(a, a + d1, digits);
          expect(Number.isInteger(s1)).toBe(true);
          expect(s1).toBeGreaterThanOrEqual(0);
          expect(s1).toBeLessThanOrEqual(100);
          expect(scoreAmount(a + d1, a, digits)).toBe(s1);
          const s2 = scoreAmount(a, a + d2, digits);
          if (d1 <= d2) expect(s1).toBeGreaterThanOrEqual(s2);
          expect(s1 === 100).toBe(d1 === 0n);
          expect(s1 === 0).toBe(d1 >= amountLimitMinor(digits));
        },
      ),
    );
  });
});

describe('scoreDate', () => {
  it('when the dates are the same day, then 100', () => {
    expect(scoreDate('2024-05-17', '2024-05-17')).toBe(100);
  });

  it('when the dates are 30 days apart or more, then 0', () => {
    expect(scoreDate('2024-05-01', '2024-05-31')).toBe(0);
    expect(scoreDate('2024-05-31', '2024-05-01')).toBe(0);
    expect(scoreDate('2024-05-01', '2024-06-01')).toBe(0);
    expect(scoreDate('2020-01-01', '2024-01-01')).toBe(0);
  });

  it('when the dates are 29 days apart, then a small positive score', () => {
    expect(scoreDate('2024-05-01', '2024-05-30')).toBe(4); // 3.33 → 4
  });

  it('when in between, then the ceiling of 100·(1 − days/30), capped at 99', () => {
    expect(scoreDate('2024-05-01', '2024-05-02')).toBe(97); // 96.67
    expect(scoreDate('2024-05-01', '2024-05-04')).toBe(90);
    expect(scoreDate('2024-05-01', '2024-05-16')).toBe(50);
    expect(scoreDays(-15)).toBe(50);
  });

  it('when the dates straddle a month end, a year end or a leap day, then calendar days count', () => {
    expect(daysApart('2024-01-31', '2024-02-01')).toBe(1);
    expect(daysApart('2023-12-31', '2024-01-01')).toBe(1);
    expect(daysApart('2024-02-28', '2024-03-01')).toBe(2); // leap year: 29 Feb in between
    expect(daysApart('2023-02-28', '2023-03-01')).toBe(1);
    expect(daysApart('2024-02-29', '2025-03-01')).toBe(366);
    expect(daysApart('2000-02-28', '2000-03-01')).toBe(2); // 2000 is a leap year
    expect(daysApart('1900-02-28', '1900-03-01')).toBe(1); // 1900 is not
    expect(scoreDate('2023-12-31', '2024-01-01')).toBe(97);
    expect(scoreDate('2024-02-28', '2024-03-01')).toBe(94);
    expect(scoreDate('2024-01-31', '2024-03-01')).toBe(0); // 30 days in a leap year
    expect(scoreDate('2023-01-31', '2023-03-01')).toBe(4); // 29 days otherwise
  });

  it('when a date is not a real YYYY-MM-DD calendar date, then it throws', () => {
    for (const bad of [
      '2023-02-29',
      '2024-13-01',
      '2024-00-10',
      '2024-04-31',
      '2024-1-01',
      '2024-01-01T00:00:00Z',
      '',
      'yesterday',
    ]) {
      expect(() => dayNumber(bad), bad).toThrow(RangeError);
    }
  });

  it('when day numbers are compared with Date.UTC, then they agree (no time-zone drift)', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber('0001-01-01')).toBe(-719162);
    fc.assert(
      fc.property(
        fc.date({ min: new Date(Date.UTC(1000, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true }),
        (d) => {
          const iso = d.toISOString().slice(0, 10);
          expect(dayNumber(iso)).toBe(Math.floor(d.getTime() / 86_400_000));
        },
      ),
    );
  });

  it('when any day difference is scored, then an integer 0..100, non-increasing, 100 only at 0 and 0 from 30', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 400 }), (a, b) => {
        const sa = scoreDays(a);
        expect(Number.isInteger(sa)).toBe(true);
        expect(sa).toBeGreaterThanOrEqual(0);
        expect(sa).toBeLessThanOrEqual(100);
        if (a <= b) expect(sa).toBeGreaterThanOrEqual(scoreDays(b));
        expect(sa === 100).toBe(a === 0);
        expect(sa === 0).toBe(a >= 30);
      }),
    );
  });
});

describe('scoreBusiness', () => {
  const txn = (type: BankTxn['type']): BankTxn => ({
    id: 't',
    date: '2024-01-01',
    description: '',
    amountMinor: 100n,
    type,
  });
  const entry = (direction: Direction, ...types: AccountType[]): CandidateEntry => ({
    id: 'e',
    entryDate: '2024-01-01',
    memo: null,
    accountLine: { direction, amountMinor: 100n },
    counterAccounts: types.map((type, i) => ({ id: `c${i}`, type })),
  });

  it.each([
    // money out: bank debit ↔ CREDIT line
    ['debit', 'CREDIT', 'EXPENSE', 100],
    ['debit', 'CREDIT', 'ASSET', 100],
    ['debit', 'CREDIT', 'LIABILITY', 100],
    ['debit', 'CREDIT', 'INCOME', 50],
    ['debit', 'CREDIT', 'EQUITY', 50],
    ['debit', 'DEBIT', 'EXPENSE', 0],
    ['debit', 'DEBIT', 'ASSET', 0],
    ['debit', 'DEBIT', 'LIABILITY', 0],
    ['debit', 'DEBIT', 'INCOME', 0],
    ['debit', 'DEBIT', 'EQUITY', 0],
    // money in: bank credit ↔ DEBIT line
    ['credit', 'DEBIT', 'INCOME', 100],
    ['credit', 'DEBIT', 'ASSET', 100],
    ['credit', 'DEBIT', 'LIABILITY', 100],
    ['credit', 'DEBIT', 'EQUITY', 100],
    ['credit', 'DEBIT', 'EXPENSE', 50],
    ['credit', 'CREDIT', 'INCOME', 0],
    ['credit', 'CREDIT', 'ASSET', 0],
    ['credit', 'CREDIT', 'LIABILITY', 0],
    ['credit', 'CREDIT', 'EQUITY', 0],
    ['credit', 'CREDIT', 'EXPENSE', 0],
  ] as const)('when the bank says %s and the line is %s against %s, then %i', (type, direction, counter, expected) => {
    expect(scoreBusiness(txn(type), entry(direction, counter))).toBe(expected);
  });

  it('when the direction matches but there is no counter line, then 50', () => {
    expect(scoreBusiness(txn('debit'), entry('CREDIT'))).toBe(50);
    expect(scoreBusiness(txn('credit'), entry('DEBIT'))).toBe(50);
  });

  it('when the direction matches and only some counter accounts fit, then 75', () => {
    expect(scoreBusiness(txn('debit'), entry('CREDIT', 'EXPENSE', 'INCOME'))).toBe(75);
    expect(scoreBusiness(txn('credit'), entry('DEBIT', 'INCOME', 'EXPENSE'))).toBe(75);
  });

  it('when the direction matches and every counter account of a split fits, then 100', () => {
    expect(scoreBusiness(txn('debit'), entry('CREDIT', 'EXPENSE', 'EXPENSE', 'LIABILITY'))).toBe(100);
  });

  it('when the direction is wrong, then 0 whatever the counter accounts', () => {
    expect(scoreBusiness(txn('debit'), entry('DEBIT'))).toBe(0);
    expect(scoreBusiness(txn('credit'), entry('CREDIT', 'EXPENSE', 'INCOME'))).toBe(0);
  });
});

describe('netAccountLines', () => {
  it('when several lines are on the account, then they are netted in signed form', () => {
    expect(netAccountLines([{ direction: 'CREDIT', amountMinor: 500n }])).toEqual({
      direction: 'CREDIT',
      amountMinor: 500n,
    });
    expect(
      netAccountLines([
        { direction: 'CREDIT', amountMinor: 500n },
        { direction: 'DEBIT', amountMinor: 200n },
      ]),
    ).toEqual({ direction: 'CREDIT', amountMinor: 300n });
    expect(
      netAccountLines([
        { direction: 'DEBIT', amountMinor: 100n },
        { direction: 'DEBIT', amountMinor: 50n },
      ]),
    ).toEqual({ direction: 'DEBIT', amountMinor: 150n });
    expect(netAccountLines([])).toEqual({ direction: 'DEBIT', amountMinor: 0n });
  });
});

describe('totalScore', () => {
  const b = (amount: number, date: number, description: number, business: number, history: number): ScoreBreakdown => ({
    amount,
    date,
    description,
    business,
    history,
  });

  it('when every dimension is 100 or 0, then 100 or 0', () => {
    expect(totalScore(b(100, 100, 100, 100, 100))).toBe(100);
    expect(totalScore(b(0, 0, 0, 0, 0))).toBe(0);
  });

  it('when one dimension alone is 100, then its weight', () => {
    expect(totalScore(b(100, 0, 0, 0, 0))).toBe(40);
    expect(totalScore(b(0, 100, 0, 0, 0))).toBe(25);
    expect(totalScore(b(0, 0, 100, 0, 0))).toBe(20);
    expect(totalScore(b(0, 0, 0, 100, 0))).toBe(10);
    expect(totalScore(b(0, 0, 0, 0, 100))).toBe(5);
  });

  it('when the weighted sum is exactly x.5, then it rounds half up', () => {
    expect(totalScore(b(100, 100, 45, 100, 10))).toBe(85); // 84.50
    expect(totalScore(b(100, 78, 0, 0, 0))).toBe(60); // 59.50
    expect(totalScore(b(0, 0, 0, 0, 1))).toBe(0); // 0.05
    expect(totalScore(b(0, 0, 0, 0, 10))).toBe(1); // 0.50
  });

  it('when the weighted sum is just below x.5, then it rounds down', () => {
    expect(totalScore(b(100, 100, 44, 100, 13))).toBe(84); // 84.45
    expect(totalScore(b(100, 77, 0, 0, 4))).toBe(59); // 59.45
  });

  it('when a dimension is not an integer 0..100, then it throws', () => {
    expect(() => totalScore(b(101, 0, 0, 0, 0))).toThrow(RangeError);
    expect(() => totalScore(b(0, -1, 0, 0, 0))).toThrow(RangeError);
    expect(() => totalScore(b(0, 0, 0.5, 0, 0))).toThrow(RangeError);
    expect(() => totalScore(b(0, 0, 0, Number.NaN, 0))).toThrow(RangeError);
  });

  const dim = fc.integer({ min: 0, max: 100 });
  const breakdown = fc.record({ amount: dim, date: dim, description: dim, business: dim, history: dim });

  it('when any breakdown is totalled, then the result is the exactly rounded weighted mean, an integer 0..100', () => {
    fc.assert(
      fc.property(breakdown, (x) => {
        const t = totalScore(x);
        const hundredths = 40 * x.amount + 25 * x.date + 20 * x.description + 10 * x.business + 5 * x.history;
        expect(Number.isInteger(t)).toBe(true);
        expect(t).toBeGreaterThanOrEqual(0);
        expect(t).toBeLessThanOrEqual(100);
        // round half up: t·100 − 50 ≤ hundredths < t·100 + 50
        expect(t * 100 - 50).toBeLessThanOrEqual(hundredths);
        expect(hundredths).toBeLessThan(t * 100 + 50);
      }),
    );
  });

  it('when any one dimension rises, then the total never falls', () => {
    const keys = ['amount', 'date', 'description', 'business', 'history'] as const;
    fc.assert(
      fc.property(breakdown, fc.constantFrom(...keys), dim, (x, key, other) => {
        const lo = Math.min(x[key], other);
        const hi = Math.max(x[key], other);
        expect(totalScore({ ...x, [key]: hi })).toBeGreaterThanOrEqual(totalScore({ ...x, [key]: lo }));
      }),
    );
  });
});

describe('classify', () => {
  it('when the total is exactly 85 or 84 with default thresholds, then auto_accepted or pending_review', () => {
    expect(classify(85)).toBe('auto_accepted');
    expect(classify(84)).toBe('pending_review');
    expect(classify(100)).toBe('auto_accepted');
  });

  it('when the total is exactly 60 or 59 with default thresholds, then pending_review or unmatched', () => {
    expect(classify(60)).toBe('pending_review');
    expect(classify(59)).toBe('unmatched');
    expect(classify(0)).toBe('unmatched');
  });

  it('when breakdowns total exactly 85, 84, 60 and 59, then they are classified by their rounded total', () => {
    const at = (description: number, date = 100, history = 0) =>
      classify(totalScore({ amount: 100, date, description, business: 100, history }), DEFAULT_THRESHOLDS);
    expect(at(50)).toBe('auto_accepted'); // 85.00
    expect(at(45, 100, 10)).toBe('auto_accepted'); // 84.50 → 85
    expect(at(44, 100, 13)).toBe('pending_review'); // 84.45 → 84
    expect(classify(totalScore({ amount: 100, date: 80, description: 0, business: 0, history: 0 }))).toBe(
      'pending_review',
    ); // 60
    expect(classify(totalScore({ amount: 100, date: 78, description: 0, business: 0, history: 0 }))).toBe(
      'pending_review',
    ); // 59.5 → 60
    expect(classify(totalScore({ amount: 100, date: 76, description: 0, business: 0, history: 0 }))).toBe('unmatched'); // 59
  });

  it('when custom thresholds are given, then they decide', () => {
    const t = { autoAccept: 90, review: 70 };
    expect(classify(90, t)).toBe('auto_accepted');
    expect(classify(89, t)).toBe('pending_review');
    expect(classify(70, t)).toBe('pending_review');
    expect(classify(69, t)).toBe('unmatched');
  });

  it('when review equals autoAccept, then there is no review band', () => {
    const t = { autoAccept: 75, review: 75 };
    expect(classify(75, t)).toBe('auto_accepted');
    expect(classify(74, t)).toBe('unmatched');
  });

  it('when thresholds are 0 and 100, then everything is reviewed and only 100 is auto-accepted', () => {
    expect(classify(0, { autoAccept: 100, review: 0 })).toBe('pending_review');
    expect(classify(100, { autoAccept: 100, review: 0 })).toBe('auto_accepted');
  });

  it('when the thresholds are invalid, then a VALIDATION_ERROR domain error names the field', () => {
    const bad = [
      { autoAccept: 60, review: 85 },
      { autoAccept: 101, review: 60 },
      { autoAccept: 85, review: -1 },
      { autoAccept: 85.5, review: 60 },
      { autoAccept: Number.NaN, review: 60 },
    ];
    for (const t of bad) {
      let caught: unknown;
      try {
        classify(70, t);
      } catch (e) {
        caught = e;
      }
      expect(caught, JSON.stringify(t)).toBeInstanceOf(DomainError);
      const err = caught as DomainError;
      expect(err.code).toBe('VALIDATION_ERROR');
      expect(err.errors?.length).toBeGreaterThan(0);
    }
    expect(() => validateThresholds({ autoAccept: 60, review: 85 })).toThrow(/review must not be above autoAccept/);
  });
});

describe('thresholdsFromEnv', () => {
  it('when nothing is set, then the defaults 85 and 60', () => {
    expect(thresholdsFromEnv({})).toEqual({ autoAccept: 85, review: 60 });
    expect(
      thresholdsFromEnv({ RECONCILIATION_AUTO_ACCEPT_THRESHOLD: '', RECONCILIATION_REVIEW_THRESHOLD: ' ' }),
    ).toEqual({ autoAccept: 85, review: 60 });
  });

  it('when the variables are set, then they override', () => {
    expect(
      thresholdsFromEnv({ RECONCILIATION_AUTO_ACCEPT_THRESHOLD: ' 90 ', RECONCILIATION_REVIEW_THRESHOLD: '70' }),
    ).toEqual({ autoAccept: 90, review: 70 });
    expect(thresholdsFromEnv({ RECONCILIATION_REVIEW_THRESHOLD: '50' })).toEqual({ autoAccept: 85, review: 50 });
  });

  it('when a variable is not an integer or the pair is out of order, then VALIDATION_ERROR', () => {
    expect(() => thresholdsFromEnv({ RECONCILIATION_AUTO_ACCEPT_THRESHOLD: 'high' })).toThrow(DomainError);
    expect(() => thresholdsFromEnv({ RECONCILIATION_AUTO_ACCEPT_THRESHOLD: '85.5' })).toThrow(
      /RECONCILIATION_AUTO_ACCEPT_THRESHOLD/,
    );
    expect(() => thresholdsFromEnv({ RECONCILIATION_AUTO_ACCEPT_THRESHOLD: '50' })).toThrow(DomainError);
    expect(() => thresholdsFromEnv({ RECONCILIATION_REVIEW_THRESHOLD: '101' })).toThrow(DomainError);
  });
});
