import { describe, expect, it } from 'vitest';
import type { AccountType, JournalEntryDto } from '../../api/index.ts';
import { entryAmounts } from './entry-summary.ts';

const TYPES = new Map<string, AccountType>([
  ['checking', 'ASSET'],
  ['savings', 'ASSET'],
  ['card', 'LIABILITY'],
  ['salary', 'INCOME'],
  ['food', 'EXPENSE'],
  ['opening', 'EQUITY'],
]);

function entry(...lines: [account: string, direction: 'DEBIT' | 'CREDIT', amount: string][]): JournalEntryDto {
  return {
    lines: lines.map(([account_id, direction, amount], i) => ({
      id: String(i),
      account_id,
      account_name: account_id,
      direction,
      amount,
      currency: 'USD',
      cleared: 'uncleared',
      cost: null,
      automatic: false,
    })),
  } as JournalEntryDto;
}

const salary = entry(['checking', 'DEBIT', '3000.00'], ['salary', 'CREDIT', '3000.00']);
const groceries = entry(['food', 'DEBIT', '82.50'], ['checking', 'CREDIT', '82.50']);

describe('the journal’s amounts', () => {
  it('when no account is viewed, then income comes in (+) and spending goes out (−)', () => {
    expect(entryAmounts(salary, TYPES)).toEqual([{ currency: 'USD', amount: '3000.00', direction: 'in' }]);
    expect(entryAmounts(groceries, TYPES)).toEqual([{ currency: 'USD', amount: '82.50', direction: 'out' }]);
    // a card purchase raises what is owed: money out
    const onCard = entry(['food', 'DEBIT', '20.00'], ['card', 'CREDIT', '20.00']);
    expect(entryAmounts(onCard, TYPES)).toEqual([{ currency: 'USD', amount: '20.00', direction: 'out' }]);
  });

  it('when money moves between the user’s own accounts or touches none, then its size shows unsigned', () => {
    const transfer = entry(['savings', 'DEBIT', '500.00'], ['checking', 'CREDIT', '500.00']);
    expect(entryAmounts(transfer, TYPES)).toEqual([{ currency: 'USD', amount: '500.00', direction: null }]);
    const accrual = entry(['food', 'DEBIT', '5.00'], ['opening', 'CREDIT', '5.00']);
    expect(entryAmounts(accrual, TYPES)).toEqual([{ currency: 'USD', amount: '5.00', direction: null }]);
  });

  it('when an account is viewed, then its own lines are signed as its register signs them', () => {
    expect(entryAmounts(groceries, TYPES, 'food')).toEqual([{ currency: 'USD', amount: '82.50', direction: 'in' }]);
    expect(entryAmounts(groceries, TYPES, 'checking')).toEqual([
      { currency: 'USD', amount: '82.50', direction: 'out' },
    ]);
    expect(entryAmounts(salary, TYPES, 'salary')).toEqual([{ currency: 'USD', amount: '3000.00', direction: 'in' }]);
    const transfer = entry(['savings', 'DEBIT', '500.00'], ['checking', 'CREDIT', '500.00']);
    expect(entryAmounts(transfer, TYPES, 'savings')).toEqual([{ currency: 'USD', amount: '500.00', direction: 'in' }]);
  });
});
