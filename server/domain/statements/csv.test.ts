import { describe, expect, it } from 'vitest';
import { parseFixture as parse, refusal, utf8 } from '../../../test/support/statement-fixtures.ts';
import { parseStatementFile } from './index.ts';
import type { CsvMapping, ParseResult } from './index.ts';

const rows = (result: ParseResult): [string, string, string][] =>
  (result.statements[0]?.transactions ?? []).map((t) => [t.date, t.amount, t.type]);

const mapping = (overrides: Partial<CsvMapping>): CsvMapping => ({
  delimiter: ',',
  header_row: 0,
  has_header: true,
  date_column: 'Date',
  date_format: 'YYYY-MM-DD',
  description_columns: ['Text'],
  amount_column: 'Amount',
  debit_column: null,
  credit_column: null,
  decimal_mark: '.',
  external_id_column: null,
  status_column: null,
  skip_status_values: [],
  direction_column: null,
  direction_debit_values: [],
  direction_credit_values: [],
  fee_column: null,
  account_column: null,
  currency_column: null,
  ...overrides,
});

describe('CSV with a guessed mapping', () => {
  it('when debit and credit are separate unsigned columns and the header has a trailing comma, then each row gets its direction', () => {
    const result = parse('csv_lloyds_uk_debit_credit_ddmmyyyy.csv');
    expect(result.csv_mapping).toMatchObject({
      date_format: 'DD/MM/YYYY',
      debit_column: 'Debit Amount',
      credit_column: 'Credit Amount',
      amount_column: null,
    });
    expect(result.statements[0]?.account_ref).toBe('1515152252');
    const all = rows(result);
    expect(all).toHaveLength(12);
    expect(all[0]).toEqual(['2024-01-15', '8.99', 'debit']);
    expect(all[3]).toEqual(['2023-12-01', '2000.00', 'credit']);
    expect(all[11]).toEqual(['2023-12-01', '500.00', 'credit']);
  });

  it('when an ISO-8859-1 file has DD.MM.YY dates, decimal commas and a pending row, then the pending row is skipped with its line', () => {
    const result = parse('csv_sparkasse_freiburg_latin1.csv');
    expect(result.encoding).toBe('iso-8859-1');
    expect(result.csv_mapping).toMatchObject({
      delimiter: ';',
      date_format: 'DD.MM.YY',
      decimal_mark: ',',
      status_column: 'Info',
    });
    expect(result.statements[0]?.transactions).toEqual([
      {
        date: '2018-03-28',
        description: 'Sabrina Mustermann Geschenk Hans Meyer abzügl. Schulden',
        amount: '123.00',
        type: 'credit',
        external_id: null,
      },
    ]);
    expect(result.skipped).toEqual([{ line: 2, reason: 'status "Umsatz vorgemerkt"' }]);
  });

  it('when a UTF-8 BOM file has preamble lines, DD.MM.YY and dot thousands, then the header is found and amounts read', () => {
    const result = parse('csv_dkb_tagesgeld_utf8bom_preamble.csv');
    expect(result.csv_mapping).toMatchObject({
      header_row: 4,
      date_column: 'Buchungsdatum',
      amount_column: 'Betrag (€)',
      decimal_mark: ',',
    });
    expect(result.statements[0]).toMatchObject({ account_ref: 'DE71120300001027943842', currency: 'EUR' });
    expect(rows(result)).toEqual([
      ['2023-08-25', '100000.00', 'credit'],
      ['2023-08-25', '10.22', 'debit'],
      ['2023-08-22', '10.22', 'debit'],
      ['2023-08-20', '1234.56', 'debit'],
      ['2023-08-10', '2345.67', 'credit'],
    ]);
  });

  it('when a Swiss file has Débit/Crédit columns and numbered descriptions, then they map', () => {
    const result = parse('csv_ubs_ch_apostrophe_debit_credit.csv');
    expect(result.statements[0]).toMatchObject({ account_ref: '0123 45678901.23A', currency: 'CHF' });
    expect(result.statements[0]?.transactions).toEqual([
      {
        date: '2019-03-31',
        description: 'Solde prix prestations',
        amount: '10.00',
        type: 'debit',
        external_id: 'A01234BC01234567',
      },
      {
        date: '2019-02-28',
        description: 'Virement postal ASSOCIATION FOO-BAR BVD DE QUELQUE-PART 1, 1201 GENEVE, CH',
        amount: '240.00',
        type: 'credit',
        external_id: '3456789ZT1234567',
      },
      {
        date: '2019-04-27',
        description: 'Ordre e-banking REMB-CASH Quuz-baz SàrL, CH - 1203 GENEVE, E-Banking CHF intérieur',
        amount: '200.00',
        type: 'debit',
        external_id: '9979360TI2115087',
      },
    ]);
  });

  it('when an apostrophe groups thousands in the amount columns, then it reads', () => {
    const result = parse('csv_own_ch_apostrophe_thousands.csv');
    expect(rows(result)).toEqual([
      ['2024-01-05', '1850.00', 'debit'],
      ['2024-01-15', '6432.15', 'credit'],
      ['2024-01-20', '4.80', 'debit'],
    ]);
  });

  it('when a CRLF file has DD/MM/YYYY dates and no final newline, then day-first is inferred from the data', () => {
    const result = parse('csv_ing_es_ddmmyyyy_crlf.csv');
    expect(result.csv_mapping?.date_format).toBe('DD/MM/YYYY');
    const all = rows(result);
    expect(all).toHaveLength(10);
    expect(all[1]).toEqual(['2022-04-08', '2.69', 'credit']);
    expect(all[9]).toEqual(['2022-11-13', '500.00', 'credit']);
    expect(result.statements[0]?.transactions[0]?.description).toBe('Abono por campaña Abono Shopping NARANJA:GALP');
  });

  it('when dates are M/D/YYYY and every line ends with a comma, then rows read month-first', () => {
    const result = parse('csv_own_us_mdyyyy_trailing_comma.csv');
    expect(result.csv_mapping?.date_format).toBe('M/D/YYYY');
    expect(rows(result)).toEqual([
      ['2016-03-18', '2680.89', 'debit'],
      ['2016-03-15', '2590.73', 'credit'],
      ['2016-03-06', '60.00', 'debit'],
      ['2016-03-04', '1300.00', 'debit'],
    ]);
    expect(result.statements[0]?.transactions[1]?.description).toBe('EMPLOYER INC DIRECT DEP PPD ID: 0000000000');
  });

  it('when amounts carry $ and comma thousands in a CRLF MM/DD/YYYY file, then they read and the ID column is the external id', () => {
    const result = parse('csv_own_us_dollar_thousands_crlf.csv');
    expect(result.csv_mapping).toMatchObject({ date_format: 'MM/DD/YYYY', external_id_column: 'ID' });
    expect(result.statements[0]?.transactions.map((t) => [t.date, t.amount, t.type, t.external_id])).toEqual([
      ['2021-12-31', '7971.39', 'debit', 'aWQtMDAwMQ=='],
      ['2021-12-30', '6000.36', 'credit', 'aWQtMDAwMg=='],
      ['2021-12-15', '10000.00', 'credit', 'aWQtMDAwMw=='],
    ]);
  });

  it('when a BOM + CRLF file has zero-amount notices, then they are skipped with their lines', () => {
    const result = parse('csv_own_de_utf8bom_crlf_zero_rows.csv');
    expect(result.statements[0]).toMatchObject({ account_ref: 'DE00123456780000000000', currency: 'EUR' });
    expect(rows(result)).toEqual([
      ['2024-12-31', '10.70', 'debit'],
      ['2025-01-21', '12.34', 'debit'],
      ['2025-05-02', '1234.56', 'credit'],
    ]);
    expect(result.skipped).toEqual([
      { line: 3, reason: 'zero amount (nothing to book)' },
      { line: 6, reason: 'zero amount (nothing to book)' },
    ]);
  });

  it('when Revolut rows are pending, reverted, zero or carry a fee, then only completed money movements remain, net of fees', () => {
    const result = parse('csv_own_revolut_pending_fee.csv');
    expect(result.csv_mapping).toMatchObject({
      date_column: 'Completed Date',
      status_column: 'State',
      fee_column: 'Fee',
    });
    expect(result.statements[0]?.currency).toBe('EUR');
    expect(result.statements[0]?.transactions).toEqual([
      { date: '2022-01-02', description: 'To A. Friend', amount: '250.00', type: 'debit', external_id: null },
      { date: '2022-01-07', description: 'Shop, Market and More', amount: '38.71', type: 'debit', external_id: null },
      { date: '2022-01-08', description: 'Exchanged to USD', amount: '101.50', type: 'debit', external_id: null },
    ]);
    expect(result.skipped).toEqual([
      { line: 3, reason: 'zero amount (nothing to book)' },
      { line: 6, reason: 'status "REVERTED"' },
      { line: 7, reason: 'status "PENDING"' },
    ]);
  });

  it('when a Knab export has a preamble line and a CreditDebet column, then the column gives the direction', () => {
    const result = parse('csv_own_nl_knab_preamble_creditdebet.csv');
    expect(result.csv_mapping).toMatchObject({
      header_row: 1,
      date_column: 'Boekdatum',
      date_format: 'DD-MM-YYYY',
      direction_column: 'CreditDebet',
      external_id_column: 'Referentie',
    });
    expect(result.statements[0]).toMatchObject({ account_ref: 'NL00KNAB0000000000', currency: 'EUR' });
    expect(result.statements[0]?.transactions).toEqual([
      {
        date: '2019-06-21',
        description: 'J. Jansen (FR) Tresorie',
        amount: '827.75',
        type: 'debit',
        external_id: 'REF000000000001',
      },
      { date: '2019-06-10', description: 'JANSEN J', amount: '1000.00', type: 'debit', external_id: 'REF000000000002' },
      { date: '2019-01-07', description: 'Knab Rente', amount: '7.02', type: 'credit', external_id: 'REF000000000003' },
    ]);
  });

  it('when an ING NL export has Af/Bij and YYYYMMDD dates, then Af is a debit and Bij a credit', () => {
    const result = parse('csv_own_nl_ing_af_bij.csv');
    expect(result.csv_mapping).toMatchObject({
      date_format: 'YYYYMMDD',
      direction_column: 'Af Bij',
      decimal_mark: ',',
    });
    expect(rows(result)).toEqual([
      ['2023-01-05', '23.45', 'debit'],
      ['2023-01-25', '2345.67', 'credit'],
    ]);
  });

  it('when a windows-1252 file has 14 preamble lines and two Währung columns, then the header is line 15 and the IBAN comes from the preamble', () => {
    const result = parse('csv_own_de_cp1252_preamble.csv');
    expect(result.encoding).toBe('windows-1252');
    expect(result.csv_mapping).toMatchObject({ header_row: 14, date_column: 'Buchung', amount_column: 'Betrag' });
    expect(result.statements[0]).toMatchObject({ account_ref: 'DE00123456789012345678', currency: 'EUR' });
    expect(result.statements[0]?.transactions[0]).toEqual({
      date: '2018-12-28',
      description: 'Blumen Müller Strauß „Rosen“ – 5 € Rabatt',
      amount: '5.50',
      type: 'debit',
      external_id: null,
    });
    expect(rows(result)[1]).toEqual(['2018-12-27', '1100.00', 'credit']);
  });

  it('when a cp1257 file has line breaks inside quoted fields and a header longer than its rows, then the packed field is split and lines stay right', () => {
    const result = parse('csv_own_lt_cp1257_multiline.csv');
    expect(result.encoding).toBe('windows-1257');
    expect(result.csv_mapping).toMatchObject({ date_format: 'YYYY:MM:DD', description_columns: ['Name', 'Memo'] });
    expect(rows(result)).toEqual([
      ['2012-03-01', '7.80', 'debit'],
      ['2012-03-01', '889.81', 'credit'],
      ['2012-03-06', '0.46', 'debit'],
    ]);
    expect(result.statements[0]?.transactions[0]?.description).toBe(
      'Paslaugų mokestis Mokestis už lėšų įskaitymą, mokėjimo paskirtis: . Užsienio banko mokesčiai: SHA USD0',
    );
  });

  it('when an amount is not a number or a date is impossible, then the line is named', () => {
    expect(refusal(() => parse('csv_own_broken_bad_amount.csv'))).toBe(
      'line 3: amount "12,3x" is not a number (decimal mark ",")',
    );
    expect(refusal(() => parse('csv_own_broken_bad_date.csv'))).toBe(
      'line 3: date "2023-02-30" is not a valid YYYY-MM-DD date',
    );
  });

  it('when a row after a multi-line record is bad, then its own line number is reported', () => {
    const text = 'Date,Text,Amount\n2024-01-01,"two\nlines",1.00\n\n2024-01-02,ok,x1\n';
    expect(refusal(() => parseStatementFile(utf8(text), { csvMapping: mapping({}) }))).toBe(
      'line 5: amount "x1" is not a number (decimal mark ".")',
    );
  });

  it('when csv_columns is asked for, then it holds the header names in file order', () => {
    expect(parse('csv_own_us_dollar_thousands_crlf.csv').csv_columns).toEqual([
      'DATE',
      'TRANSACTION TYPE',
      'DESCRIPTION',
      'AMOUNT',
      'ID',
      'MEMO',
      'CURRENT BALANCE',
    ]);
    expect(parse('qif_own_two_accounts.qif').csv_columns).toBeNull();
  });
});

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

describe('CSV with a given mapping', () => {
  const text =
    'Date;Text;Amount;Dir;Fee;State\n2024-01-02;Rent;850,00;D;;booked\n2024-01-03;Refund;12,50;C;0,50;booked\n2024-01-04;Hold;5,00;D;;pending\n';

  it('when a mapping is given, then it is used instead of guessing and returned', () => {
    const given = mapping({
      delimiter: ';',
      decimal_mark: ',',
      direction_column: 'Dir',
      direction_debit_values: ['D'],
      direction_credit_values: ['C'],
      fee_column: 'Fee',
      status_column: 'State',
      skip_status_values: ['Pending'],
    });
    const result = parseStatementFile(utf8(text), { format: 'csv', csvMapping: given });
    expect(result.csv_mapping).toBe(given);
    expect(rows(result)).toEqual([
      ['2024-01-02', '850.00', 'debit'],
      ['2024-01-03', '12.00', 'credit'],
    ]);
    expect(result.skipped).toEqual([{ line: 4, reason: 'status "pending"' }]);
  });

  it('when the mapping names a missing column or is inconsistent, then it is refused with a reason', () => {
    const run = (m: Partial<CsvMapping>): string =>
      refusal(() =>
        parseStatementFile(utf8(text), { csvMapping: mapping({ delimiter: ';', decimal_mark: ',', ...m }) }),
      );
    expect(run({ date_column: 'Datum' })).toBe(
      'line 1: column "Datum" is not in the header ("Date", "Text", "Amount", "Dir", "Fee", "State")',
    );
    expect(run({ debit_column: 'Amount', credit_column: 'Fee' })).toBe(
      'CSV mapping: give either amount_column or debit_column and credit_column',
    );
    expect(run({ delimiter: ':' })).toBe('CSV mapping: delimiter ":" is not one of , ; tab |');
    expect(run({ direction_column: 'Dir' })).toBe(
      'CSV mapping: direction_column needs direction_debit_values and direction_credit_values',
    );
    expect(run({ date_format: 'DD.MM.YYYY' })).toBe('line 2: date "2024-01-02" is not a valid DD.MM.YYYY date');
  });

  it('when a direction value is unknown or the amount is already negative, then the line is named', () => {
    const dir = {
      delimiter: ';',
      decimal_mark: ',' as const,
      direction_column: 'Dir',
      direction_debit_values: ['D'],
      direction_credit_values: ['C'],
    };
    expect(
      refusal(() =>
        parseStatementFile(utf8('Date;Text;Amount;Dir\n2024-01-02;x;1,00;X\n'), { csvMapping: mapping(dir) }),
      ),
    ).toBe('line 2: Dir "X" is neither a debit (D) nor a credit (C) value');
    expect(
      refusal(() =>
        parseStatementFile(utf8('Date;Text;Amount;Dir\n2024-01-02;x;-1,00;D\n'), { csvMapping: mapping(dir) }),
      ),
    ).toBe('line 2: amount "-1,00" is negative although Dir gives the direction');
  });

  it('when debit and credit columns are both filled, then the line is named; when both are empty, it is skipped as no transaction', () => {
    const dc = mapping({ amount_column: null, debit_column: 'Out', credit_column: 'In' });
    expect(
      refusal(() => parseStatementFile(utf8('Date,Text,Out,In\n2024-01-02,x,1.00,2.00\n'), { csvMapping: dc })),
    ).toBe('line 2: both Out and In have an amount');
    expect(parseStatementFile(utf8('Date,Text,Out,In\n2024-01-02,x,,\n'), { csvMapping: dc }).skipped).toEqual([
      { line: 2, reason: 'not a transaction: no amount in Out or In: "2024-01-02,x,,"' },
    ]);
    expect(
      rows(
        parseStatementFile(utf8('Date,Text,Out,In\n2024-01-02,x,0.00,2.00\n2024-01-03,y,-3.00,\n'), { csvMapping: dc }),
      ),
    ).toEqual([
      ['2024-01-02', '2.00', 'credit'],
      ['2024-01-03', '3.00', 'debit'],
    ]);
  });

  it('when a row has more cells than the header, then the mapped columns are read and the extra cells are answered as ignored', () => {
    const result = parseStatementFile(utf8('Date,Text,Amount\n2024-01-02,x,1.00,extra,\n2024-01-03,y,-2.00\n'), {
      csvMapping: mapping({}),
    });
    expect(rows(result)).toEqual([
      ['2024-01-02', '1.00', 'credit'],
      ['2024-01-03', '2.00', 'debit'],
    ]);
    expect(result.ignored_cells).toEqual([{ line: 2, cells: ['extra'] }]);
  });

  it('when a row has too few cells for the date and amount columns, then it is skipped with its line and text', () => {
    const result = parseStatementFile(utf8('Date,Text,Amount\n2024-01-02,1.00\n2024-01-03,y,-2.00\n'), {
      csvMapping: mapping({}),
    });
    expect(rows(result)).toEqual([['2024-01-03', '2.00', 'debit']]);
    expect(result.skipped).toEqual([
      { line: 2, reason: 'not a transaction: 2 cells, the date and amount columns need 3: "2024-01-02,1.00"' },
    ]);
  });

  it('when a quoted field is never closed, then the line is named', () => {
    expect(
      refusal(() => parseStatementFile(utf8('Date,Text,Amount\n2024-01-02,"open,1.00\n'), { csvMapping: mapping({}) })),
    ).toMatch(/^line \d+: a quoted field is never closed$/);
  });
});

describe('hostile CSV', () => {
  it('when a line has a million columns, then it is refused by its length, before its fields are split', () => {
    expect(
      refusal(() =>
        parseStatementFile(utf8(`Date,Amount,Text\n${','.repeat(1_000_000)}\n`), {
          format: 'csv',
          csvMapping: mapping({}),
        }),
      ),
    ).toBe('line 2: longer than 65536 characters');
  });

  it('when a line has more than 200 fields, then it is refused naming the line', () => {
    expect(
      refusal(() => parseStatementFile(utf8(`Date,Amount,Text\n${'x,'.repeat(300)}\n`), { csvMapping: mapping({}) })),
    ).toBe('line 2: 301 fields (at most 200 are allowed)');
  });

  it('when the file is one gigantic line, then it is refused by its length', () => {
    const bytes = utf8(`Date,Amount,Text\n2024-01-01,1.00,${'a'.repeat(5_000_000)}`);
    expect(refusal(() => parseStatementFile(bytes))).toBe('line 2: longer than 65536 characters');
  });

  it('when a file has millions of blank lines, then they are passed over and its one row is read', () => {
    const result = parseStatementFile(utf8(`Date,Text,Amount\n2024-01-01,x,1.00\n${'\n'.repeat(2_000_000)}`), {
      csvMapping: mapping({}),
    });
    expect(rows(result)).toEqual([['2024-01-01', '1.00', 'credit']]);
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
