import { describe, expect, it } from 'vitest';
import type { AccountDto, UnmatchedItemDto } from '../../api/index.ts';
import { bookingOf, firstChoice, NOT_CONVERTED, splitPart, splitRest } from './booking-choice.ts';

const tx: UnmatchedItemDto['transaction'] = {
  id: 't1',
  account_id: 'bank',
  date: '2024-01-06',
  description: 'TESCO STORES',
  amount: '100.00',
  currency: 'GBP',
  type: 'debit',
};
const account = (id: string, currency: string) => ({ id, currency }) as AccountDto;
const accounts = new Map([
  ['home', account('home', 'GBP')],
  ['food', account('food', 'USD')],
]);

describe('the review list’s booking of a line', () => {
  it('when parts are typed with separators, then what is left is counted exactly in minor units', () => {
    expect(splitRest('100.00', 'GBP', [splitPart('home', '33.33'), splitPart('food', '66.66')])).toBe(1n);
    expect(splitRest('1000.00', 'GBP', [splitPart('home', '1,000.01')])).toBe(-1n);
    expect(splitRest('100.00', 'GBP', [splitPart('home', '60'), splitPart('food', '')])).toBe(4000n);
    expect(splitRest('100.00', 'GBP', [splitPart('home', '6O')])).toBeNull();
  });

  it('when the parts do not add up to the line or one has no account, then there is nothing to book', () => {
    const choice = { accountId: '', memo: '', selected: true, converted: NOT_CONVERTED };
    expect(
      bookingOf({ ...choice, splits: [splitPart('home', '60'), splitPart('food', '30')] }, tx, accounts),
    ).toBeNull();
    expect(bookingOf({ ...choice, splits: [splitPart('home', '60'), splitPart('', '40')] }, tx, accounts)).toBeNull();
    expect(
      bookingOf({ ...choice, splits: [splitPart('home', '100'), splitPart('food', '')] }, tx, accounts),
    ).toBeNull();
    expect(bookingOf({ ...choice, splits: null }, tx, accounts)).toBeNull();
  });

  it('when parts add up, then each is sent, with its amount in another currency only for an account in one', () => {
    const food = { ...splitPart('food', '40'), converted: { text: '50.80', edited: true } };
    const home = { ...splitPart('home', '60.00'), converted: { text: '1.00', edited: true } };
    expect(
      bookingOf(
        { accountId: '', memo: ' Tesco ', selected: true, converted: NOT_CONVERTED, splits: [home, food] },
        tx,
        accounts,
      ),
    ).toEqual({
      memo: 'Tesco',
      splits: [
        { account_id: 'home', amount: '60.00' },
        { account_id: 'food', amount: '40', converted_amount: '50.80' },
      ],
    });
    expect(
      bookingOf(
        { accountId: 'food', memo: '', selected: true, converted: { text: '1,270.00', edited: false }, splits: null },
        tx,
        accounts,
      ),
    ).toEqual({ account_id: 'food', converted_amount: '1270.00' });
  });

  it('when a rule splits the line, then its parts are the first choice and the line is ticked', () => {
    const item = {
      type: 'bank_transaction',
      transaction: tx,
      account_name: 'Checking',
      suggested_action: 'create_entry',
      suggested_accounts: [],
      preselected_account_id: null,
      preselected_splits: [
        { account_id: 'home', amount: '33.33' },
        { account_id: 'food', amount: '66.67' },
      ],
      transfer: null,
    } satisfies UnmatchedItemDto;
    const choice = firstChoice(item);
    expect(choice.selected).toBe(true);
    expect(choice.splits?.map((p) => [p.accountId, p.amount])).toEqual([
      ['home', '33.33'],
      ['food', '66.67'],
    ]);
  });
});
