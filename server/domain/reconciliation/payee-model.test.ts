import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bestHistoryScore,
  EMPTY_HISTORY_EVIDENCE,
  PayeeModel,
  scoreHistory,
  scoreHistoryPrepared,
} from './payee-model.ts';
import type { PayeeExample } from './payee-model.ts';

const examples: PayeeExample[] = [
  { description: 'CARD PAYMENT TESCO STORES 3021 12/03', accountId: 'groceries' },
  { description: 'CARD PAYMENT TESCO STORES 4410 19/03', accountId: 'groceries' },
  { description: 'CARD PAYMENT TESCO STORES 3021 26/03', accountId: 'groceries' },
  { description: 'SHELL 1234 LONDON', accountId: 'fuel' },
  { description: 'TESCO PETROL 77', accountId: 'fuel' },
  { description: 'NETFLIX.COM 123456789', accountId: 'subscriptions' },
  { description: 'ACME LTD SALARY', accountId: 'salary' },
];

function sum(xs: readonly { confidence: number }[]): number {
  return xs.reduce((s, x) => s + x.confidence, 0);
}

describe('PayeeModel', () => {
  it('when examples are learnt, then the account they went to ranks first', () => {
    const model = PayeeModel.fromExamples(examples);
    expect(model.size).toBe(7);
    expect(model.predict('TESCO STORES 9999 01/04')[0]?.accountId).toBe('groceries');
    expect(model.predict('Shell station')[0]?.accountId).toBe('fuel');
    expect(model.predict('tesco petrol')[0]?.accountId).toBe('fuel');
    expect(model.predict('Netflix')[0]?.accountId).toBe('subscriptions');
  });

  it('when a description shares tokens with several accounts, then all of them are ranked, best first, ties by id', () => {
    const model = PayeeModel.fromExamples(examples);
    const ranked = model.predict('TESCO');
    expect(ranked.map((p) => p.accountId)).toEqual(['groceries', 'fuel']);
    expect(ranked[0]?.confidence).toBeGreaterThan(ranked[1]?.confidence ?? 1);
    expect(model.predict('TESCO', 1)).toHaveLength(1);

    const tie = PayeeModel.fromExamples([
      { description: 'shop', accountId: 'b' },
      { description: 'shop', accountId: 'a' },
    ]);
    const both = tie.predict('shop');
    expect(both.map((p) => p.accountId)).toEqual(['a', 'b']);
    expect(both[0]?.confidence).toBe(both[1]?.confidence);
  });

  it('when nothing of the description is known, then no prediction', () => {
    const model = PayeeModel.fromExamples(examples);
    expect(model.predict('Unknown Merchant')).toEqual([]);
    expect(model.predict('')).toEqual([]);
    expect(new PayeeModel().predict('Tesco')).toEqual([]);
  });

  it('when a payee was seen once, then its confidence is damped below 0.5', () => {
    const model = PayeeModel.fromExamples([{ description: 'Netflix', accountId: 'subscriptions' }]);
    const [top] = model.predict('Netflix');
    expect(top?.accountId).toBe('subscriptions');
    expect(top?.confidence).toBeGreaterThan(0);
    expect(top?.confidence).toBeLessThanOrEqual(0.5);
  });

  it('when the same payee is seen more often, then its confidence rises towards 1 but never reaches it', () => {
    const model = new PayeeModel();
    model.learn('Rent to landlord', 'other');
    let previous = 0;
    for (let n = 1; n <= 30; n++) {
      model.learn('Netflix', 'subscriptions');
      const c = model.predict('Netflix')[0]?.confidence ?? 0;
      expect(c).toBeGreaterThan(previous);
      expect(c).toBeLessThan(1);
      previous = c;
    }
    expect(previous).toBeGreaterThan(0.9);
  });

  it('when predictions are made, then confidences are in [0, 1] and sum to at most 1', () => {
    const word = fc.constantFrom(
      'tesco',
      'stores',
      'shell',
      'petrol',
      'netflix',
      'acme',
      'ltd',
      'london',
      'amazon',
      'uber',
      'eats',
      '1234',
    );
    const desc = fc.array(word, { minLength: 0, maxLength: 4 }).map((w) => w.join(' '));
    const account = fc.constantFrom('a', 'b', 'c', 'd', 'e');
    fc.assert(
      fc.property(
        fc.array(fc.record({ description: desc, accountId: account }), { maxLength: 40 }),
        desc,
        (rows, query) => {
          const model = PayeeModel.fromExamples(rows);
          const ranked = model.predict(query);
          for (const p of ranked) {
            expect(p.confidence).toBeGreaterThan(0);
            expect(p.confidence).toBeLessThanOrEqual(1);
          }
          expect(sum(ranked)).toBeLessThanOrEqual(1 + 1e-12);
          for (let i = 1; i < ranked.length; i++)
            expect(ranked[i - 1]?.confidence).toBeGreaterThanOrEqual(ranked[i]?.confidence ?? 0);
        },
      ),
    );
  });

  it('when the same examples are learnt in another order, then predictions are identical to the last bit', () => {
    const word = fc.constantFrom('tesco', 'stores', 'shell', 'petrol', 'netflix', 'acme', 'ltd');
    const row = fc.record({
      description: fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
      accountId: fc.constantFrom('a', 'b', 'c'),
    });
    fc.assert(
      fc.property(
        fc
          .array(row, { maxLength: 30 })
          .chain((rows) => fc.tuple(fc.constant(rows), fc.shuffledSubarray(rows, { minLength: rows.length }))),
        ([rows, shuffled]) => {
          const a = PayeeModel.fromExamples(rows);
          const b = PayeeModel.fromExamples(shuffled);
          for (const q of ['tesco', 'tesco petrol', 'acme ltd stores', 'netflix shell'])
            expect(b.predict(q)).toEqual(a.predict(q));
        },
      ),
    );
  });

  it('when a description has no payee token, then learning it is refused', () => {
    const model = new PayeeModel();
    expect(model.learn('CARD PAYMENT 123456 01/02', 'x')).toBe(false);
    expect(model.size).toBe(0);
  });

  it('when a payee is known by its key, then knownPayee says so whatever the numbers and noise', () => {
    const model = PayeeModel.fromExamples(examples);
    expect(model.knownPayee('Tesco Stores 1111 02/05')).toBe(true);
    expect(model.knownPayee('TESCO EXPRESS')).toBe(false);
    expect(model.knownPayee('123456')).toBe(false);
    expect([...model.payeeAccounts('tesco stores')]).toEqual([['groceries', 3]]);
  });

  it('when an example is forgotten, then the model is as if it had never been learnt', () => {
    const base = PayeeModel.fromExamples(examples);
    const model = PayeeModel.fromExamples(examples);
    model.learn('Uber Eats', 'restaurants');
    expect(model.predict('uber')[0]?.accountId).toBe('restaurants');
    expect(model.forget('UBER EATS 01/02', 'restaurants')).toBe(true);
    expect(model.toState()).toEqual(base.toState());
    expect(model.predict('uber')).toEqual([]);
    expect(model.size).toBe(base.size);
  });

  it('when forgetting an example that was never learnt, then false and nothing changes', () => {
    const model = PayeeModel.fromExamples(examples);
    const before = model.toState();
    expect(model.forget('Tesco stores', 'fuel')).toBe(false);
    expect(model.forget('Never seen', 'groceries')).toBe(false);
    expect(model.forget('', 'groceries')).toBe(false);
    expect(model.toState()).toEqual(before);
  });

  it('when the state is serialised and restored, then predictions are identical', () => {
    const model = PayeeModel.fromExamples(examples);
    const restored = PayeeModel.fromState(JSON.parse(JSON.stringify(model.toState())));
    for (const q of ['tesco', 'tesco petrol', 'shell', 'netflix', 'acme salary', 'nothing']) {
      expect(restored.predict(q)).toEqual(model.predict(q));
    }
    expect(restored.size).toBe(model.size);
    expect(restored.toState()).toEqual(model.toState());
    expect(() => PayeeModel.fromState({ ...model.toState(), version: 2 as 1 })).toThrow(RangeError);
  });

  it('when the model is built from 10,000 rows, then it is built (speed targets live in benchmarks)', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      description: `CARD PAYMENT MERCHANT${i % 700} CITY${i % 37} ${100000 + i}`,
      accountId: `acc${i % 150}`,
    }));
    const model = PayeeModel.fromExamples(rows);
    expect(model.size).toBe(10_000);
    // MERCHANT5 went to acc5, acc105 and acc55 five times each
    expect(['acc5', 'acc55', 'acc105']).toContain(model.predict('merchant5')[0]?.accountId);
    expect(sum(model.predict('merchant5 city5'))).toBeLessThanOrEqual(1);
  });
});

describe('scoreHistory', () => {
  it('when an earlier match had the same payee and counter account, then 100', () => {
    const model = PayeeModel.fromExamples(examples);
    expect(scoreHistory(model, 'CARD PAYMENT TESCO STORES 5555 02/04', ['groceries'])).toBe(100);
    expect(scoreHistory(model, 'Netflix.com 987654321', ['subscriptions'])).toBe(100);
  });

  it('when one of several counter accounts is the known one, then 100', () => {
    const model = PayeeModel.fromExamples(examples);
    expect(scoreHistory(model, 'TESCO STORES', ['fuel', 'groceries'])).toBe(100);
  });

  it('when the payee is new, then 0', () => {
    const model = PayeeModel.fromExamples(examples);
    expect(scoreHistory(model, 'Brand New Bakery', ['groceries'])).toBe(0);
    expect(scoreHistory(new PayeeModel(), 'Tesco stores', ['groceries'])).toBe(0);
    expect(scoreHistory(model, 'POS 123456', ['groceries'])).toBe(0);
  });

  it('when a similar payee went to this account, then a middle value from the model confidence', () => {
    const model = PayeeModel.fromExamples(examples);
    const s = scoreHistory(model, 'TESCO EXPRESS', ['groceries']);
    const confidence = model.predict('TESCO EXPRESS').find((p) => p.accountId === 'groceries')?.confidence ?? 0;
    expect(s).toBeGreaterThan(0);
    expect(s).toBeLessThan(100);
    expect(s).toBe(Math.round(confidence * 100));
  });

  it('when the known payee went to another account, then below 100 and below the account it went to', () => {
    const model = PayeeModel.fromExamples(examples);
    const other = scoreHistory(model, 'TESCO STORES', ['fuel']);
    expect(other).toBeLessThan(100);
    expect(other).toBeLessThan(scoreHistory(model, 'TESCO STORES', ['groceries']));
    // every token of "netflix com" went to subscriptions only: no support for salary at all
    expect(scoreHistory(model, 'NETFLIX.COM', ['salary'])).toBe(0);
  });

  it('when there is no evidence or no counter account, then 0', () => {
    expect(scoreHistoryPrepared(EMPTY_HISTORY_EVIDENCE, ['groceries'])).toBe(0);
    const model = PayeeModel.fromExamples(examples);
    expect(scoreHistory(model, 'TESCO STORES', [])).toBe(0);
  });

  it('when the model learns after evidence was cached, then the score reflects the new example', () => {
    const model = PayeeModel.fromExamples(examples);
    expect(scoreHistory(model, 'Uber Eats', ['restaurants'])).toBe(0);
    model.learn('Uber Eats', 'restaurants');
    expect(scoreHistory(model, 'Uber Eats', ['restaurants'])).toBe(100);
    model.forget('Uber Eats', 'restaurants');
    expect(scoreHistory(model, 'Uber Eats', ['restaurants'])).toBe(0);
  });

  it('when any history is scored, then an integer 0..100', () => {
    const model = PayeeModel.fromExamples(examples);
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30 }),
        fc.array(fc.constantFrom('groceries', 'fuel', 'subscriptions', 'salary', 'x')),
        (d, ids) => {
          const s = scoreHistory(model, d, ids);
          expect(Number.isInteger(s)).toBe(true);
          expect(s).toBeGreaterThanOrEqual(0);
          expect(s).toBeLessThanOrEqual(100);
        },
      ),
    );
  });

  it('when a description is given, then bestHistoryScore is the best score any counter account gets from it', () => {
    const model = PayeeModel.fromExamples(examples);
    const words = [
      'card',
      'payment',
      'tesco',
      'stores',
      'shell',
      'petrol',
      'netflix',
      'acme',
      'salary',
      'london',
      'other',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 4 }), (tokens) => {
        const evidence = model.historyEvidence(tokens.join(' '));
        const best = Math.max(
          ...['groceries', 'fuel', 'subscriptions', 'salary', 'x'].map((id) => scoreHistoryPrepared(evidence, [id])),
        );
        expect(bestHistoryScore(evidence)).toBe(best);
      }),
    );
    expect(bestHistoryScore(EMPTY_HISTORY_EVIDENCE)).toBe(0);
  });
});
