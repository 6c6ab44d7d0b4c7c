import { describe, expect, it } from 'vitest';
import { mapping, rows } from '../../../test/support/csv-fixtures.ts';
import { refusal, utf8 } from '../../../test/support/statement-fixtures.ts';
import { parseStatementFile } from './index.ts';
import type { CsvMapping } from './index.ts';

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
