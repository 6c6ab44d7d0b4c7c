import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { guessCsvMapping } from './index.ts';

describe('guessCsvMapping', () => {
  it('when headers are German (Commerzbank), then date, amount, text, account and currency columns are found', () => {
    const mapping = guessCsvMapping(
      '\ufeffBuchungstag;Wertstellung;Umsatzart;Buchungstext;Betrag;Währung;IBAN Kontoinhaber;Kategorie\r\n31.12.2024;31.12.2024;Zinsen;Kontoführung;-10,7;EUR;DE00;\r\n',
    );
    expect(mapping).toMatchObject({
      delimiter: ';',
      header_row: 0,
      date_column: 'Buchungstag',
      date_format: 'DD.MM.YYYY',
      description_columns: ['Buchungstext'],
      amount_column: 'Betrag',
      decimal_mark: ',',
      account_column: 'IBAN Kontoinhaber',
      currency_column: 'Währung',
    });
  });

  it('when headers are Dutch with a CreditDebet column, then the direction column and its values are set', () => {
    const mapping = guessCsvMapping(
      'KNAB EXPORT;;;\nRekeningnummer;Transactiedatum;CreditDebet;Bedrag;Tegenrekeninghouder;Omschrijving;Referentie;Boekdatum\n"NL00";"21-06-2019";"D";"827,75";"X";"Y";"R1";"21-06-2019"\n"NL00";"20-06-2019";"C";"2500";"X";"Y";"R2";"20-06-2019"\n',
    );
    expect(mapping).toMatchObject({
      header_row: 1,
      date_column: 'Boekdatum',
      date_format: 'DD-MM-YYYY',
      amount_column: 'Bedrag',
      direction_column: 'CreditDebet',
      decimal_mark: ',',
      external_id_column: 'Referentie',
      description_columns: ['Tegenrekeninghouder', 'Omschrijving'],
    });
    expect(mapping.direction_debit_values).toContain('D');
    expect(mapping.direction_credit_values).toContain('C');
  });

  it('when headers are Spanish, Lithuanian-export English or Swiss French, then they map', () => {
    expect(guessCsvMapping('fecha;concepto;importe\n24/03/2022;Nómina;1.394,11\n')).toMatchObject({
      date_column: 'fecha',
      amount_column: 'importe',
      description_columns: ['concepto'],
      decimal_mark: ',',
      date_format: 'DD/MM/YYYY',
    });
    expect(guessCsvMapping('Date,Bank,Name,Memo,Amount,\n2012:03:01,,A,B,-7.8,\n')).toMatchObject({
      date_format: 'YYYY:MM:DD',
      description_columns: ['Name', 'Memo'],
    });
    expect(
      guessCsvMapping('Produit;Monn.;Date de valeur;Description 1;Débit;Crédit\nX;CHF;31.03.2019;Frais;10.00;\n'),
    ).toMatchObject({
      date_column: 'Date de valeur',
      debit_column: 'Débit',
      credit_column: 'Crédit',
      amount_column: null,
      decimal_mark: '.',
      currency_column: 'Monn.',
    });
  });

  it('when day and month are ambiguous, then unpadded values mean month-first and padded ones day-first', () => {
    expect(guessCsvMapping('Date,Description,Amount\n3/4/2016,x,1.00\n').date_format).toBe('M/D/YYYY');
    expect(guessCsvMapping('Date,Description,Amount\n03/04/2016,x,1.00\n').date_format).toBe('DD/MM/YYYY');
    expect(guessCsvMapping('Date,Description,Amount\n03/04/2016,x,1.00\n12/31/2016,y,2.00\n').date_format).toBe(
      'MM/DD/YYYY',
    );
  });

  it('when the only evidence for the decimal mark is grouping, then the other mark is chosen', () => {
    expect(guessCsvMapping('Datum;Text;Betrag\n01.01.2024;x;1.234.567\n').decimal_mark).toBe(',');
    expect(guessCsvMapping('Date,Text,Amount\n2024-01-01,x,"1,234,567"\n').decimal_mark).toBe('.');
    expect(guessCsvMapping('Date;Text;Amount\n2024-01-01;x;2500\n').decimal_mark).toBe(',');
  });

  it('when an id column repeats values, then it is not used as the external id', () => {
    expect(
      guessCsvMapping('Date,Description,Amount,ID\n2024-01-01,x,1.00,A\n2024-01-02,y,2.00,A\n').external_id_column,
    ).toBeNull();
    expect(
      guessCsvMapping('Date,Description,Amount,ID\n2024-01-01,x,1.00,A\n2024-01-02,y,2.00,B\n').external_id_column,
    ).toBe('ID');
  });

  it('when no known description header exists, then the first wordy unused column is taken', () => {
    expect(
      guessCsvMapping('Date,Ref,Amount,Payee Text\n2024-01-01,123,1.00,Grocery store\n').description_columns,
    ).toEqual(['Payee Text']);
  });

  it('when tab or pipe separates the columns, then the delimiter is found', () => {
    expect(guessCsvMapping('Date\tDescription\tAmount\n2024-01-01\tx\t1.00\n').delimiter).toBe('\t');
    expect(guessCsvMapping('Date|Description|Amount\n2024-01-01|x|1.00\n').delimiter).toBe('|');
  });

  it('when no line names a date and an amount column, then it throws INVALID_STATEMENT_FILE', () => {
    expect(() => guessCsvMapping('a,b,c\n1,2,3\n')).toThrow(DomainError);
    expect(() => guessCsvMapping('a,b,c\n1,2,3\n')).toThrow(/cannot recognise the CSV columns/);
    expect(() => guessCsvMapping('Date,Amount\nyesterday,1.00\n')).toThrow(
      'column "Date": cannot recognise the date format of "yesterday"',
    );
  });

  it('when the header is in words the guesser does not know, then the columns are found by what they hold and named by that header', () => {
    const polish =
      'Wyciąg z rachunku PL61109010140000071219812874\n' +
      'Data operacji;Opis operacji;Kwota;Waluta\n' +
      '2024-05-02;Biedronka Warszawa;-45,20;PLN\n' +
      '2024-05-10;Wynagrodzenie maj;6200,00;PLN\n';
    expect(guessCsvMapping(polish)).toMatchObject({
      has_header: true,
      header_row: 1,
      delimiter: ';',
      date_column: 'Data operacji',
      amount_column: 'Kwota',
      decimal_mark: ',',
      description_columns: ['Opis operacji'],
      currency_column: 'Waluta',
    });
  });
});
