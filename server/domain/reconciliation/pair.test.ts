import { describe, expect, it } from 'vitest';
import { prepareDescription, scoreDescriptionPrepared } from './description.ts';
import { prepareEntry, prepareTxn, scorePair, scorePrepared, sharedPreparation } from './pair.ts';
import { PayeeModel } from './payee-model.ts';
import { entry, txn, USD } from './test-books.ts';

describe('scorePair', () => {
  const model = PayeeModel.fromExamples([{ description: 'TESCO STORES 3021', accountId: 'groceries' }]);

  it('when everything agrees, then 100 and auto_accepted', () => {
    const scored = scorePair(
      txn('t1', '2024-03-12', 'CARD PAYMENT TESCO STORES 123456789', 42_50n),
      entry('e1', '2024-03-12', 'Tesco stores', 42_50n),
      { digits: USD, payeeModel: model },
    );
    expect(scored.breakdown).toEqual({ amount: 100, date: 100, description: 100, business: 100, history: 100 });
    expect(scored.total).toBe(100);
    expect(scored.status).toBe('auto_accepted');
    expect(scored.dateDiffDays).toBe(0);
    expect(scored.txnId).toBe('t1');
    expect(scored.entryId).toBe('e1');
  });

  it('when only the amount and the direction agree, a few days apart, then pending_review', () => {
    // amount 100, date 4 days → 87, description 0, business 100, history 0 (no model)
    const scored = scorePair(
      txn('t1', '2024-03-12', 'SQ *BLUE BOTTLE', 4_20n),
      entry('e1', '2024-03-16', 'Gym', 4_20n),
      { digits: USD },
    );
    expect(scored.breakdown).toEqual({ amount: 100, date: 87, description: 0, business: 100, history: 0 });
    expect(scored.total).toBe(72); // 40 + 21.75 + 0 + 10 + 0 = 71.75 → 72
    expect(scored.status).toBe('pending_review');
  });

  it('when the direction is wrong and the amount is far off, then unmatched', () => {
    const scored = scorePair(
      txn('t1', '2024-03-12', 'Salary', 2_000_00n, 'credit'),
      entry('e1', '2024-03-12', 'Rent', 1_000_00n, 'CREDIT'),
      { digits: USD },
    );
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
    const scored = scorePair(txn('t1', '2024-03-12', 'x', -42_50n), entry('e1', '2024-03-12', 'x', 42_50n), {
      digits: USD,
    });
    expect(scored.breakdown.amount).toBe(100);
  });

  it('when prepared forms are scored, then the result equals raw scoring', () => {
    const t = txn('t1', '2024-02-28', 'CARD PAYMENT TESCO EXPRESS 123456', 10_00n);
    const e = entry('e1', '2024-03-02', 'Tesco', 12_34n);
    expect(scorePrepared(prepareTxn(t, model), prepareEntry(e), USD)).toEqual(
      scorePair(t, e, { digits: USD, payeeModel: model }),
    );
  });
});

describe('prepareEntry', () => {
  it('when entries share one list of counter accounts, then they share its ids and business scores, each as scored alone', () => {
    const counters = [
      { id: 'groceries', type: 'EXPENSE' as const },
      { id: 'savings', type: 'ASSET' as const },
      { id: 'groceries', type: 'EXPENSE' as const },
    ];
    const out = {
      id: 'e1',
      entryDate: '2024-03-12',
      memo: 'Tesco',
      accountLine: { direction: 'CREDIT' as const, amountMinor: 42_50n },
      counterAccounts: counters,
    };
    const alsoOut = { ...out, id: 'e2', accountLine: { direction: 'CREDIT' as const, amountMinor: 9_99n } };
    const back = { ...out, id: 'e3', accountLine: { direction: 'DEBIT' as const, amountMinor: 42_50n } };
    const shared = sharedPreparation();
    const [a, b, c] = [out, alsoOut, back].map((e) => prepareEntry(e, shared));
    expect(a!.counterAccountIds).toEqual(['groceries', 'savings']);
    expect(b!.counterAccountIds).toBe(a!.counterAccountIds);
    expect(b!.business).toBe(a!.business);
    expect(a!.business).toEqual({
      debit: scorePair(txn('t', '2024-03-12', 'x', 1n, 'debit'), out, { digits: USD }).breakdown.business,
      credit: 0,
    });
    expect(c!.business).toEqual({
      debit: 0,
      credit: scorePair(txn('t', '2024-03-12', 'x', 1n, 'credit'), back, { digits: USD }).breakdown.business,
    });
    // the same accounts in another list are prepared on their own, to the same result
    expect(prepareEntry({ ...out, counterAccounts: [...counters] }, shared).business).toEqual(a!.business);
    expect(shared.counters.size).toBe(2);
  });
});

describe('scoring cost', () => {
  it('when 100,000 prepared pairs are scored, then it completes (speed targets live in benchmarks)', () => {
    const model = PayeeModel.fromExamples(
      Array.from({ length: 2_000 }, (_, i) => ({
        description: `MERCHANT${i % 300} CITY${i % 17}`,
        accountId: `acc${i % 40}`,
      })),
    );
    const txns = Array.from({ length: 1_000 }, (_, i) =>
      prepareTxn(
        txn(
          `t${i}`,
          `2024-05-${String((i % 28) + 1).padStart(2, '0')}`,
          `CARD PAYMENT MERCHANT${i % 300} CITY${i % 17} ${100000 + i}`,
          BigInt(1_000 + i),
        ),
        model,
      ),
    );
    const entries = Array.from({ length: 100 }, (_, i) =>
      prepareEntry(
        entry(
          `e${i}`,
          `2024-05-${String((i % 28) + 1).padStart(2, '0')}`,
          `Merchant${i * 3} lunch`,
          BigInt(1_000 + i * 7),
          'CREDIT',
          [[`acc${i % 40}`, 'EXPENSE']],
        ),
      ),
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
