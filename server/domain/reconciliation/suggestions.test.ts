import { describe, expect, it } from 'vitest';
import { PayeeModel } from './payee-model.ts';
import { suggestCounterAccounts, type SuggestableAccount } from './suggestions.ts';
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

  it('when the payee was learnt on an account that does not fit (a refund to an expense), then it is offered last', () => {
    const model = PayeeModel.fromExamples([
      { description: 'TESCO REFUND', accountId: 'groceries' },
      { description: 'TESCO REFUND', accountId: 'groceries' },
    ]);
    const out = suggestCounterAccounts(model, books, new Map(), {
      description: 'TESCO REFUND',
      type: 'credit',
      accountId: 'bank',
    });
    expect(out.at(-1)!.id).toBe('groceries');
    expect(out.slice(0, -1).every((s) => ['salary', 'card', 'bank'].includes(s.id))).toBe(true);
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
