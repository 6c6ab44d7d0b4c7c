import { describe, expect, it } from 'vitest';
import { PayeeModel, type PayeeExample } from './payee-model.ts';
import {
  MIN_SUGGESTED_CONFIDENCE,
  PRESELECT_KNOWN_PAYEE,
  suggestCounterAccounts,
  type SuggestableAccount,
} from './suggestions.ts';
import type { AccountType } from './types.ts';

function accounts(...list: [string, AccountType, boolean?, string?][]): Map<string, SuggestableAccount> {
  return new Map(
    list.map(([id, type, isActive = true, currency = 'USD']) => [id, { id, name: id, type, isActive, currency }]),
  );
}

/** A new user's starter chart: a bank, savings, a card, opening balances, income and spending, one account in euros. */
const books = accounts(
  ['bank', 'ASSET'],
  ['savings', 'ASSET'],
  ['card', 'LIABILITY'],
  ['opening', 'EQUITY'],
  ['groceries', 'EXPENSE'],
  ['fuel', 'EXPENSE'],
  ['rent', 'EXPENSE'],
  ['salary', 'INCOME'],
  ['old', 'EXPENSE', false],
  ['travel-eur', 'EXPENSE', true, 'EUR'],
);

const out = (description: string, amountMinor = 4_500n) =>
  ({ description, type: 'debit', accountId: 'bank', amountMinor }) as const;
const into = (description: string, amountMinor = 250_000n) =>
  ({ description, type: 'credit', accountId: 'bank', amountMinor }) as const;

function booked(rows: [string, string, 'debit' | 'credit', bigint?][]): PayeeExample[] {
  return rows.map(([description, accountId, type, amountMinor = 4_500n]) => ({
    description,
    accountId,
    type,
    amountMinor,
  }));
}

describe('suggestCounterAccounts', () => {
  it('when nothing was ever booked, then nothing is suggested and nothing chosen: no alphabetical guess at 0 %', () => {
    const model = new PayeeModel();
    expect(suggestCounterAccounts(model, books, out('TESCO STORES 123'))).toEqual({ suggested: [], preselected: null });
    expect(suggestCounterAccounts(model, books, into('ACME LTD SALARY'))).toEqual({ suggested: [], preselected: null });
  });

  it('when the payee was booked before, then its account comes first and is chosen for the person', () => {
    const model = PayeeModel.fromExamples(
      booked([
        ...Array.from({ length: 6 }, () => ['TESCO STORES', 'groceries', 'debit'] as [string, string, 'debit']),
        ['SHELL 1234', 'fuel', 'debit'],
        ['ACME LTD SALARY', 'salary', 'credit', 250_000n],
      ]),
    );
    const { suggested, preselected } = suggestCounterAccounts(model, books, out('CARD PAYMENT TESCO STORES 4410'));
    expect(suggested[0]!.id).toBe('groceries');
    expect(suggested[0]!.confidence).toBeGreaterThanOrEqual(PRESELECT_KNOWN_PAYEE);
    expect(preselected).toBe('groceries');
  });

  it('when the payee is new, then suggestions are offered but nothing is chosen for the person', () => {
    const model = PayeeModel.fromExamples(
      booked([
        ['TESCO STORES', 'groceries', 'debit'],
        ['SHELL 1234', 'fuel', 'debit'],
        ['LANDLORD LTD', 'rent', 'debit', 120_000n],
      ]),
    );
    const { suggested, preselected } = suggestCounterAccounts(model, books, out('TESCO EXPRESS 12'));
    expect(suggested[0]!.id).toBe('groceries');
    expect(preselected).toBeNull();
    // a payee sharing nothing with any booking is offered nothing
    expect(suggestCounterAccounts(model, books, out('ZYXWV')).suggested).toEqual([]);
  });

  it('when accounts are offered, then never equity, an account of the wrong kind for the direction or in another currency, nor one under 5 %', () => {
    // every account was booked by some payee, in both directions, so the classifier ranks them all
    const model = PayeeModel.fromExamples(
      booked([
        ['OPENING BALANCE', 'opening', 'credit', 100_000n],
        ['OPENING BALANCE', 'opening', 'debit', 100_000n],
        ['TRANSFER TO SAVINGS', 'savings', 'debit', 50_000n],
        ['CARD PAYMENT THANK YOU', 'card', 'debit', 30_000n],
        ['ACME LTD SALARY', 'salary', 'credit', 250_000n],
        ['HOTEL DE PARIS', 'travel-eur', 'debit', 30_000n],
        ['TESCO STORES', 'groceries', 'debit'],
        ['SHELL', 'fuel', 'debit'],
      ]),
    );
    for (const txn of [out('NEW SHOP'), into('NEW PAYER'), out('BALANCE'), into('OPENING')]) {
      for (const s of suggestCounterAccounts(model, books, txn).suggested) {
        const type = books.get(s.id)!.type;
        expect(type).not.toBe('EQUITY');
        expect(txn.type === 'debit' ? ['EXPENSE', 'ASSET', 'LIABILITY'] : ['INCOME', 'ASSET', 'LIABILITY']).toContain(
          type,
        );
        expect(books.get(s.id)!.currency).toBe('USD');
        expect(s.confidence).toBeGreaterThanOrEqual(MIN_SUGGESTED_CONFIDENCE);
      }
    }
  });

  it('when this very payee was booked before to an account of another kind or currency (a refund, a hotel in euros), then that account is offered', () => {
    const model = PayeeModel.fromExamples(
      booked([
        ['HARDWARE BARN', 'groceries', 'debit'],
        ['HARDWARE BARN', 'groceries', 'debit'],
        ['HOTEL DE PARIS', 'travel-eur', 'debit', 30_000n],
        ['HOTEL DE PARIS', 'travel-eur', 'debit', 30_000n],
        ['ACME LTD SALARY', 'salary', 'credit', 250_000n],
      ]),
    );
    const refund = suggestCounterAccounts(model, books, into('HARDWARE BARN REFUND', 1_200n));
    expect(refund.suggested[0]!.id).toBe('groceries');
    // a refund is not the payee's usual direction: offered, not chosen
    expect(refund.preselected).toBeNull();
    expect(suggestCounterAccounts(model, books, out('HOTEL DE PARIS', 30_000n)).suggested[0]!.id).toBe('travel-eur');
  });

  it('when a rule matches, then its account comes first with confidence 1 and the rule named, is chosen, and is not offered twice', () => {
    const model = PayeeModel.fromExamples(booked([['TESCO STORES', 'groceries', 'debit']]));
    const { suggested, preselected } = suggestCounterAccounts(model, books, out('TESCO STORES'), {
      id: 'r1',
      accountId: 'groceries',
    });
    expect(suggested[0]).toEqual({ id: 'groceries', name: 'groceries', confidence: 1, rule_id: 'r1' });
    expect(suggested.filter((s) => s.id === 'groceries')).toHaveLength(1);
    expect(preselected).toBe('groceries');
    // a rule may name any account, equity included: the person wrote it
    expect(
      suggestCounterAccounts(new PayeeModel(), books, into('OPENING'), { id: 'r2', accountId: 'opening' }).preselected,
    ).toBe('opening');
  });

  it('when the learnt account is the bank account itself or inactive, then it is never suggested', () => {
    const model = PayeeModel.fromExamples(
      booked([
        ['OLD SHOP', 'old', 'debit'],
        ['OLD SHOP', 'old', 'debit'],
        ['MIRROR', 'bank', 'debit'],
        ['MIRROR', 'bank', 'debit'],
      ]),
    );
    const ids = [
      ...suggestCounterAccounts(model, books, out('OLD SHOP')).suggested,
      ...suggestCounterAccounts(model, books, out('MIRROR')).suggested,
    ].map((s) => s.id);
    expect(ids).not.toContain('old');
    expect(ids).not.toContain('bank');
  });
});
