import { describe, expect, it } from 'vitest';
import { mapping, rows } from '../../../test/support/csv-fixtures.ts';
import { parseFixture as parse, refusal, utf8 } from '../../../test/support/statement-fixtures.ts';
import { parseStatementFile } from './index.ts';

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
