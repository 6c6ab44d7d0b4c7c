import { describe, expect, it } from 'vitest';
import { PayeeModel } from './payee-model.ts';
import { preselectedAccount, suggestCounterAccounts, type SuggestableAccount } from './suggestions.ts';
import type { AccountType } from './types.ts';

function accounts(...list: [string, AccountType, boolean?][]): Map<string, SuggestableAccount> {
  return new Map(list.map(([id, type, isActive = true]) => [id, { id, name: id, type, isActive }]));
}

const books = accounts(
  ['bank', 'ASSET'],
  ['groceries', 'EXPENSE'],
  ['fuel', 'EXPENSE'],
  ['rent', 'EXPENSE'],
  ['salary', 'INCOME'],
  ['old', 'EXPENSE', false],
  ['card', 'LIABILITY'],
);

describe('suggestCounterAccounts', () => {
  it('when the payee was learnt, then its fitting accounts come first with their confidence, then the most used fitting ones', () => {
    const model = PayeeModel.fromExamples(
      Array.from({ length: 4 }, () => ({ description: 'TESCO STORES', accountId: 'groceries' })),
    );
    const usage = new Map([
      ['rent', 10],
      ['fuel', 30],
    ]);
    const out = suggestCounterAccounts(model, books, usage, {
      description: 'TESCO STORES 123',
      type: 'debit',
      accountId: 'bank',
    });
    expect(out.map((s) => s.id)).toEqual(['groceries', 'fuel', 'rent']);
    expect(out[0]!.confidence).toBeGreaterThan(0.5);
    // the rest share a quarter by their use
    expect(out.slice(1).map((s) => s.confidence)).toEqual([0.19, 0.06]);
  });

  it('when the payee is new, then no account whose type does not fit the money’s direction comes before one that fits', () => {
    const usage = new Map([
      ['salary', 1000],
      ['groceries', 1],
    ]);
    const out = suggestCounterAccounts(PayeeModel.fromExamples([]), books, usage, {
      description: 'SOMEONE NEW',
      type: 'debit',
      accountId: 'bank',
    });
    expect(out.map((s) => s.id)).not.toContain('salary');
    expect(out.map((s) => s.id)).toEqual(['groceries', 'card', 'fuel']);
  });

  it('when this very payee was booked before to an account that does not fit (a refund to an expense), then its confidence ranks it first', () => {
    const model = PayeeModel.fromExamples([
      { description: 'TESCO REFUND', accountId: 'groceries' },
      { description: 'TESCO REFUND', accountId: 'groceries' },
    ]);
    const out = suggestCounterAccounts(model, books, new Map(), {
      description: 'TESCO REFUND',
      type: 'credit',
      accountId: 'bank',
    });
    // two bookings of this very payee: 2/3 of the confidence from them, the rest from the model
    expect(out[0]).toEqual({ id: 'groceries', name: 'groceries', confidence: 0.89, rule_id: null });
  });

  it('when a new payee only shares words with one booked to an account that does not fit, then that account never ranks above a fitting one', () => {
    // the case: salary paid by ACH shares "ppd", "id" with a card payment going out
    const model = PayeeModel.fromExamples(
      Array.from({ length: 3 }, () => ({ description: 'ACME PAYROLL SALARY', accountId: 'salary' })),
    );
    const out = suggestCounterAccounts(model, books, new Map([['groceries', 5]]), {
      description: 'PAYROLL CARD SERVICES AUTOPAY',
      type: 'debit',
      accountId: 'bank',
    });
    const salary = out.findIndex((s) => s.id === 'salary');
    expect(salary).toBe(out.length - 1);
    expect(out[salary]!.confidence).toBeLessThanOrEqual(Math.min(...out.slice(0, salary).map((s) => s.confidence)));
    for (let i = 1; i < out.length; i++) expect(out[i]!.confidence).toBeLessThanOrEqual(out[i - 1]!.confidence);
  });

  it('when this very payee was booked before, then its own bookings outweigh many of another payee sharing one word', () => {
    const model = PayeeModel.fromExamples([
      ...Array.from({ length: 10 }, () => ({ description: 'CITY POWER AND WATER', accountId: 'rent' })),
      ...Array.from({ length: 3 }, () => ({ description: 'GIUBIASCO CITY 12', accountId: 'groceries' })),
    ]);
    const out = suggestCounterAccounts(model, books, new Map(), {
      description: 'GIUBIASCO CITY 75',
      type: 'debit',
      accountId: 'bank',
    });
    expect(out[0]!.id).toBe('groceries');
    expect(out[0]!.confidence).toBeGreaterThanOrEqual(0.75);
  });

  it('when a rule matches, then its account comes first with confidence 1 and the rule named, and is not offered twice', () => {
    const model = PayeeModel.fromExamples([{ description: 'TESCO STORES', accountId: 'fuel' }]);
    const out = suggestCounterAccounts(
      model,
      books,
      new Map(),
      { description: 'TESCO STORES', type: 'debit', accountId: 'bank' },
      { id: 'rule-1', accountId: 'groceries' },
    );
    expect(out[0]).toEqual({ id: 'groceries', name: 'groceries', confidence: 1, rule_id: 'rule-1' });
    expect(out.filter((s) => s.id === 'groceries')).toHaveLength(1);
    expect(preselectedAccount(out)).toBe('groceries');
  });

  it('when the best suggestion is a rule or at least 0.5 sure, then it is preselected, and otherwise nothing is', () => {
    expect(preselectedAccount([])).toBeNull();
    expect(preselectedAccount([{ id: 'a', name: 'a', confidence: 0.5, rule_id: null }])).toBe('a');
    expect(preselectedAccount([{ id: 'a', name: 'a', confidence: 0.49, rule_id: null }])).toBeNull();
    // the most used account of a payee never seen is a guess, not a choice
    const out = suggestCounterAccounts(PayeeModel.fromExamples([]), books, new Map([['groceries', 9]]), {
      description: 'CARD PAYMENT THANK YOU',
      type: 'debit',
      accountId: 'bank',
    });
    expect(out[0]!.id).toBe('groceries');
    expect(preselectedAccount(out)).toBeNull();
  });

  it('when the learnt account is the bank account itself or inactive, then it is never suggested', () => {
    const model = PayeeModel.fromExamples([
      { description: 'TRANSFER', accountId: 'bank' },
      { description: 'TRANSFER', accountId: 'old' },
    ]);
    const out = suggestCounterAccounts(model, books, new Map(), {
      description: 'TRANSFER',
      type: 'debit',
      accountId: 'bank',
    });
    expect(out.map((s) => s.id)).not.toContain('bank');
    expect(out.map((s) => s.id)).not.toContain('old');
  });
});
