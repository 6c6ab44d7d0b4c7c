import { describe, expect, it } from 'vitest';
import type { AccountDto } from './api/index.ts';
import { balancingAmount, checkEntry, statedRate, toLineInputs, type EditableLine } from './entry-lines.ts';

function account(id: string, currency = 'USD', isActive = true): AccountDto {
  return {
    id,
    name: id,
    type: 'ASSET',
    currency,
    description: null,
    is_active: isActive,
    parent_id: null,
    created_at: '',
    updated_at: '',
  };
}
const accounts = new Map([
  ['bank', account('bank')],
  ['food', account('food')],
  ['old', account('old', 'USD', false)],
  ['yen', account('yen', 'JPY')],
  ['travel', account('travel', 'EUR')],
]);
const line = (
  key: number,
  accountId: string,
  debit = '',
  credit = '',
  cost: EditableLine['cost'] = null,
): EditableLine => ({
  key,
  accountId,
  debit,
  credit,
  cost,
});

describe('the entry being edited', () => {
  it('when it balances in every currency with two good lines, then it is ready; blank lines are left out; grouped amounts go out plain', () => {
    const check = checkEntry([line(1, 'food', '1,082.50'), line(2, 'bank', '', '1082.5'), line(3, '')], accounts);
    expect(check.ready).toBe(true);
    expect(toLineInputs(check.filled)).toEqual([
      { account_id: 'food', direction: 'DEBIT', amount: '1082.50' },
      { account_id: 'bank', direction: 'CREDIT', amount: '1082.5' },
    ]);
  });

  it('when the lines do not balance, then the entry can be kept as a draft but not posted', () => {
    const check = checkEntry([line(1, 'food', '10'), line(2, 'bank', '', '9.99')], accounts);
    expect(check).toMatchObject({ ready: false, draftReady: true });
    expect(checkEntry([line(1, 'food', '10')], accounts)).toMatchObject({ ready: false, draftReady: false });
  });

  it('when a line is unreadable, unbalanced, on an inactive account or without an account, then it is not ready and says which', () => {
    expect(checkEntry([line(1, 'food', '10'), line(2, 'bank', '', '9.99')], accounts).ready).toBe(false);
    expect(checkEntry([line(1, 'food', '10', '10'), line(2, 'bank', '', '10')], accounts).problems.get(1)).toBe('both');
    expect(checkEntry([line(1, 'old', '10'), line(2, 'bank', '', '10')], accounts).problems.get(1)).toBe('inactive');
    expect(checkEntry([line(1, '', '10'), line(2, 'bank', '', '10')], accounts).problems.get(1)).toBe('no-account');
    expect(checkEntry([line(1, 'yen', '10.5'), line(2, 'yen', '', '10.5')], accounts).problems.get(1)).toBe('digits');
  });

  it('when an amount is not a decimal (thousands grouped or not), is zero or reaches a trillion, then its line says so', () => {
    const problem = (amount: string) => checkEntry([line(1, 'food', amount)], accounts).problems.get(1);
    expect(problem('1,000.00')).toBeUndefined();
    expect(problem('1,00')).toBe('format');
    expect(problem('-5')).toBe('format');
    expect(problem('1e3')).toBe('format');
    expect(problem('  ')).toBe('no-amount');
    expect(problem('0.00')).toBe('zero');
    expect(problem('82.501')).toBe('digits');
    expect(problem('1000000000000')).toBe('too-large');
    expect(problem(' 82.500 ')).toBeUndefined();
  });

  it('when an account is chosen on an empty line, then the amount that balances the others is offered on the right side', () => {
    const lines = [line(1, 'food', '82.50'), line(2, 'bank', '', '2.25'), line(3, 'bank')];
    expect(balancingAmount(lines, 3, 'USD', accounts)).toEqual({ side: 'credit', amount: '80.25' });
    expect(balancingAmount([line(1, 'bank', '', '5'), line(2, 'food')], 2, 'USD', accounts)).toEqual({
      side: 'debit',
      amount: '5.00',
    });
    expect(
      balancingAmount([line(1, 'bank', '5'), line(2, 'food', '', '5'), line(3, 'food')], 3, 'USD', accounts),
    ).toBeNull();
  });
});

describe('an exchange in the editor', () => {
  const euros = (cost: string, currency = 'USD') => line(1, 'travel', '100.00', '', { amount: cost, currency });

  it('when a EUR line states its cost in USD, then it balances against the USD lines and the editor shows the rate', () => {
    const check = checkEntry([euros('108.50'), line(2, 'bank', '', '108.50')], accounts);
    expect(check.ready).toBe(true);
    expect(check.balances).toEqual([{ currency: 'USD', debits: 10850n, credits: 10850n, difference: 0n }]);
    expect(toLineInputs(check.filled)[0]).toEqual({
      account_id: 'travel',
      direction: 'DEBIT',
      amount: '100.00',
      cost: { amount: '108.50', currency: 'USD' },
    });
    expect(statedRate(euros('108.50'), accounts.get('travel'))).toBe('1.0850');
    expect(balancingAmount([euros('108.50'), line(2, 'bank')], 2, 'USD', accounts)).toEqual({
      side: 'credit',
      amount: '108.50',
    });
  });

  it("when the cost is unreadable, half-typed or in the line's own currency, then the line says so and the entry is not ready", () => {
    expect(checkEntry([euros('1.005'), line(2, 'bank', '', '1.01')], accounts).problems.get(1)).toBe('cost');
    const halfTyped = checkEntry([euros('108.50', 'US'), line(2, 'bank', '', '108.50')], accounts);
    expect(halfTyped.problems.get(1)).toBe('cost');
    expect(halfTyped.balances).toEqual([{ currency: 'USD', debits: 0n, credits: 10850n, difference: -10850n }]);
    expect(statedRate(euros('108.50', 'US'), accounts.get('travel'))).toBeNull();
    expect(checkEntry([euros('100.00', 'EUR'), line(2, 'bank', '', '100')], accounts).problems.get(1)).toBe(
      'cost-same',
    );
    expect(statedRate(euros('x'), accounts.get('travel'))).toBeNull();
  });

  it('when a cost row is opened and still empty, then it shows no error and states no cost until something is typed', () => {
    const opened = checkEntry([euros(''), line(2, 'bank', '', '100.00')], accounts);
    expect(opened.problems.size).toBe(0);
    expect(toLineInputs(opened.filled)[0]).not.toHaveProperty('cost');
    expect(checkEntry([euros('1'), line(2, 'bank', '', '100.00')], accounts).problems.size).toBe(0);
    expect(checkEntry([euros('x'), line(2, 'bank', '', '100.00')], accounts).problems.get(1)).toBe('cost');
  });
});
