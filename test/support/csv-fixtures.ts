import { noOptionalColumns, type CsvMapping, type ParseResult } from '../../server/domain/statements/index.ts';

/** What the CSV parser's tests (server/domain/statements/csv-*.test.ts) share. */

/** The first statement's rows as [date, amount, type]. */
export const rows = (result: ParseResult): [string, string, string][] =>
  (result.statements[0]?.transactions ?? []).map((t) => [t.date, t.amount, t.type]);

/**
 * A mapping of the columns Date, Text and Amount, with `overrides`: the parser's input, built on its
 * mapping of no optional columns (what each test expects is written out in the test).
 */
export const mapping = (overrides: Partial<CsvMapping>): CsvMapping => ({
  ...noOptionalColumns(),
  delimiter: ',',
  header_row: 0,
  has_header: true,
  date_column: 'Date',
  date_format: 'YYYY-MM-DD',
  description_columns: ['Text'],
  amount_column: 'Amount',
  ...overrides,
});
