import { describe, expect, it } from 'vitest';
import { parseJournal } from './index.ts';
import { resolvePostings } from './resolve.ts';
import type { JournalFormat } from './types.ts';
import { refusal } from '../../../test/support/journal-refusal.ts';

/** Prices, exchanges and securities' costs in ledger, hledger and beancount journals. */

describe('prices and exchanges in journals', () => {
  it("when a ledger journal has P directives and postings with @@ and @, then it reads the prices and each posting's cost", () => {
    const parsed = parseJournal(
      [
        'P 2026-01-05 EUR 1.085 USD',
        'P 2026/01/06 12:00:00 EUR $1.0875',
        '2026-01-07 Dinner',
        '    Expenses:Travel   100.00 EUR @@ 108.50 USD',
        '    Assets:Checking',
        '2026-01-08 Coffee',
        '    Expenses:Travel   4.00 EUR @ 1.1 USD',
        '    Assets:Checking  -4.40 USD',
        '    Equity:Currency trading EUR  -4.00 EUR @@ 4.40 USD  ; automatic: trading',
      ].join('\n'),
      'ledger',
    );
    expect(parsed.prices).toEqual([
      { line: 1, date: '2026-01-05', from: 'EUR', to: 'USD', rateScaled: 1_085_000_000_000n },
      { line: 2, date: '2026-01-06', from: 'EUR', to: 'USD', rateScaled: 1_087_500_000_000n },
    ]);
    const [dinner, coffee] = parsed.transactions;
    expect(dinner!.postings[0]!.cost).toEqual({ minor: 10850n, currency: 'USD' });
    // the elided posting balances the cost, not the EUR amount
    expect(resolvePostings(dinner!).map((l) => `${l.direction} ${l.amountMinor} ${l.currency}`)).toEqual([
      'DEBIT 10000 EUR',
      'CREDIT 10850 USD',
    ]);
    expect(coffee!.postings[0]!.cost).toEqual({ minor: 440n, currency: 'USD' });
    expect(coffee!.postings[2]).toMatchObject({ automatic: true, cost: { minor: 440n, currency: 'USD' } });
  });

  it('when a beancount file has price directives and total prices, then it reads them, with the automatic metadata', () => {
    const parsed = parseJournal(
      [
        '2026-01-05 price EUR 1.085 USD',
        '2026-01-07 * "Dinner"',
        '  Expenses:Travel  100.00 EUR @@ 108.50 USD',
        '  Assets:Checking  -108.50 USD',
        '  Equity:Currency-trading-EUR  -100.00 EUR @@ 108.50 USD',
        '    automatic: "trading"',
      ].join('\n'),
      'beancount',
    );
    expect(parsed.prices).toEqual([
      { line: 1, date: '2026-01-05', from: 'EUR', to: 'USD', rateScaled: 1_085_000_000_000n },
    ]);
    expect(parsed.transactions[0]!.postings[2]).toMatchObject({
      automatic: true,
      cost: { minor: 10850n, currency: 'USD' },
    });
  });

  it('when a price is inexact, negative, in its own currency, or a rate has 13 decimals, then the line is refused', () => {
    const cases: [string, JournalFormat, RegExp][] = [
      [
        '2026-01-01 x\n  Assets:A  1.00 EUR @ 1.0851 USD\n  Assets:B\n',
        'ledger',
        /line 2: .*write the total cost with @@/,
      ],
      [
        '2026-01-01 x\n  Assets:A  1.00 EUR @@ -1.10 USD\n  Assets:B\n',
        'hledger',
        /line 2: a price must not be negative/,
      ],
      [
        '2026-01-01 x\n  Assets:A  1.00 EUR @@ 1.10 EUR\n  Assets:B\n',
        'hledger',
        /line 2: the price of EUR is in EUR itself/,
      ],
      [
        '2026-01-01 x\n  Assets:A  1.00 EUR @@ 1.10 USD @@ 2 USD\n  Assets:B\n',
        'ledger',
        /line 2: .*more than one price/,
      ],
      ['P 2026-01-01 EUR 1.0000000000001 USD\n', 'ledger', /line 1: the price "1.0000000000001"/],
      ['P 2026-01-01 EUR 0 USD\n', 'hledger', /line 1: the price "0" is not a number above zero/],
      ['P 2026-01-01 EUR\n', 'hledger', /line 1: a P directive reads/],
      ['2026-01-01 price EUR 1.1 EUR\n', 'beancount', /line 1: the price of EUR is in EUR itself/],
    ];
    for (const [text, format, message] of cases) expect(refusal(text, format).message, text).toMatch(message);
  });
});

describe('a security\'s units with their cost (docs/investments.md "Interop")', () => {
  const amounts = (text: string, format: JournalFormat) =>
    resolvePostings(parseJournal(text, format).transactions[0]!).map((l) => [
      l.account,
      l.direction,
      l.amountMinor,
      l.currency,
    ]);

  it('when beancount units carry a lot cost, then each posting is its cost in money: the lot spec is weighed, a sale price is not', () => {
    const text = [
      '2024-01-01 open Assets:Broker USD,VTI',
      '2024-03-01 * "sell"',
      '  Assets:Broker  1000.00 USD',
      '  Assets:Broker  -4 VTI {210.50 USD, 2024-01-05} @ 250.00 USD',
      '  Income:Gains  -158.00 USD',
      '',
    ].join('\n');
    expect(parseJournal(text, 'beancount').accounts[0]!.currencies).toEqual(['USD']);
    expect(amounts(text, 'beancount')).toEqual([
      ['Assets:Broker', 'DEBIT', 100000n, 'USD'],
      ['Assets:Broker', 'CREDIT', 84200n, 'USD'],
      ['Income:Gains', 'CREDIT', 15800n, 'USD'],
    ]);
    expect(
      amounts('2024-01-05 * "buy"\n  Assets:B  3 VTI {{100.00 USD}}\n  Assets:C  -100.00 USD\n', 'beancount'),
    ).toEqual([
      ['Assets:B', 'DEBIT', 10000n, 'USD'],
      ['Assets:C', 'CREDIT', 10000n, 'USD'],
    ]);
  });

  it('when ledger and hledger units carry a lot price or a price, then each posting is its cost in money', () => {
    expect(
      amounts(
        '2024-03-01 sell\n  Assets:B  1000.00 USD\n  Assets:B  -4 VTI {210.50 USD} [2024-01-05] @ 250.00 USD\n  Income:G  -158.00 USD\n',
        'ledger',
      ),
    ).toEqual([
      ['Assets:B', 'DEBIT', 100000n, 'USD'],
      ['Assets:B', 'CREDIT', 84200n, 'USD'],
      ['Income:G', 'CREDIT', 15800n, 'USD'],
    ]);
    expect(amounts('2024-01-05 buy\n  Assets:B  10 VTI @ 210.50 USD\n  Assets:C\n', 'hledger')).toEqual([
      ['Assets:B', 'DEBIT', 210500n, 'USD'],
      ['Assets:C', 'CREDIT', 210500n, 'USD'],
    ]);
    expect(
      amounts(
        '2024-01-05 buy\n  Assets:B  -1 VTI {{33.34 USD}} [2024-01-05] @ 41 USD\n  Assets:C  41.00 USD\n  Income:G\n',
        'ledger',
      ),
    ).toEqual([
      ['Assets:B', 'CREDIT', 3334n, 'USD'],
      ['Assets:C', 'DEBIT', 4100n, 'USD'],
      ['Income:G', 'CREDIT', 766n, 'USD'],
    ]);
  });

  it('when units times a per-unit cost leave a fraction of a cent, then it is rounded and what that leaves unbalanced goes to the last such posting', () => {
    const text = [
      '2024-02-05 * "sell"',
      '  Assets:B  40.00 USD',
      '  Assets:B  -1 VTI {33.3333333333 USD, 2024-01-05} @ 40 USD',
      '  Income:G  -6.66 USD',
      '',
    ].join('\n');
    // 1 × 33.3333333333 is 33.33 rounded; the entry says the cost was 33.34
    expect(amounts(text, 'beancount')).toEqual([
      ['Assets:B', 'DEBIT', 4000n, 'USD'],
      ['Assets:B', 'CREDIT', 3334n, 'USD'],
      ['Income:G', 'CREDIT', 666n, 'USD'],
    ]);
    // more than a cent per rounded posting is no rounding: the entry does not balance
    const off = text.replace('-6.66 USD', '-6.50 USD');
    expect(amounts(off, 'beancount').map((l) => l[2])).toEqual([4000n, 3333n, 650n]);
  });

  it('when units of a security carry no cost, or a cost that is no amount, then the line is refused naming it', () => {
    expect(refusal('2024-01-01 *\n  Assets:A  10 VTI\n  Assets:B\n', 'beancount')).toMatchObject({
      code: 'UNSUPPORTED_COMMODITY',
      message: expect.stringMatching(/^line 2: commodity "VTI" .*no cost/),
    });
    expect(refusal('2024-01-01 x\n  Assets:A  10 VTI @ lots USD\n  Assets:B\n', 'hledger').message).toMatch(
      /^line 2: the cost of VTI reads a number/,
    );
    expect(refusal('2024-01-01 x\n  Assets:A  1.123456789 VTI @ 1 USD\n  Assets:B\n', 'hledger').message).toMatch(
      /^line 2: .*at most 8 decimals/,
    );
  });
});
