import { describe, expect, it } from 'vitest';
import { parseJournal, resolvePostings, writeBeancount, writeCsv, writeLedgerJournal } from './index.ts';
import type { Book } from './types.ts';

const ID = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;

const book: Book = {
  accounts: [
    { id: 'bank', name: 'Bank', type: 'ASSET', currency: 'USD', parentId: null, isActive: true },
    { id: 'chk', name: 'Checking: main', type: 'ASSET', currency: 'USD', parentId: 'bank', isActive: true },
    { id: 'food', name: 'food', type: 'EXPENSE', currency: 'USD', parentId: null, isActive: true },
    { id: 'other', name: 'food:Other', type: 'EXPENSE', currency: 'USD', parentId: 'food', isActive: false },
    { id: 'yen', name: 'Yen', type: 'ASSET', currency: 'JPY', parentId: null, isActive: true },
    { id: 'ramen', name: 'Ramen', type: 'EXPENSE', currency: 'JPY', parentId: 'food', isActive: true },
  ],
  entries: [
    {
      id: ID(1),
      date: '2024-01-02',
      memo: 'Lunch; "quoted"\nsecond',
      status: 'void',
      reversalEntryId: ID(3),
      reversesEntryId: null,
      lines: [
        { accountId: 'food', direction: 'DEBIT', amountMinor: 1250n, currency: 'USD' },
        { accountId: 'chk', direction: 'CREDIT', amountMinor: 1250n, currency: 'USD' },
      ],
    },
    {
      id: ID(2),
      date: '2024-01-03',
      memo: null,
      status: 'posted',
      reversalEntryId: null,
      reversesEntryId: null,
      lines: [
        { accountId: 'ramen', direction: 'DEBIT', amountMinor: 1500n, currency: 'JPY' },
        { accountId: 'yen', direction: 'CREDIT', amountMinor: 1500n, currency: 'JPY' },
        { accountId: 'other', direction: 'DEBIT', amountMinor: 5n, currency: 'USD' },
        { accountId: 'chk', direction: 'CREDIT', amountMinor: 5n, currency: 'USD' },
      ],
    },
    {
      id: ID(3),
      date: '2024-01-04',
      memo: 'Void: Lunch',
      status: 'posted',
      reversalEntryId: null,
      reversesEntryId: ID(1),
      lines: [
        { accountId: 'food', direction: 'CREDIT', amountMinor: 1250n, currency: 'USD' },
        { accountId: 'chk', direction: 'DEBIT', amountMinor: 1250n, currency: 'USD' },
      ],
    },
  ],
};

describe('writers', () => {
  it('when the books are written for hledger, then accounts, commodities, memos and exact amounts are declared as hledger reads them', () => {
    const text = writeLedgerJournal(book, 'hledger', ['test']);
    expect(text).toContain('commodity 1000. JPY\ncommodity 1000.00 USD\n');
    expect(text).toContain(
      'account Assets:Bank\n    ; currency: USD\naccount Assets:Bank:Checking- main\n    ; name: "Checking: main"\n',
    );
    expect(text).toContain('account Expenses:food:Other\n');
    expect(text).toContain(
      '2024-01-02 * Lunch, "quoted" second  ; id: 00000000-0000-7000-8000-000000000001\n    ; memo: "Lunch; \\"quoted\\"\\nsecond"\n    ; voided-by: 00000000-0000-7000-8000-000000000003\n',
    );
    expect(text).toMatch(
      /\n {4}Expenses:food:Ramen +1500 JPY\n {4}Assets:Yen +-1500 JPY\n {4}Expenses:food:Other +0\.05 USD\n/,
    );
    expect(text).toContain('2024-01-03 *  ; id:');
    expect(writeLedgerJournal(book, 'ledger')).toContain('commodity JPY\ncommodity USD\n');
  });

  it('when the books are written for beancount, then every account is opened with its currency, renamed ones carry name metadata, closed ones are closed', () => {
    const text = writeBeancount(book);
    expect(text).toContain('option "operating_currency" "JPY"\noption "operating_currency" "USD"\n');
    expect(text).toContain('2024-01-02 open Expenses:Food USD\n  name: "food"\n');
    expect(text).toContain('2024-01-02 open Expenses:Food:Other USD\n2024-01-02 open Expenses:Food:Ramen JPY\n');
    expect(text).toContain(
      '2024-01-02 * "Lunch; \\"quoted\\"\\nsecond"\n  id: "00000000-0000-7000-8000-000000000001"\n  voided-by: "00000000-0000-7000-8000-000000000003"\n',
    );
    expect(text).toContain('2024-01-04 close Expenses:Food:Other\n');
  });

  it('when the books are written as CSV, then there is one row per line with the entry’s status, quoted per RFC 4180', () => {
    const rows = writeCsv(book).split('\r\n');
    expect(rows[0]).toBe('date,entry_id,memo,account,debit,credit,currency,status,cost,cost_currency');
    expect(rows[1]).toBe(`2024-01-02,${ID(1)},"Lunch; ""quoted""\nsecond",Expenses:food,12.50,,USD,void,,`);
    expect(rows[2]).toBe(
      `2024-01-02,${ID(1)},"Lunch; ""quoted""\nsecond",Assets:Bank:Checking- main,,12.50,USD,void,,`,
    );
    expect(rows[3]).toBe(`2024-01-03,${ID(2)},,Expenses:food:Ramen,1500,,JPY,posted,,`);
    expect(rows).toHaveLength(10);
  });

  it('when an exchange is written as CSV, then its costed lines carry what they cost in the other currency', () => {
    const exchange: Book = {
      accounts: book.accounts,
      entries: [
        {
          id: ID(4),
          date: '2024-01-05',
          memo: 'Yen for the trip',
          status: 'posted',
          reversalEntryId: null,
          reversesEntryId: null,
          lines: [
            {
              accountId: 'yen',
              direction: 'DEBIT',
              amountMinor: 15000n,
              currency: 'JPY',
              cost: { amountMinor: 10025n, currency: 'USD' },
            },
            { accountId: 'chk', direction: 'CREDIT', amountMinor: 10025n, currency: 'USD' },
          ],
        },
      ],
    };
    const rows = writeCsv(exchange).split('\r\n');
    expect(rows[1]).toBe(`2024-01-05,${ID(4)},Yen for the trip,Assets:Yen,15000,,JPY,posted,100.25,USD`);
    expect(rows[2]).toBe(`2024-01-05,${ID(4)},Yen for the trip,Assets:Bank:Checking- main,,100.25,USD,posted,,`);
  });

  it('when a memo would run as a spreadsheet formula, then the CSV field is prefixed with a quote', () => {
    const formula: Book = { ...book, entries: [{ ...book.entries[1]!, memo: '=HYPERLINK("x")' }] };
    expect(writeCsv(formula).split('\r\n')[1]).toContain(`,"'=HYPERLINK(""x"")",`);
  });

  for (const format of ['ledger', 'hledger', 'beancount'] as const) {
    it(`when a ${format} export is read back, then it gives every memo, name, amount and void mark exactly`, () => {
      const text = format === 'beancount' ? writeBeancount(book) : writeLedgerJournal(book, format);
      const parsed = parseJournal(text, format);
      expect(parsed.transactions.map((t) => t.memo)).toEqual(['Lunch; "quoted"\nsecond', null, 'Void: Lunch']);
      expect(parsed.transactions.map((t) => t.marks)).toEqual([
        { id: ID(1), voidedBy: ID(3) },
        { id: ID(2) },
        { id: ID(3), reverses: ID(1) },
      ]);
      expect(parsed.accounts.find((a) => a.name === 'Checking: main')).toBeDefined();
      const lines = parsed.transactions.flatMap(resolvePostings);
      expect(lines.map((l) => `${l.direction} ${l.amountMinor} ${l.currency}`)).toEqual(
        book.entries.flatMap((e) => e.lines.map((l) => `${l.direction} ${l.amountMinor} ${l.currency}`)),
      );
      if (format === 'beancount') expect(parsed.closes.map((c) => c.path)).toEqual(['Expenses:Food:Other']);
    });
  }
});
