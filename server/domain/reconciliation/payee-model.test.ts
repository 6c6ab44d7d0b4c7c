import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bestHistoryScore, EMPTY_HISTORY_EVIDENCE, scoreHistoryPrepared } from './history-score.ts';
import { CALIBRATION_WINDOW } from './payee-calibration.ts';
import { PayeeModel, scoreHistory } from './payee-model.ts';
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

describe('PayeeModel', () => {
  it('when bookings are learnt, then the account they went to ranks first', () => {
    const model = PayeeModel.fromExamples(examples);
    expect(model.size).toBe(7);
    expect(model.predict('TESCO STORES 9999 01/04').accounts[0]?.accountId).toBe('groceries');
    expect(model.predict('Shell station').accounts[0]?.accountId).toBe('fuel');
    expect(model.predict('tesco petrol').accounts[0]?.accountId).toBe('fuel');
    expect(model.predict('Netflix').accounts[0]?.accountId).toBe('subscriptions');
    expect(model.predict('TESCO', {}, 1).accounts).toHaveLength(1);
  });

  it('when nothing is learnt or the description has no word, then no prediction', () => {
    expect(new PayeeModel().predict('Tesco').accounts).toEqual([]);
    expect(PayeeModel.fromExamples(examples).predict('123456 01/02').accounts).toEqual([]);
  });

  it('when a bank prints a payee with time stamps, glued store numbers, channel words and a processor prefix, then it is the same payee', () => {
    const model = new PayeeModel();
    model.learn('TARGET00027599 SAN LUIS OBIS CA', 'groceries');
    model.learn('SQ *LUCY S COFFEE CO. SAN LUIS OBIS CA', 'coffee');
    model.learn('GRUBHUB*8888275055', 'dining');
    for (const [line, account] of [
      ['D5438 TARGET 00027599 SAN LUIS OBIS CA 25 : Mobile Purchase Sign Based 12/09 01:12p #7458', 'groceries'],
      ['TST* LUCY S COFFEE CO SAN LUIS OBIS CA 25 : Debit Card Purchase 12/10 03:03p #7458', 'coffee'],
      ['GRUBHUB 8888275055 NY', 'dining'],
    ] as const) {
      expect(model.knownPayee(line)).toBe(true);
      expect(model.predict(line).payeeAccount).toBe(account);
    }
    expect(model.knownPayee('TARGAZ 00027599')).toBe(false);
  });

  it('when a word comes with bookings to many accounts, then it is noise and leaves the payee key', () => {
    const model = new PayeeModel();
    model.learn('ZORPBANK ALPHA', 'a');
    // "zorpbank" is still a payee word: "alpha" alone is another payee
    expect(model.knownPayee('ALPHA')).toBe(false);
    model.learn('ZORPBANK BETA', 'b');
    model.learn('ZORPBANK GAMMA', 'c');
    model.learn('ZORPBANK DELTA', 'd');
    expect(model.knownPayee('ALPHA')).toBe(true);
    expect([...model.payeeAccounts('ALPHA ZORPBANK')]).toEqual([['a', 1]]);
    // a word of one account, however often it comes, is the payee itself
    for (let i = 0; i < 6; i++) model.learn('OMEGA SHOP', 'e');
    expect(model.knownPayee('OMEGA SHOP 12')).toBe(true);
    expect(model.knownPayee('SHOP')).toBe(false);
    expect(model.knownPayee('ZORPBANK OMEGA SHOP')).toBe(true);
  });

  it('when a payee was paid before, then money in from it (a refund) ranks the account it was paid from first', () => {
    const model = PayeeModel.fromExamples([
      ...examples,
      { description: 'ACME LTD SALARY', accountId: 'salary', type: 'credit', amountMinor: 250_000n },
      { description: 'HARDWARE BARN 12', accountId: 'household', type: 'debit', amountMinor: 4_500n },
    ]);
    const refund = model.predict('HARDWARE BARN 77', { type: 'credit', amountMinor: 1_200n });
    expect(refund.accounts[0]?.accountId).toBe('household');
    // not preselection evidence: the payee never paid in before
    expect(refund.payeeAccount).toBeNull();
  });

  it('when a new payee pays in, then the direction ranks an account money came in from before first', () => {
    const model = PayeeModel.fromExamples([
      { description: 'ACME LTD SALARY', accountId: 'salary', type: 'credit', amountMinor: 250_000n },
      { description: 'TESCO STORES', accountId: 'groceries', type: 'debit', amountMinor: 4_500n },
      { description: 'TESCO STORES', accountId: 'groceries', type: 'debit', amountMinor: 3_500n },
      { description: 'SHELL', accountId: 'fuel', type: 'debit', amountMinor: 6_500n },
    ]);
    expect(model.predict('GLOBEX PAYROLL', { type: 'credit', amountMinor: 240_000n }).accounts[0]?.accountId).toBe(
      'salary',
    );
    expect(model.predict('GLOBEX PAYROLL', { type: 'debit', amountMinor: 4_000n }).accounts[0]?.accountId).not.toBe(
      'salary',
    );
  });

  it('when a payee always went to one account, then its confidence rises towards 1; when it went half and half, then about a half', () => {
    const model = new PayeeModel();
    for (let n = 1; n <= 40; n++) {
      model.learn('Netflix', 'subscriptions');
      model.learn(`Corner shop ${n}`, n % 2 === 0 ? 'groceries' : 'household');
    }
    expect(model.predict('Netflix').accounts[0]?.confidence).toBeGreaterThan(0.9);
    // the calibration has seen the corner shop's first account right half the time
    const shop = model.predict('Corner shop 99').accounts[0]!.confidence;
    expect(shop).toBeGreaterThan(0.35);
    expect(shop).toBeLessThan(0.65);
  });

  it('when predictions are made, then confidences are in [0, 1] and come best first', () => {
    const word = fc.constantFrom('tesco', 'stores', 'shell', 'petrol', 'netflix', 'acme', 'ltd', 'london', '1234');
    const desc = fc.array(word, { minLength: 0, maxLength: 4 }).map((w) => w.join(' '));
    const row = fc.record({
      description: desc,
      accountId: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
      type: fc.constantFrom('debit' as const, 'credit' as const, undefined),
      amountMinor: fc.option(fc.bigInt({ min: 1n, max: 10n ** 12n }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), desc, (rows, query) => {
        const ranked = PayeeModel.fromExamples(rows).predict(query).accounts;
        for (const p of ranked) {
          expect(p.confidence).toBeGreaterThanOrEqual(0);
          expect(p.confidence).toBeLessThanOrEqual(1);
        }
        for (let i = 1; i < ranked.length; i++)
          expect(ranked[i - 1]!.confidence).toBeGreaterThanOrEqual(ranked[i]!.confidence);
      }),
    );
  });

  it('when a model is taught booking by booking past its calibration window, then it answers exactly as one built afresh', () => {
    const rows: PayeeExample[] = Array.from({ length: CALIBRATION_WINDOW + 300 }, (_, i) => ({
      description: `${['TESCO STORES', 'SHELL', 'CORNER SHOP', 'ACME LTD'][i % 4]} ${i} ${['LONDON', 'LEEDS', 'YORK'][i % 3]}`,
      accountId: ['groceries', 'fuel', i % 8 < 4 ? 'groceries' : 'household', 'salary'][i % 4]!,
      type: i % 4 === 3 ? 'credit' : 'debit',
      amountMinor: BigInt(100 + ((i * 7919) % 50_000)),
    }));
    const taught = new PayeeModel();
    for (const r of rows) taught.learn(r.description, r.accountId, r);
    const built = PayeeModel.fromExamples(rows);
    for (const q of ['TESCO STORES 1', 'CORNER SHOP', 'ACME LTD', 'NEW PLACE LEEDS'])
      for (const type of ['debit', 'credit'] as const)
        expect(built.predict(q, { type, amountMinor: 2_000n })).toEqual(
          taught.predict(q, { type, amountMinor: 2_000n }),
        );
  });

  it('when a description has no word, then learning it is refused', () => {
    const model = new PayeeModel();
    expect(model.learn('123456 01/02 #7458', 'x')).toBe(false);
    expect(model.size).toBe(0);
  });

  it('when a payee is known by its key, then knownPayee says so whatever the numbers and noise', () => {
    const model = PayeeModel.fromExamples(examples);
    expect(model.knownPayee('Tesco Stores 1111 02/05')).toBe(true);
    expect(model.knownPayee('123456')).toBe(false);
    expect(model.knownPayee('Brand New Bakery')).toBe(false);
    expect([...model.payeeAccounts('tesco stores')]).toEqual([['groceries', 3]]);
  });

  it('when a booking is forgotten, then its payee and words are as if it had never been learnt', () => {
    const model = PayeeModel.fromExamples(examples);
    model.learn('Uber Eats', 'restaurants', { type: 'debit' });
    expect(model.predict('uber').accounts[0]?.accountId).toBe('restaurants');
    expect(model.forget('UBER EATS 01/02', 'restaurants', { type: 'debit' })).toBe(true);
    expect(model.knownPayee('Uber Eats')).toBe(false);
    expect(model.predict('uber').accounts.map((p) => p.accountId)).not.toContain('restaurants');
    expect(model.size).toBe(examples.length);
  });

  it('when forgetting a booking that was never learnt, then false and nothing changes', () => {
    const model = PayeeModel.fromExamples(examples);
    const before = model.predict('TESCO STORES');
    expect(model.forget('TESCO STORES', 'fuel')).toBe(false);
    expect(model.forget('TESCO STORES', 'groceries', { type: 'debit' })).toBe(false);
    expect(model.forget('', 'groceries')).toBe(false);
    expect(model.predict('TESCO STORES')).toEqual(before);
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
    const confidence =
      model.predict('TESCO EXPRESS').accounts.find((p) => p.accountId === 'groceries')?.confidence ?? 0;
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
