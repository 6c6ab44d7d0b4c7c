import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareDescription, scoreDescriptionPrepared, type PreparedDescription } from './description.ts';
import { assignOneToOne } from './assignment.ts';
import { matchTransactions, prepareEntry, prepareTxn, scorePair, scorePrepared } from './pair.ts';
import type { PreparedEntry, PreparedTxn } from './pair.ts';
import { PayeeModel } from './payee-model.ts';
import type { AccountType, BankTxn, CandidateEntry, Thresholds } from './types.ts';

const USD = 2;

function txn(id: string, date: string, description: string, amountMinor: bigint, type: BankTxn['type'] = 'debit'): BankTxn {
  return { id, date, description, amountMinor, type };
}

function entry(
  id: string,
  entryDate: string,
  memo: string | null,
  amountMinor: bigint,
  direction: 'DEBIT' | 'CREDIT' = 'CREDIT',
  counters: [string, AccountType][] = [['groceries', 'EXPENSE']],
): CandidateEntry {
  return {
    id,
    entryDate,
    memo,
    accountLine: { direction, amountMinor },
    counterAccounts: counters.map(([cid, type]) => ({ id: cid, type })),
  };
}

describe('scorePair', () => {
  const model = PayeeModel.fromExamples([{ description: 'TESCO STORES 3021', accountId: 'groceries' }]);

  it('when everything agrees, then 100 and auto_accepted', () => {
    const scored = scorePair(txn('t1', '2024-03-12', 'CARD PAYMENT TESCO STORES 123456789', 42_50n), entry('e1', '2024-03-12', 'Tesco stores', 42_50n), { digits: USD, payeeModel: model });
    expect(scored.breakdown).toEqual({ amount: 100, date: 100, description: 100, business: 100, history: 100 });
    expect(scored.total).toBe(100);
    expect(scored.status).toBe('auto_accepted');
    expect(scored.dateDiffDays).toBe(0);
    expect(scored.txnId).toBe('t1');
    expect(scored.entryId).toBe('e1');
  });

  it('when only the amount and the direction agree, a few days apart, then pending_review', () => {
    // amount 100, date 4 days → 87, description 0, business 100, history 0 (no model)
    const scored = scorePair(txn('t1', '2024-03-12', 'SQ *BLUE BOTTLE', 4_20n), entry('e1', '2024-03-16', 'Gym', 4_20n), { digits: USD });
    expect(scored.breakdown).toEqual({ amount: 100, date: 87, description: 0, business: 100, history: 0 });
    expect(scored.total).toBe(72); // 40 + 21.75 + 0 + 10 + 0 = 71.75 → 72
    expect(scored.status).toBe('pending_review');
  });

  it('when the direction is wrong and the amount is far off, then unmatched', () => {
    const scored = scorePair(txn('t1', '2024-03-12', 'Salary', 2_000_00n, 'credit'), entry('e1', '2024-03-12', 'Rent', 1_000_00n, 'CREDIT'), { digits: USD });
    expect(scored.breakdown.business).toBe(0);
    expect(scored.breakdown.amount).toBe(0);
    expect(scored.status).toBe('unmatched');
  });

  it('when custom thresholds are given, then they classify', () => {
    const t = txn('t1', '2024-03-12', 'SQ *BLUE BOTTLE', 4_20n);
    const e = entry('e1', '2024-03-16', 'Gym', 4_20n);
    expect(scorePair(t, e, { digits: USD, thresholds: { autoAccept: 70, review: 50 } }).status).toBe('auto_accepted');
    expect(scorePair(t, e, { digits: USD, thresholds: { autoAccept: 90, review: 80 } }).status).toBe('unmatched');
  });

  it('when the bank amount carries a sign, then its magnitude is compared', () => {
    const scored = scorePair(txn('t1', '2024-03-12', 'x', -42_50n), entry('e1', '2024-03-12', 'x', 42_50n), { digits: USD });
    expect(scored.breakdown.amount).toBe(100);
  });

  it('when prepared forms are scored, then the result equals raw scoring', () => {
    const t = txn('t1', '2024-02-28', 'CARD PAYMENT TESCO EXPRESS 123456', 10_00n);
    const e = entry('e1', '2024-03-02', 'Tesco', 12_34n);
    expect(scorePrepared(prepareTxn(t, model), prepareEntry(e), USD)).toEqual(scorePair(t, e, { digits: USD, payeeModel: model }));
  });
});

describe('matchTransactions', () => {
  it('when two transactions compete for one entry, then the better keeps it, the other takes its next candidate or stays unmatched', () => {
    const t1 = prepareTxn(txn('t1', '2024-03-10', 'Rent March', 1_000_00n));
    const t2 = prepareTxn(txn('t2', '2024-03-12', 'Rent', 1_000_00n));
    const t3 = prepareTxn(txn('t3', '2024-03-12', 'Gym', 30_00n));
    const e1 = prepareEntry(entry('e1', '2024-03-10', 'Rent March', 1_000_00n, 'CREDIT', [['rent', 'EXPENSE']]));
    const e2 = prepareEntry(entry('e2', '2024-03-20', 'Rent', 1_000_00n, 'CREDIT', [['rent', 'EXPENSE']]));
    const candidates = new Map<string, PreparedEntry[]>([
      ['t1', [e1, e2]],
      ['t2', [e1, e2]],
      ['t3', []],
    ]);
    const result = matchTransactions([t1, t2, t3], (t) => candidates.get(t.txn.id) ?? [], { digits: USD });
    expect(result.matches.map((m) => [m.txnId, m.entryId, m.status])).toEqual([
      ['t1', 'e1', 'auto_accepted'],
      ['t2', 'e2', 'auto_accepted'],
    ]);
    expect(result.unmatchedTxnIds).toEqual(['t3']);
  });

  it('when the only candidates score below the review threshold, then the transaction is unmatched', () => {
    const t1 = prepareTxn(txn('t1', '2024-03-10', 'Salary', 100_00n));
    const e1 = prepareEntry(entry('e1', '2024-04-08', 'Lunch', 140_00n, 'DEBIT'));
    const result = matchTransactions([t1], () => [e1], { digits: USD });
    expect(result.matches).toEqual([]);
    expect(result.unmatchedTxnIds).toEqual(['t1']);
  });

  it('when thresholds are invalid, then the run refuses to start', () => {
    expect(() => matchTransactions([], () => [], { digits: USD, thresholds: { autoAccept: 50, review: 60 } })).toThrow(/thresholds/);
  });

  it('when any transactions and candidates are matched, then every id is used at most once and every match is at least pending_review', () => {
    const day = fc.integer({ min: 1, max: 28 }).map((d) => `2024-05-${String(d).padStart(2, '0')}`);
    const word = fc.constantFrom('rent', 'tesco', 'shell', 'gym', 'salary');
    const arbTxn = fc.record({ date: day, word, amount: fc.bigInt({ min: 1n, max: 20_000n }), type: fc.constantFrom('debit' as const, 'credit' as const) });
    const arbEntry = fc.record({ date: day, word, amount: fc.bigInt({ min: 1n, max: 20_000n }), direction: fc.constantFrom('DEBIT' as const, 'CREDIT' as const) });
    fc.assert(
      fc.property(fc.array(arbTxn, { maxLength: 8 }), fc.array(arbEntry, { maxLength: 8 }), (ts, es) => {
        const txns = ts.map((t, i) => prepareTxn(txn(`t${i}`, t.date, t.word, t.amount, t.type)));
        const entries = es.map((e, i) => prepareEntry(entry(`e${i}`, e.date, e.word, e.amount, e.direction)));
        const result = matchTransactions(txns, () => entries, { digits: USD });
        expect(new Set(result.matches.map((m) => m.txnId)).size).toBe(result.matches.length);
        expect(new Set(result.matches.map((m) => m.entryId)).size).toBe(result.matches.length);
        for (const m of result.matches) expect(m.total).toBeGreaterThanOrEqual(60);
        expect(result.matches.length + result.unmatchedTxnIds.length).toBe(txns.length);
      }),
    );
  });
});

describe('scoring cost', () => {
  it('when 100,000 prepared pairs are scored, then it completes (speed targets live in benchmarks)', () => {
    const model = PayeeModel.fromExamples(Array.from({ length: 2_000 }, (_, i) => ({ description: `MERCHANT${i % 300} CITY${i % 17}`, accountId: `acc${i % 40}` })));
    const txns = Array.from({ length: 1_000 }, (_, i) =>
      prepareTxn(txn(`t${i}`, `2024-05-${String((i % 28) + 1).padStart(2, '0')}`, `CARD PAYMENT MERCHANT${i % 300} CITY${i % 17} ${100000 + i}`, BigInt(1_000 + i)), model),
    );
    const entries = Array.from({ length: 100 }, (_, i) =>
      prepareEntry(entry(`e${i}`, `2024-05-${String((i % 28) + 1).padStart(2, '0')}`, `Merchant${i * 3} lunch`, BigInt(1_000 + i * 7), 'CREDIT', [[`acc${i % 40}`, 'EXPENSE']])),
    );
    let sum = 0;
    let descriptions = 0;
    for (const t of txns) {
      for (const e of entries) {
        sum += scorePrepared(t, e, USD).total;
        descriptions += scoreDescriptionPrepared(t.description, e.memo);
      }
    }
    expect(sum).toBeGreaterThan(0);
    expect(descriptions).toBeGreaterThanOrEqual(0);
    expect(prepareDescription('x').normalised).toBe('x');
  });
});

describe('matchTransactions, scoring level by level', () => {
  /** The plain way: score every candidate pair, keep those at review or above, assign from one full sort. */
  function everyPairScored(txns: PreparedTxn[], candidatesFor: (t: PreparedTxn) => PreparedEntry[], digits: number, thresholds: Thresholds) {
    const scored = txns.flatMap((t) => candidatesFor(t).map((e) => scorePrepared(t, e, digits, thresholds))).filter((p) => p.status !== 'unmatched');
    const matches = assignOneToOne(scored, { minTotal: thresholds.review });
    const matched = new Set(matches.map((m) => m.txnId));
    return { matches, unmatchedTxnIds: txns.filter((t) => !matched.has(t.txn.id)).map((t) => t.txn.id) };
  }

  const words = ['tesco', 'stores', 'rent', 'gym', 'coffee', 'blue', 'bottle', 'card', 'payment', '123456'];
  const description = fc.array(fc.constantFrom(...words), { minLength: 0, maxLength: 3 }).map((w) => w.join(' '));
  const day = fc.integer({ min: 0, max: 40 }).map((d) => `2024-03-${String(1 + (d % 28)).padStart(2, '0')}`);
  const amount = fc.oneof(fc.constantFrom(1000n, 1001n, 1250n, 4200n, 9999n), fc.bigInt({ min: 1n, max: 20_000n }));
  const accountType = fc.constantFrom<AccountType>('EXPENSE', 'INCOME', 'ASSET', 'LIABILITY', 'EQUITY');

  it('when any transactions, candidates, payee history and thresholds are given, then the result equals scoring every pair', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ day, description, amount, credit: fc.boolean() }), { minLength: 1, maxLength: 12 }),
        fc.array(
          fc.record({ day, memo: fc.option(description, { nil: null }), amount, debit: fc.boolean(), counters: fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), accountType), { maxLength: 2 }) }),
          { minLength: 1, maxLength: 14 },
        ),
        fc.array(fc.array(fc.nat(13), { maxLength: 14 }), { minLength: 12, maxLength: 12 }),
        fc.array(fc.tuple(description, fc.constantFrom('a', 'b', 'c')), { maxLength: 4 }),
        fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 })).map(([x, y]) => ({ autoAccept: Math.max(x, y), review: Math.min(x, y) })),
        (txnSpecs, entrySpecs, candidateLists, examples, thresholds) => {
          const model = PayeeModel.fromExamples(examples.map(([d, accountId]) => ({ description: d, accountId })));
          const txns = txnSpecs.map((s, i) => prepareTxn(txn(`t${i}`, s.day, s.description, s.amount, s.credit ? 'credit' : 'debit'), model));
          const memos = new Map<string, PreparedDescription>();
          const entries = entrySpecs.map((s, i) => prepareEntry(entry(`e${i}`, s.day, s.memo, s.amount, s.debit ? 'DEBIT' : 'CREDIT', s.counters), memos));
          const candidatesFor = (t: PreparedTxn) => [...new Set(candidateLists[Number(t.txn.id.slice(1))]!.map((k) => entries[k % entries.length]!))];
          expect(matchTransactions(txns, candidatesFor, { digits: USD, thresholds })).toEqual(everyPairScored(txns, candidatesFor, USD, thresholds));
        },
      ),
      { numRuns: 400 },
    );
  });
});
