import type { CsvMapping, ParseResult } from '../../server/domain/statements/index.ts';

/** What the CSV parser's tests (server/domain/statements/csv-*.test.ts) share. */

/** The first statement's rows as [date, amount, type]. */
export const rows = (result: ParseResult): [string, string, string][] =>
  (result.statements[0]?.transactions ?? []).map((t) => [t.date, t.amount, t.type]);

/** A mapping of the columns Date, Text and Amount, with `overrides`. */
export const mapping = (overrides: Partial<CsvMapping>): CsvMapping => ({
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
