import { describe, expect, it } from 'vitest';
import { parseFixture as parse, refusal, utf8 } from '../../../test/support/statement-fixtures.ts';
import { parseStatementFile, type ParseResult } from './index.ts';

const qif = (text: string): ParseResult => parseStatementFile(utf8(text));

describe('QIF', () => {
  it('when a QIF mixes sections, comments and a 0.00 opening balance, then only bank records count and the zero one is skipped', () => {
    const result = parse('qif_quiffen_mixed_sections.qif');
    expect(result.format).toBe('qif');
    const rows = result.statements[0]?.transactions ?? [];
    expect(rows.map((t) => [t.date, t.amount, t.type])).toEqual([
      ['2020-02-14', '67.50', 'credit'],
      ['2020-02-14', '32.00', 'credit'],
      ['2020-02-12', '10.00', 'debit'],
      ['2020-02-11', '25.00', 'debit'],
      ['2020-02-10', '100.00', 'debit'],
    ]);
    expect(rows[4]?.description).toBe('Amazon.com - test order 1');
    expect(result.skipped).toEqual([
      { line: 29, reason: 'zero amount (nothing to book)' },
      { line: 93, reason: 'investment record (!Type:Invst) is not a bank transaction' },
    ]);
  });

  it('when dates are M/D/YY and records have splits, then the record total counts and dates are month-first', () => {
    const rows = parse('qif_own_mdyy_splits.qif').statements[0]?.transactions ?? [];
    expect(rows.map((t) => [t.date, t.amount, t.type, t.description])).toEqual([
      ['1997-10-11', '6.19', 'debit', 'Phone & Co/063 - Phone bill - September'],
      ['1997-07-12', '98.05', 'debit', 'Bookshop - Card - September'],
      ['1997-09-20', '40.00', 'debit', 'Withdrawal'],
      ['1997-09-29', '1193.42', 'credit', 'Deposit - Paycheck + reimbursement'],
    ]);
  });

  it('when dates are DD.MM.YY with CRLF and UTF-8 umlauts, then they are day-first in 20xx', () => {
    const result = parse('qif_own_ddmmyy_crlf_utf8.qif');
    expect(result.encoding).toBe('utf-8');
    expect(result.statements[0]?.transactions.map((t) => [t.date, t.amount, t.type])).toEqual([
      ['2025-11-03', '5.00', 'debit'],
      ['2025-11-04', '357.61', 'debit'],
      ['2025-11-10', '83.16', 'credit'],
    ]);
    expect(result.statements[0]?.transactions[0]?.description).toBe(
      'Echtzeitüberweisung ; MAX MUSTERMANN ; DE00000000000000000000 ; Rückfrage',
    );
  });

  it('when !Account blocks precede two sections, then each account is its own statement', () => {
    const result = parse('qif_own_two_accounts.qif');
    expect(
      result.statements.map((s) => [s.account_ref, s.transactions.map((t) => [t.date, t.amount, t.type])]),
    ).toEqual([
      [
        'Checking',
        [
          ['2021-01-05', '20.00', 'debit'],
          ['2021-01-07', '1500.00', 'credit'],
        ],
      ],
      ['Visa', [['2021-01-09', '35.10', 'debit']]],
    ]);
  });

  it('when a slash date has a first number above 12, then the whole file is read day-first', () => {
    const result = qif('!Type:Bank\nD25/12/2023\nT-1.00\nPA\n^\nD02/01/2024\nT-2.00\nPB\n^\n');
    expect(result.statements[0]?.transactions.map((t) => t.date)).toEqual(['2023-12-25', '2024-01-02']);
  });

  it('when slash dates contradict each other, then the file is refused naming both lines', () => {
    expect(refusal(() => qif('!Type:Bank\nD25/12/2023\nT-1.00\n^\nD12/25/2023\nT-2.00\n^\n'))).toBe(
      'line 2: date "25/12/2023" is day-first but line 5 has month-first "12/25/2023"',
    );
  });

  it('when a record lacks its date or amount or holds garbage, then the line is named', () => {
    expect(refusal(() => qif('!Type:Bank\nT-1.00\nPA\n^\n'))).toBe('line 2: record has no D (date) line');
    expect(refusal(() => qif('!Type:Bank\nD1/2/2023\nPA\n^\n'))).toBe('line 2: record has no T (amount) line');
    expect(refusal(() => qif('!Type:Bank\nD2/30/2023\nT1\n^\n'))).toBe('line 2: date "2/30/2023" is not a valid date');
    expect(refusal(() => qif('!Type:Bank\nD2/3/2023\nTabc\n^\n'))).toBe('line 2: amount "abc" is not a number');
  });

  it('when a QIF has no bank-like section, then it is refused', () => {
    expect(refusal(() => qif('!Type:Cat\nNFood\n^\n'))).toBe(
      'no !Type:Bank, Cash, CCard, Oth A or Oth L section: no bank transactions in this QIF file',
    );
  });

  it("when a date uses Quicken's apostrophe with two digits, then the year is 20YY", () => {
    expect(qif("!Type:Bank\nD1/9'05\nT-1\n^\n").statements[0]?.transactions[0]?.date).toBe('2005-01-09');
    expect(qif('!Type:Bank\nD1/9/85\nT-1\n^\n').statements[0]?.transactions[0]?.date).toBe('1985-01-09');
  });
});
