import { describe, expect, it } from 'vitest';
import { mapping, rows } from '../../../test/support/csv-fixtures.ts';
import { parseFixture as parse, refusal, utf8 } from '../../../test/support/statement-fixtures.ts';
import { parseStatementFile } from './index.ts';

describe('CSV as banks write it', () => {
  it('when rows spread their text over more cells than the header names, then the mapped columns are read and the extra cells listed', () => {
    const result = parse('csv_own_at_text_over_extra_cells.csv');
    expect(rows(result)).toEqual([
      ['2024-04-02', '49.90', 'debit'],
      ['2024-04-05', '12.35', 'debit'],
      ['2024-04-30', '2450.00', 'credit'],
    ]);
    expect(result.statements[0]?.transactions[0]?.description).toBe('Wiener Stadtwerke GmbH Strom April');
    expect(result.ignored_cells).toEqual([{ line: 2, cells: ['Vertrag 4711', 'Kundennr. 0815'] }]);
    expect(result.skipped).toEqual([]);
  });

  it('when notes and a sum sit between the header and the rows and a balance line ends the file, then they are skipped with their lines', () => {
    const result = parse('csv_own_de_notes_between_header_and_rows.csv');
    expect(rows(result)).toEqual([
      ['2024-03-05', '54.00', 'debit'],
      ['2024-03-04', '23.17', 'debit'],
      ['2024-03-01', '2810.55', 'credit'],
    ]);
    expect(result.skipped).toEqual([
      {
        line: 2,
        reason: 'not a transaction: 1 cell, the date and amount columns need 6: "* noch nicht ausgeführte Umsätze"',
      },
      { line: 3, reason: 'not a transaction: no date in Buchungstag: ";;;;Summe vorgemerkter Umsätze;-18,40"' },
      {
        line: 8,
        reason: 'not a transaction: no date in Buchungstag: "Kontostand vom 05.03.2024:;;;;;4.312,08 EUR"',
      },
    ]);
    expect(result.csv_first_row?.[0]).toBe('05.03.2024');
  });

  it('when "Pending" and "Posted" notes, a beginning balance without amount and a total line surround the rows, then each is skipped with its line', () => {
    const result = parse('csv_own_us_pending_posted_sections.csv');
    expect(rows(result)).toEqual([
      ['2024-01-03', '61.42', 'debit'],
      ['2024-01-12', '2450.00', 'credit'],
      ['2024-01-15', '89.99', 'debit'],
    ]);
    expect(result.skipped.map((s) => [s.line, s.reason.slice(0, s.reason.indexOf(':', 20))])).toEqual([
      [2, 'not a transaction: 1 cell, the date and amount columns need 3'],
      [3, 'not a transaction: 1 cell, the date and amount columns need 3'],
      [4, 'not a transaction: no amount in Amount'],
      [8, 'not a transaction: no date in Date'],
    ]);
  });

  it('when a file has no header line, then columns are mapped by position from what they hold', () => {
    const result = parse('csv_own_at_headerless_cp1252.csv');
    expect(result.csv_mapping).toMatchObject({
      has_header: false,
      header_row: 0,
      delimiter: ';',
      date_column: 2,
      date_format: 'DD.MM.YYYY',
      amount_column: 4,
      decimal_mark: ',',
      description_columns: [1],
      currency_column: 5,
      account_column: 0,
    });
    expect(result.csv_columns).toBeNull();
    expect(result.statements[0]).toMatchObject({ account_ref: 'AT611904300234573201', currency: 'EUR' });
    expect(rows(result)).toEqual([
      ['2024-02-01', '23.45', 'debit'],
      ['2024-02-03', '890.00', 'debit'],
      ['2024-02-28', '2345.00', 'credit'],
    ]);
    expect(result.statements[0]?.transactions[1]?.description).toBe('Überweisung Miete Februar Hausverwaltung Gruber');
  });

  it('when a file with a header is read with "the first row is data", then the header line is skipped as no transaction and positions map', () => {
    const text = 'Date,Text,Amount\n2024-01-02,Coffee,-3.20\n';
    const positional = mapping({ has_header: false, date_column: 0, description_columns: [1], amount_column: 2 });
    const result = parseStatementFile(utf8(text), { csvMapping: positional });
    expect(rows(result)).toEqual([['2024-01-02', '3.20', 'debit']]);
    expect(result.skipped).toEqual([{ line: 1, reason: 'not a transaction: no date in column 1: "Date,Text,Amount"' }]);
  });

  it('when a mapping without a header names a column by its text or a position beyond the rows, then it is refused', () => {
    const text = utf8('2024-01-02;Coffee;-3,20\n2024-01-03;Tea;-2,80\n');
    expect(
      refusal(() => parseStatementFile(text, { csvMapping: mapping({ delimiter: ';', has_header: false }) })),
    ).toBe('CSV mapping: the file has no header line, so "Date" must be a column position');
    const beyond = mapping({
      delimiter: ';',
      has_header: false,
      date_column: 0,
      description_columns: [1],
      amount_column: 7,
    });
    expect(refusal(() => parseStatementFile(text, { csvMapping: beyond }))).toBe(
      "CSV mapping: column 8 is beyond the file's 3 columns",
    );
  });

  it('when short Japanese, Korean and Chinese bank files in legacy encodings are read, then their own headers map and payees read', () => {
    const japanese = parse('csv_own_jp_eucjp_withdrawal_deposit.csv');
    expect(japanese.csv_mapping).toMatchObject({ debit_column: 'お引出し', credit_column: 'お預入れ' });
    expect(japanese.statements[0]?.transactions[0]).toMatchObject({
      description: '東京スーパー',
      amount: '1280.00',
      type: 'debit',
    });
    const korean = parse('csv_own_kr_euckr_short.csv');
    expect(korean.statements[0]?.transactions.map((t) => [t.description, t.amount, t.type])).toEqual([
      ['이마트 성수점', '35000.00', 'debit'],
      ['스타벅스 강남', '4500.00', 'debit'],
      ['급여', '3000000.00', 'credit'],
    ]);
    const chinese = parse('csv_own_cn_gb18030_short.csv');
    expect(chinese.statements[0]?.transactions.map((t) => [t.date, t.description, t.amount])).toEqual([
      ['2024-04-02', '京东商城 超市购物', '128.50'],
      ['2024-04-10', '上海星辰科技有限公司 工资', '8000.00'],
    ]);
    // the ideographic space collapses like any other
    expect(parse('csv_own_jp_sjis_quoted.csv').statements[0]?.transactions[1]?.description).toBe('コンビニ ローソン');
  });
});

describe('a CSV running-balance column', () => {
  const oldestFirst = 'Date,Text,Amount,Balance\n2026-03-02,Tesco,-41.20,119.29\n2026-03-05,Pay,2000.00,2119.29\n';
  const newestFirst =
    'Date,Text,Amount,Balance\n2026-03-05,Pay,2000.00,2119.29\n2026-03-05,Fee,-1.00,119.29\n2026-03-02,Tesco,-41.20,120.29\n';

  it('when the header says Balance, then the guess maps it and the closing balance is the last row by date', () => {
    const result = parseStatementFile(utf8(oldestFirst));
    expect(result.statements[0]?.closing_balance).toEqual({ amount: '2119.29', date: '2026-03-05' });
    expect(result.skipped).toEqual([]);
  });

  it('when a newest-first file has two rows on the last day, then the balance after both is the closing balance', () => {
    const result = parseStatementFile(utf8(newestFirst), { csvMapping: mapping({ balance_column: 'Balance' }) });
    expect(result.statements[0]?.closing_balance).toEqual({ amount: '2119.29', date: '2026-03-05' });
    expect(result.skipped).toEqual([]);
  });

  it('when the header says 余额, then it is the balance column', () => {
    const text = '日期,摘要,金额,余额\n2026-03-02,超市,-41.20,119.29\n';
    const result = parseStatementFile(utf8(text));
    expect(result.statements[0]?.closing_balance).toEqual({ amount: '119.29', date: '2026-03-02' });
  });

  it('when a balance does not follow from the one before and the amount, then a note names the line and says so', () => {
    const text = 'Date,Text,Amount,Balance\n2026-03-02,Tesco,-41.20,119.29\n2026-03-05,Pay,2000.00,2200.00\n';
    const result = parseStatementFile(utf8(text), { csvMapping: mapping({ balance_column: 'Balance' }) });
    expect(result.statements[0]?.closing_balance).toEqual({ amount: '2200.00', date: '2026-03-05' });
    expect(result.skipped).toEqual([
      { line: 3, reason: expect.stringContaining('is not the balance before it (119.29)') },
    ]);
    expect(rows(result)).toHaveLength(2);
  });

  it('when no balance column is mapped, then the CSV states no closing balance', () => {
    const result = parseStatementFile(utf8(oldestFirst), { csvMapping: mapping({}) });
    expect(result.statements[0]?.closing_balance).toBeNull();
  });
});
