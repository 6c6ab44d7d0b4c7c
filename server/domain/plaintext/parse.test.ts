import { describe, expect, it } from 'vitest';
import { parseJournal } from './index.ts';
import { resolvePostings } from './resolve.ts';
import { refusal } from '../../../test/support/journal-refusal.ts';

describe('ledger and hledger journals', () => {
  const journal = [
    '; a comment',
    '# another',
    '* an org heading',
    'comment',
    '2024-01-01 * not a transaction inside a block comment',
    'end comment',
    'account Assets:Bank:Work- Travel',
    '    ; name: "Work: Travel"',
    'account Expenses:Unused',
    '    ; currency: EUR',
    'commodity USD',
    '    format 1,000.00 USD',
    'tag id',
    'N $',
    'apply tag trip',
    '2024/1/5=2024/01/07 ! (1042) Market, paid  ; id: 0191d5a0-0000-7000-8000-000000000001',
    '    ; memo: "Market; paid"',
    '    ; a note with :tag:',
    '    Expenses:Food          $1,234.50  ; posting note',
    '    Expenses:Fees           USD 0.50',
    '    * Assets:Bank:Work- Travel',
    'end apply tag',
    '',
    '2024-01-06 Euro',
    '\tExpenses:Food:Abroad\t500.00€',
    '\tAssets:Euro  -500.00 EUR',
    '',
    '2024-01-07 Zero and negative forms',
    '    Assets:Bank  -$5',
    '    Assets:Bank  $-5',
    '    Income:Other  10 USD',
    '    Equity:Nothing  0 USD',
  ].join('\n');

  it('when a journal uses transactions, comments, blocks and harmless directives, then it reads them with line numbers', () => {
    const parsed = parseJournal(journal, 'hledger');
    expect(parsed.accounts).toEqual([
      { line: 7, path: 'Assets:Bank:Work- Travel', name: 'Work: Travel', currencies: [] },
      { line: 9, path: 'Expenses:Unused', name: null, currencies: ['EUR'] },
    ]);
    expect(parsed.transactions).toHaveLength(3);
    const [market, euro] = parsed.transactions;
    expect(market).toMatchObject({
      line: 16,
      date: '2024-01-05',
      memo: 'Market; paid',
      marks: { id: '0191d5a0-0000-7000-8000-000000000001' },
    });
    expect(market!.postings).toEqual([
      { line: 19, account: 'Expenses:Food', amount: { minor: 123450n, currency: 'USD' } },
      { line: 20, account: 'Expenses:Fees', amount: { minor: 50n, currency: 'USD' } },
      { line: 21, account: 'Assets:Bank:Work- Travel', amount: null },
    ]);
    expect(euro!.postings.map((p) => [p.account, p.amount])).toEqual([
      ['Expenses:Food:Abroad', { minor: 50000n, currency: 'EUR' }],
      ['Assets:Euro', { minor: -50000n, currency: 'EUR' }],
    ]);
  });

  it('when a description has a code, then the memo keeps it; hledger ends a description at any semicolon, ledger at one after a space', () => {
    const text = '2024-01-01 * (7) Rent;June  ; comment\n    Expenses:Rent  5 USD\n    Assets:Bank\n';
    expect(parseJournal(text, 'hledger').transactions[0]!.memo).toBe('(7) Rent');
    expect(parseJournal(text, 'ledger').transactions[0]!.memo).toBe('(7) Rent;June');
  });

  it('when one posting leaves out its amount, then it takes the balancing amount; zero postings make no line', () => {
    const [market, , zero] = parseJournal(journal, 'ledger').transactions;
    expect(resolvePostings(market!).map((l) => [l.account, l.direction, l.amountMinor])).toEqual([
      ['Expenses:Food', 'DEBIT', 123450n],
      ['Expenses:Fees', 'DEBIT', 50n],
      ['Assets:Bank:Work- Travel', 'CREDIT', 123500n],
    ]);
    expect(resolvePostings(zero!).map((l) => [l.account, l.direction, l.amountMinor])).toEqual([
      ['Assets:Bank', 'CREDIT', 500n],
      ['Assets:Bank', 'CREDIT', 500n],
      ['Income:Other', 'DEBIT', 1000n],
    ]);
  });

  it('when the one posting without an amount would need two currencies, or two postings leave it out, then the line is refused', () => {
    const two = parseJournal('2024-01-01 x\n  Assets:A  1 USD\n  Assets:B  1 EUR\n  Assets:C\n', 'hledger')
      .transactions[0]!;
    expect(() => resolvePostings(two)).toThrow(/line 4: .*-1\.00 USD and -1\.00 EUR/);
    const twice = parseJournal('2024-01-01 x\n  Assets:A  1 USD\n  Assets:B\n  Assets:C\n', 'hledger').transactions[0]!;
    expect(() => resolvePostings(twice)).toThrow(/line 4: only one posting/);
  });

  const refused: [string, string, RegExp][] = [
    ['an automated transaction', '= /Food/\n    (Budget)  -1\n', /line 1: an automated transaction \(=\)/],
    [
      'a periodic transaction',
      '~ Monthly\n    Assets:A  1 USD\n    Income:B\n',
      /line 1: a periodic transaction \(~\)/,
    ],
    ['a default commodity', 'D $1,000.00\n', /line 1: a default commodity \(D\)/],
    ['a default year', 'Y 2024\n', /line 1: a default year \(Y\)/],
    ['a default account', 'bucket Assets:Bank\n', /default balancing account \(bucket\)/],
    ['an alias', 'alias Foo=Assets:Bank\n', /line 1: an account alias \(alias\)/],
    ['an include', 'include other.journal\n', /line 1: an included file \(include\)/],
    ['apply account', 'apply account Personal\n', /line 1: apply account/],
    ['an unknown directive', 'frobnicate 42\n', /line 1: the directive "frobnicate"/],
    ['a lot price', '2024-01-01 x\n  Assets:A  1 EUR {1.1 USD}\n  Assets:B\n', /line 2: a lot price or cost/],
    ['a balance assertion', '2024-01-01 x\n  Assets:A  1 USD = 10 USD\n  Assets:B\n', /line 2: a balance assertion/],
    ['a value expression', '2024-01-01 x\n  Assets:A  (1 USD * 2)\n  Assets:B\n', /line 2: a value expression/],
    ['a virtual posting', '2024-01-01 x\n  (Assets:A)  1 USD\n', /line 2: a virtual posting/],
    [
      'a balanced virtual posting',
      '2024-01-01 x\n  [Assets:A]  1 USD\n  [Assets:B]\n',
      /line 2: a balanced virtual posting/,
    ],
    [
      'a posting date tag',
      '2024-01-01 x\n  Assets:A  1 USD  ; date:2024-02-01\n  Assets:B\n',
      /line 2: a posting date/,
    ],
    ['a date without a year', '1/5 x\n  Assets:A  1 USD\n  Assets:B\n', /line 1: a date without a year/],
    [
      'an account sub-directive that changes postings',
      'account Assets:Bank\n    default\n',
      /line 2: the account sub-directive "default"/,
    ],
  ];
  for (const [what, text, message] of refused) {
    it(`when a journal has ${what}, then it is refused as UNSUPPORTED_DIRECTIVE naming it and its line`, () => {
      const error = refusal(text, 'hledger');
      expect(error.code).toBe('UNSUPPORTED_DIRECTIVE');
      expect(error.message).toMatch(message);
      expect(error.errors?.[0]?.field).toMatch(/^line\.\d+$/);
    });
  }

  it('when an amount is not in a currency, has too many digits, or is no date, then the line is refused with its own code', () => {
    expect(refusal('2024-01-01 x\n  Assets:A  10 AAPL\n  Assets:B\n', 'ledger')).toMatchObject({
      code: 'UNSUPPORTED_COMMODITY',
      message: expect.stringMatching(/line 2: commodity "AAPL"/),
    });
    expect(refusal('2024-01-01 x\n  Assets:A  10 ¥\n  Assets:B\n', 'ledger').code).toBe('UNSUPPORTED_COMMODITY');
    expect(refusal('2024-01-01 x\n  Assets:A  1.005 USD\n  Assets:B\n', 'ledger')).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/line 2: .*more decimal places than USD/),
    });
    expect(refusal('2024-01-01 x\n  Assets:A  1.5 JPY\n  Assets:B\n', 'ledger').code).toBe('VALIDATION_ERROR');
    expect(refusal('2024-01-01 x\n  Assets:A  10\n  Assets:B\n', 'ledger')).toMatchObject({
      code: 'INVALID_JOURNAL',
      message: expect.stringMatching(/has no currency/),
    });
    expect(refusal('2024-02-30 x\n  Assets:A  1 USD\n  Assets:B\n', 'ledger')).toMatchObject({
      code: 'INVALID_JOURNAL',
      message: expect.stringMatching(/line 1: .*calendar date/),
    });
    expect(
      parseJournal('2024-01-01 x\n  Assets:A  1.500 USD\n  Assets:B\n', 'ledger').transactions[0]!.postings[0]!.amount,
    ).toEqual({ minor: 150n, currency: 'USD' });
  });
});

describe("securities' prices", () => {
  it("when a journal prices a security (a symbol that is no currency), then the price is read apart from the currencies' rates; a price that is no number above zero in a currency is refused, naming its line", () => {
    const ledger = parseJournal('P 2024-02-01 VTI 250.50 USD\nP 2024-02-01 EUR 1.08 USD\n', 'hledger');
    expect(ledger.securityPrices).toEqual([
      { line: 1, date: '2024-02-01', symbol: 'VTI', price: '250.50', currency: 'USD' },
    ]);
    expect(ledger.prices.map((p) => p.from)).toEqual(['EUR']);
    const beancount = parseJournal('2024-02-01 price VTI 72.125 USD\n', 'beancount');
    expect(beancount.securityPrices).toEqual([
      { line: 1, date: '2024-02-01', symbol: 'VTI', price: '72.125', currency: 'USD' },
    ]);
    expect(beancount.prices).toEqual([]);
    expect(refusal('P 2024-02-01 VTI 0 USD\n', 'ledger').message).toMatch(
      /line 1: the price of "?VTI"? reads a number above zero/,
    );
    expect(refusal('2024-02-01 price VTI 250 AAPL\n', 'beancount').code).toBe('UNSUPPORTED_COMMODITY');
  });
});

describe('beancount files', () => {
  const file = [
    ';; comment',
    '* Org heading',
    'option "title" "Test"',
    'option "operating_currency" "EUR"',
    'pushtag #trip',
    '2020-01-01 open Assets:Cafe-Bar USD,EUR "STRICT"',
    '  name: "Café & Bar"',
    '2020-01-01 open Income:Salary',
    '2020-01-01 commodity USD',
    '  name: "US Dollar"',
    '2020-01-02 event "location" "Paris"',
    '2020-01-02 note Assets:Cafe-Bar "a note"',
    '2020-01-03 * "Payee" "Narration \\"quoted\\"" #tag ^link ; comment',
    '  id: "0191d5a0-0000-7000-8000-000000000002"',
    '  memo: "\\"Exact\\\\nmemo\\""',
    '  Assets:Cafe-Bar   1,000.00 USD',
    '    note: "posting metadata"',
    '  ! Income:Salary',
    '2020-01-04 txn "multi',
    'line narration"',
    '  Assets:Cafe-Bar  -2.50 EUR',
    '  Income:Salary     2.50 EUR',
    '2020-01-05 close Assets:Cafe-Bar',
  ].join('\n');

  it('when a file uses transactions, open with name metadata, close, options, events and org headings, then it reads them', () => {
    const parsed = parseJournal(file, 'beancount');
    expect(parsed.operatingCurrency).toBe('EUR');
    expect(parsed.accounts).toEqual([
      { line: 6, path: 'Assets:Cafe-Bar', name: 'Café & Bar', currencies: ['USD', 'EUR'] },
      { line: 8, path: 'Income:Salary', name: null, currencies: [] },
    ]);
    expect(parsed.closes).toEqual([{ line: 23, path: 'Assets:Cafe-Bar' }]);
    const [first, second] = parsed.transactions;
    expect(first).toMatchObject({
      line: 13,
      date: '2020-01-03',
      memo: 'Exact\nmemo',
      marks: { id: '0191d5a0-0000-7000-8000-000000000002' },
    });
    expect(first!.postings).toEqual([
      { line: 16, account: 'Assets:Cafe-Bar', amount: { minor: 100000n, currency: 'USD' } },
      { line: 18, account: 'Income:Salary', amount: null },
    ]);
    expect(second).toMatchObject({ line: 19, memo: 'multi\nline narration' });
    expect(second!.postings.map((p) => p.line)).toEqual([21, 22]);
  });

  it('when a transaction has a payee and a narration, then the memo is "payee | narration"', () => {
    const parsed = parseJournal('2020-01-03 * "Shop" "Bread"\n  Assets:A  1 USD\n  Assets:B\n', 'beancount');
    expect(parsed.transactions[0]!.memo).toBe('Shop | Bread');
  });

  it('when a commodity or an account is declared on a date the ledger does not keep, then it is read, while a transaction or a price on such a date is refused', () => {
    const declared = parseJournal(
      '1792-01-01 commodity USD\n1800-01-01 open Assets:A USD\n2020-01-03 * "Bread"\n  Assets:A  1 USD\n  Assets:B\n',
      'beancount',
    );
    expect(declared.transactions).toHaveLength(1);
    expect(declared.accounts.map((a) => a.path)).toEqual(['Assets:A']);
    expect(refusal('1792-01-03 * "Bread"\n  Assets:A  1 USD\n  Assets:B\n', 'beancount').message).toMatch(
      /line 1: 1792-01-03 is outside the dates the ledger keeps/,
    );
    expect(refusal('1792-01-03 price EUR 1.1 USD\n', 'beancount').message).toMatch(/line 1: 1792-01-03 is outside/);
  });

  const refused: [string, string, string, RegExp][] = [
    [
      'a balance assertion',
      '2020-01-01 balance Assets:A 1 USD\n',
      'UNSUPPORTED_DIRECTIVE',
      /line 1: the balance directive/,
    ],
    ['a pad', '2020-01-01 pad Assets:A Equity:Opening\n', 'UNSUPPORTED_DIRECTIVE', /line 1: the pad directive/],
    [
      'a custom directive',
      '2020-01-01 custom "budget" Expenses:Food "monthly" 100 USD\n',
      'UNSUPPORTED_DIRECTIVE',
      /line 1: the custom directive/,
    ],
    ['a plugin', 'plugin "beancount.plugins.auto_accounts"\n', 'UNSUPPORTED_DIRECTIVE', /line 1: a plugin/],
    ['an include', 'include "other.beancount"\n', 'UNSUPPORTED_DIRECTIVE', /line 1: an included file/],
    [
      'an option that renames roots',
      'option "name_assets" "Activa"\n',
      'UNSUPPORTED_DIRECTIVE',
      /line 1: the option "name_assets"/,
    ],
    [
      'a cost on money',
      '2020-01-01 *\n  Assets:A  1 EUR {1.1 USD}\n  Assets:B\n',
      'UNSUPPORTED_DIRECTIVE',
      /line 2: a cost/,
    ],
    [
      'arithmetic',
      '2020-01-01 *\n  Assets:A  (10/3) USD\n  Assets:B\n',
      'UNSUPPORTED_DIRECTIVE',
      /line 2: an arithmetic expression/,
    ],
    [
      'a stock commodity',
      '2020-01-01 *\n  Assets:A  1 HOOL\n  Assets:B\n',
      'UNSUPPORTED_COMMODITY',
      /line 2: commodity "HOOL"/,
    ],
    [
      'an open for a commodity that is neither currency nor security',
      '2020-01-01 open Assets:A USD,hool\n',
      'UNSUPPORTED_COMMODITY',
      /line 1: commodity "hool"/,
    ],
    ['an unclosed string', '2020-01-01 * "never closed\n', 'INVALID_JOURNAL', /line 1: a string is not closed/],
  ];
  for (const [what, text, code, message] of refused) {
    it(`when a file has ${what}, then it is refused as ${code} naming it and its line`, () => {
      const error = refusal(text, 'beancount');
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
    });
  }
});
