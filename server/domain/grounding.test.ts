import { describe, expect, it } from 'vitest';
import { figuresOf, GroundingSources, markUnverified, untracedFigures } from './grounding.ts';

/** What a tool answered in a turn: income and spending of April 2011, and the reconciliation rate. */
function sources(): GroundingSources {
  const s = new GroundingSources();
  s.addResult({
    start_date: '2011-04-01',
    end_date: '2011-04-30',
    currencies: [
      {
        currency: 'USD',
        total_income: '2500.00',
        total_spending: '1234.56',
        spending: [
          { account: 'Groceries', amount: '300.25' },
          { account: 'Bank fees', amount: '45.33' },
        ],
      },
    ],
    reconciliation_rate_percent: 66.7,
    by_account: [{ reconciled: 2, unmatched: 1 }],
  });
  s.addText('How much did I spend in April 2011?');
  return s;
}

const untraced = (text: string) => untracedFigures(text, sources()).map((f) => f.text);

describe('the figures of an answer', () => {
  it('when an answer holds amounts, percentages and dates, then each is a figure and counts in prose are not', () => {
    expect(
      figuresOf(
        'Your 3 largest costs on 2011-04-07: $1,234.56, 45.33 USD (12.5%) in April 2011 and 2011年4月; O2 ••••1234',
      ).map((f) => [f.text, f.kind]),
    ).toEqual([
      ['2011-04-07', 'date'],
      ['$1,234.56', 'amount'],
      ['45.33', 'amount'],
      ['12.5%', 'percent'],
      ['April 2011', 'date'],
      ['2011年4月', 'date'],
    ]);
  });

  it('when a figure is copied from a tool, then it is traced, whatever its formatting or sign', () => {
    expect(untraced('You spent 1,234.56 USD ($1234.56, -1234.560) in April 2011, 66.7% reconciled.')).toEqual([]);
  });

  it('when a figure is made up, then it is not traced', () => {
    expect(untraced('You spent 999.99 USD on travel.')).toEqual(['999.99']);
  });

  it('when one digit of a figure is miscopied, then it is not traced', () => {
    expect(untraced('You spent 1,243.56 USD.')).toEqual(['1,243.56']);
    expect(untraced('Bank fees were 45.38.')).toEqual(['45.38']);
  });

  it('when a figure is the exact sum, difference or percentage of two tool figures, then it is traced', () => {
    // 300.25 + 45.33, 2500.00 − 1234.56, 1234.56 / 2500.00
    expect(untraced('Groceries and fees: 345.58; you kept 1,265.44; you spent 49.38% of your income.')).toEqual([]);
    // a percentage rounded otherwise than the answer shows is not
    expect(untraced('You spent 49.39% of your income.')).toEqual(['49.39%']);
  });

  it('when a date is not one the tools or the user named, then it is not traced', () => {
    expect(untraced('On 2011-04-30 and 4/30/2011, in 2011, in April 2011.')).toEqual([]);
    expect(untraced('In May 2011 and on 2011-05-02.')).toEqual(['May 2011', '2011-05-02']);
  });

  it('when figures are marked, then each untraced one is wrapped and the rest is as written', () => {
    const text = 'You spent 1,243.56 USD, not 1,234.56.';
    expect(markUnverified(text, untracedFigures(text, sources()))).toBe('You spent ⟦1,243.56⟧ USD, not 1,234.56.');
  });
});
