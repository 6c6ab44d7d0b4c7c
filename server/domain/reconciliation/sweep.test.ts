import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { referenceMatching } from '../../../test/support/reconciliation-reference.ts';
import { addDays } from '../dates.ts';
import { assignOneToOne } from '../../../test/support/assign-one-to-one.ts';
import { prepareEntry, prepareTxn, scorePrepared, sharedPreparation } from './pair.ts';
import type { PreparedEntry, PreparedTxn, ScoredPair } from './pair.ts';
import { PayeeModel } from './payee-model.ts';
import { amountLimitMinor, expectedLineDirection } from './scoring.ts';
import { CANDIDATE_WINDOW_DAYS } from './sweep-ranking.ts';
import { matchInDateOrder } from './sweep.ts';
import type { SweepOptions } from './sweep.ts';
import type { AccountType, BankTxn, CandidateEntry, Thresholds } from './types.ts';
import { byDate, entry, txn, USD } from './test-books.ts';

/** The candidate rule, stated plainly: right direction, within 30 days, not refused, and past 50 units only the same day with the same text. */
function candidateRule(digits: number, rejected: ReadonlyMap<string, ReadonlySet<string>>) {
  const limit = amountLimitMinor(digits);
  return (t: PreparedTxn, e: PreparedEntry) => {
    if (e.entry.accountLine.direction !== expectedLineDirection(t.txn.type)) return false;
    if (Math.abs(t.day - e.day) > CANDIDATE_WINDOW_DAYS) return false;
    if (rejected.get(t.txn.id)?.has(e.entry.id)) return false;
    const diff = t.amountMinor > e.amountMinor ? t.amountMinor - e.amountMinor : e.amountMinor - t.amountMinor;
    return diff < limit || (t.day === e.day && t.description.normalised === e.memo.normalised);
  };
}

/** The rule without any cleverness: score every candidate pair, sort them all, take greedily. */
function everyPairScored(
  txns: readonly BankTxn[],
  entries: readonly CandidateEntry[],
  options: SweepOptions & { thresholds: Thresholds },
) {
  const rejected = options.rejected ?? new Map();
  const isCandidate = candidateRule(options.digits, rejected);
  const shared = sharedPreparation();
  const prepared = entries.map((e) => prepareEntry(e, shared));
  const scored: ScoredPair[] = [];
  for (const t of txns.map((x) => prepareTxn(x, options.payeeModel))) {
    for (const e of prepared)
      if (isCandidate(t, e)) scored.push(scorePrepared(t, e, options.digits, options.thresholds));
  }
  const matches = assignOneToOne(
    scored.filter((p) => p.status !== 'unmatched'),
    { minTotal: options.thresholds.review },
  );
  const matched = new Set(matches.map((m) => m.txnId));
  return { matches, unmatchedTxnIds: txns.filter((t) => !matched.has(t.id)).map((t) => t.id) };
}

/** The matching as its definition states it (test/support/reconciliation-reference.ts, no code of the domain's). */
function byDefinition(
  txns: readonly BankTxn[],
  entries: readonly CandidateEntry[],
  options: SweepOptions & { thresholds: Thresholds },
) {
  const model = options.payeeModel;
  return referenceMatching(txns, entries, {
    digits: options.digits,
    thresholds: options.thresholds,
    rejected: options.rejected,
    history: (t) =>
      model
        ? model.historyEvidence(t.description, {
            type: t.type,
            amountMinor: t.amountMinor < 0n ? -t.amountMinor : t.amountMinor,
          })
        : { exactAccounts: new Set(), confidence: new Map() },
  });
}

/** The result without what the old run did not give, unmatched transactions in id order (the old run took them by date). */
function comparable(result: {
  matches: readonly (ScoredPair & { counterAccountIds?: readonly string[] })[];
  unmatchedTxnIds: readonly string[];
}) {
  return {
    matches: result.matches.map(({ counterAccountIds: _, ...pair }) => pair),
    unmatchedTxnIds: [...result.unmatchedTxnIds].sort(),
  };
}

describe('matchInDateOrder', () => {
  it('when two transactions compete for one entry, then the better keeps it, the other takes its next candidate or stays unmatched', () => {
    const txns = [
      txn('t1', '2024-03-10', 'Rent March', 1_000_00n),
      txn('t2', '2024-03-12', 'Rent', 1_000_00n),
      txn('t3', '2024-03-12', 'Gym', 30_00n),
    ];
    const entries = [
      entry('e1', '2024-03-10', 'Rent March', 1_000_00n, 'CREDIT', [['rent', 'EXPENSE']]),
      entry('e2', '2024-03-20', 'Rent', 1_000_00n, 'CREDIT', [['rent', 'EXPENSE']]),
    ];
    const result = matchInDateOrder(txns, entries, { digits: USD });
    expect(result.matches.map((m) => [m.txnId, m.entryId, m.status])).toEqual([
      ['t1', 'e1', 'auto_accepted'],
      ['t2', 'e2', 'auto_accepted'],
    ]);
    expect(result.unmatchedTxnIds).toEqual(['t3']);
    expect(result.matches[0]!.counterAccountIds).toEqual(['rent']);
  });

  it('when the only candidates score below the review threshold, then the transaction is unmatched', () => {
    const result = matchInDateOrder(
      [txn('t1', '2024-03-10', 'Salary', 100_00n)],
      [entry('e1', '2024-04-08', 'Lunch', 140_00n, 'DEBIT')],
      { digits: USD },
    );
    expect(result.matches).toEqual([]);
    expect(result.unmatchedTxnIds).toEqual(['t1']);
  });

  it('when thresholds are invalid, then the run refuses to start', () => {
    expect(() => matchInDateOrder([], [], { digits: USD, thresholds: { autoAccept: 50, review: 60 } })).toThrow(
      /thresholds/,
    );
  });

  it('when entries do not come in date order, then the run stops rather than miss candidates', () => {
    const entries = [entry('e1', '2024-03-12', 'x', 10_00n), entry('e2', '2024-03-11', 'x', 10_00n)];
    expect(() => matchInDateOrder([txn('t1', '2024-03-11', 'x', 10_00n)], entries, { digits: USD })).toThrow(
      /date order/,
    );
  });

  it('when amounts are 50 units or more apart, then only the same day with the same description is a candidate', () => {
    const thresholds = { autoAccept: 85, review: 40 };
    const t = txn('t1', '2024-03-10', 'Tesco', 200_00n);
    const sameDay = entry('e1', '2024-03-10', 'TESCO', 100_00n);
    const nextDay = entry('e2', '2024-03-11', 'TESCO', 100_00n);
    expect(matchInDateOrder([t], [sameDay], { digits: USD, thresholds }).matches.map((m) => m.breakdown)).toEqual([
      { amount: 0, date: 100, description: 100, business: 100, history: 0 },
    ]);
    expect(matchInDateOrder([t], [nextDay], { digits: USD, thresholds }).matches).toEqual([]);
    expect(
      matchInDateOrder([t], [entry('e3', '2024-03-10', 'Tesco stores', 100_00n)], { digits: USD, thresholds }).matches,
    ).toEqual([]);
  });

  it('when the payee is new, then entries only a learnt payee could lift to the best pair’s level are not looked at', () => {
    // without history a pair scores at most 95: only same-day entries within 1% of the amount can reach it
    const t = txn('t1', '2024-03-10', 'Tesco', 100_00n);
    const nearby = Array.from({ length: 20 }, (_, i) =>
      entry(`n${i}`, addDays('2024-03-10', 1 + (i % 3)), 'Other', BigInt(95_00 + 50 * i)),
    );
    const result = matchInDateOrder([t], byDate([entry('e0', '2024-03-10', 'Tesco', 100_00n), ...nearby]), {
      digits: USD,
    });
    expect(result.matches.map((m) => [m.entryId, m.total])).toEqual([['e0', 95]]);
    expect(result.stats.pairsBounded).toBe(1);
  });

  it('when entries run far past the transactions, then they are read only as far as 30 days past the last one', () => {
    let read = 0;
    function* entries() {
      for (let d = 0; d < 365; d++) {
        read++;
        yield entry(`e${d}`, addDays('2024-01-01', d), 'Shop', BigInt(1000 + d));
      }
    }
    matchInDateOrder([txn('t1', '2024-01-05', 'Shop', 1004n), txn('t2', '2024-02-01', 'Shop', 1031n)], entries(), {
      digits: USD,
    });
    // through 2024-03-02 (day 61), and the one entry after it that says so
    expect(read).toBe(63);
  });

  it('when a year of a busy account is matched, then it holds only a few weeks of entries at a time, and the result is the one the definition gives', () => {
    const words = ['tesco', 'rent', 'gym', 'coffee', 'shell', 'amazon'];
    const entries: CandidateEntry[] = [];
    const txns: BankTxn[] = [];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let d = 0; d < 365; d++) {
      const date = addDays('2024-01-01', d);
      for (let i = 0; i < 40; i++)
        entries.push(
          entry(
            `e${d}-${i}`,
            date,
            `${words[next(6)]!} ${next(3)}`,
            BigInt(100 + next(8000)),
            next(10) === 0 ? 'DEBIT' : 'CREDIT',
          ),
        );
      for (let i = 0; i < 3; i++)
        txns.push(
          txn(
            `t${d}-${i}`,
            addDays(date, next(4)),
            `CARD PAYMENT ${words[next(6)]!.toUpperCase()} ${100000 + next(900000)}`,
            BigInt(100 + next(8000)),
            next(10) === 0 ? 'credit' : 'debit',
          ),
        );
    }
    const thresholds = { autoAccept: 85, review: 60 };
    const result = matchInDateOrder(txns, entries, { digits: USD, thresholds });
    expect(result.stats.entriesRead).toBe(entries.length);
    // the window is ±30 days around the transactions still open: about 100 days of 40 entries
    expect(result.stats.mostEntriesHeld).toBeLessThan(100 * 40);
    expect(comparable(result)).toEqual(comparable(byDefinition(txns, entries, { digits: USD, thresholds })));
  });

  describe('against the plain rule and the old run, on random books', () => {
    const words = ['tesco', 'stores', 'rent', 'gym', 'coffee', 'blue', 'bottle', 'card', 'payment', '123456', 'café'];
    const description = fc.array(fc.constantFrom(...words), { minLength: 0, maxLength: 3 }).map((w) => w.join(' '));
    // a few months, so that windows close and entries are forgotten on the way; ties on purpose
    const day = fc.oneof(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 120 }));
    const amount = fc.oneof(
      fc.constantFrom(1000n, 1001n, 1250n, 4200n, 9999n, 6000n, 0n),
      fc.bigInt({ min: 1n, max: 20_000n }),
      fc.constantFrom(10n ** 15n, 10n ** 15n + 1n, 10n ** 17n),
    );
    const accountType = fc.constantFrom<AccountType>('EXPENSE', 'INCOME', 'ASSET', 'LIABILITY', 'EQUITY');
    const books = fc.record({
      txns: fc.array(fc.record({ day, description, amount, credit: fc.boolean() }), {
        minLength: 0,
        maxLength: 40,
        size: 'max',
      }),
      entries: fc.array(
        fc.record({
          day,
          memo: fc.option(description, { nil: null }),
          amount,
          debit: fc.boolean(),
          counters: fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), accountType), { maxLength: 2 }),
        }),
        { minLength: 0, maxLength: 60, size: 'max' },
      ),
      rejected: fc.array(fc.tuple(fc.nat(39), fc.nat(59)), { maxLength: 20 }),
      examples: fc.array(fc.tuple(description, fc.constantFrom('a', 'b', 'c')), { maxLength: 5 }),
      thresholds: fc.oneof(
        fc.constant({ autoAccept: 85, review: 60 }),
        fc
          .tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }))
          .map(([x, y]) => ({ autoAccept: Math.max(x, y), review: Math.min(x, y) })),
      ),
      digits: fc.constantFrom(2, 2, 0, 3),
      order: fc.array(fc.nat(), { maxLength: 40 }),
    });

    type Books = typeof books extends fc.Arbitrary<infer B> ? B : never;

    function check(b: Books): void {
      const txns = b.txns.map((s, i) =>
        txn(`t${i}`, addDays('2024-01-01', s.day), s.description, s.amount, s.credit ? 'credit' : 'debit'),
      );
      const entries = byDate(
        b.entries.map((s, i) =>
          entry(`e${i}`, addDays('2024-01-01', s.day), s.memo, s.amount, s.debit ? 'DEBIT' : 'CREDIT', s.counters),
        ),
      );
      const rejected = new Map<string, Set<string>>();
      for (const [ti, ei] of b.rejected) rejected.set(`t${ti}`, (rejected.get(`t${ti}`) ?? new Set()).add(`e${ei}`));
      const payeeModel = PayeeModel.fromExamples(b.examples.map(([d, accountId]) => ({ description: d, accountId })));
      const options = { digits: b.digits, thresholds: b.thresholds, payeeModel, rejected };
      // the transactions in any order: the sweep sorts them
      const shuffled = [...txns];
      b.order.forEach((k, i) => {
        const j = k % Math.max(1, shuffled.length);
        if (i < shuffled.length) [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
      });
      const result = matchInDateOrder(shuffled, entries, options);
      const expected = everyPairScored(txns, entries, options);
      expect(comparable(result)).toEqual(comparable(expected));
      expect(comparable(expected)).toEqual(comparable(byDefinition(txns, entries, options)));
      for (const m of result.matches) {
        expect(m.counterAccountIds).toEqual([
          ...new Set(entries.find((e) => e.id === m.entryId)!.counterAccounts.map((c) => c.id)),
        ]);
      }
    }

    it('when any books, refusals, payee history and thresholds are given, then the matches, scores and statuses are exactly those of scoring every pair, and those the definition gives', () => {
      fc.assert(fc.property(books, check), { numRuns: Number(process.env.SWEEP_RUNS ?? 600) });
    });

    it('when the books are full of near-perfect pairs (same payees, learnt history, amounts on the rounding edges), then too', () => {
      // totals crowd the top levels and tie, and bounds sit exactly on the levels: an off-by-one anywhere shows
      const payee = fc.constantFrom('tesco', 'shell', 'rent');
      const text = fc
        .tuple(payee, fc.constantFrom('', 'card payment ', 'pos '), fc.constantFrom('', ' 123456', ' 7'))
        .map(([p, noise, ref]) => `${noise}${p}${ref}`);
      const edge = fc
        .tuple(fc.integer({ min: -40, max: 40 }), fc.constantFrom(-1, 0, 1))
        .map(([k, d]) => BigInt(10_000 + 50 * k + d));
      const near = fc.record({
        txns: fc.array(fc.record({ day: fc.nat(40), description: text, amount: edge, credit: fc.constant(false) }), {
          maxLength: 30,
          size: 'max',
        }),
        entries: fc.array(
          fc.record({
            day: fc.nat(40),
            memo: text.map((t) => t as string | null),
            amount: edge,
            debit: fc.constant(false),
            counters: fc.array(
              fc.tuple(fc.constantFrom('a', 'b'), fc.constantFrom<AccountType>('EXPENSE', 'EXPENSE', 'INCOME')),
              { minLength: 1, maxLength: 2 },
            ),
          }),
          { maxLength: 40, size: 'max' },
        ),
        rejected: fc.array(fc.tuple(fc.nat(29), fc.nat(39)), { maxLength: 5 }),
        examples: fc.array(fc.tuple(text, fc.constantFrom('a', 'b')), { maxLength: 6 }),
        thresholds: fc.constantFrom(
          { autoAccept: 85, review: 60 },
          { autoAccept: 95, review: 90 },
          { autoAccept: 100, review: 75 },
        ),
        digits: fc.constant(2),
        order: fc.array(fc.nat(), { maxLength: 30 }),
      });
      fc.assert(fc.property(near, check), { numRuns: Number(process.env.SWEEP_RUNS ?? 600) });
    });

    it('when many pairs tie exactly (same day, amount and text), then the ids decide as the definition says', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 12 }),
          fc.integer({ min: 1, max: 12 }),
          fc.array(fc.nat(3), { minLength: 24, maxLength: 24 }),
          (nt, ne, days) => {
            const txns = Array.from({ length: nt }, (_, i) =>
              txn(`t${(i * 7) % nt}-${i}`, addDays('2024-05-01', days[i]!), 'Coffee', 450n),
            );
            const entries = byDate(
              Array.from({ length: ne }, (_, i) =>
                entry(`e${(i * 5) % ne}-${i}`, addDays('2024-05-01', days[12 + i]!), 'Coffee', 450n),
              ),
            );
            const options = { digits: USD, thresholds: { autoAccept: 85, review: 60 } };
            expect(comparable(matchInDateOrder(txns, entries, options))).toEqual(
              comparable(byDefinition(txns, entries, options)),
            );
          },
        ),
        { numRuns: 200 },
      );
    });
  });
});
