/** Public shapes of the statement parsers (re-exported by index.ts). */

/** QFX is parsed as 'ofx'. */
export type StatementFormat = 'csv' | 'ofx' | 'qif' | 'camt053';

interface ParsedTransaction {
  /** YYYY-MM-DD, a real calendar date: the booking/posted date as written in the file (no time-zone shift). */
  date: string;
  /** Trimmed, whitespace collapsed, never empty. */
  description: string;
  /** Positive decimal string with '.' as decimal mark and at least two decimals, e.g. "1234.50". */
  amount: string;
  /** Bank's view: debit = money out of the account, credit = money in. */
  type: 'debit' | 'credit';
  external_id: string | null;
}

/**
 * A balance the file states, as the bank sees it: a signed decimal string ('-' = overdrawn, or owed
 * on a card), '.' as decimal mark, and the day it is the balance at the end of.
 */
export interface StatedBalance {
  amount: string;
  date: string | null;
}

interface StatementBalances {
  /** OFX: none; camt.053: OPBD (or PRCD). */
  opening_balance: StatedBalance | null;
  /** OFX: LEDGERBAL with its DTASOF; camt.053: CLBD. */
  closing_balance: StatedBalance | null;
}

export interface ParsedStatement extends StatementBalances {
  account_ref: string | null;
  currency: string | null;
  start_date: string | null;
  end_date: string | null;
  transactions: ParsedTransaction[];
}

export const CSV_DELIMITERS = [',', ';', '\t', '|'] as const;

/**
 * Date layouts a CSV mapping can name. Day and month may be written with or without a leading
 * zero in every layout, and a time after the date ("2022-01-02 12:16:54", "...T10:00") is ignored.
 * Two-digit years: 00–69 are 2000–2069, 70–99 are 1970–1999.
 */
export const CSV_DATE_FORMATS = [
  'YYYY-MM-DD',
  'YYYY/MM/DD',
  'YYYY.MM.DD',
  'YYYY:MM:DD',
  'YYYYMMDD',
  'DD.MM.YYYY',
  'DD.MM.YY',
  'DD/MM/YYYY',
  'DD/MM/YY',
  'DD-MM-YYYY',
  'DD-MM-YY',
  'MM/DD/YYYY',
  'MM/DD/YY',
  'MM-DD-YYYY',
  'M/D/YYYY',
] as const;
export type CsvDateFormat = (typeof CSV_DATE_FORMATS)[number];

/** A CSV column: its header text exactly as in the file, or its 0-based position (the only way in a file without a header). */
export type CsvColumn = string | number;

/**
 * How to read one bank's CSV export. Flat and JSON-serialisable so that it can be validated with
 * zod and remembered per account. Columns are named by their header text or by position.
 * Amounts come either from `amount_column` (signed, negative = money out; optionally turned by
 * `direction_column`) or from `debit_column` + `credit_column` (both unsigned), never both.
 */
export interface CsvMapping {
  /** One of CSV_DELIMITERS. */
  delimiter: string;
  /**
   * 0-based index of the header line after decoding (of the first data line when `has_header` is
   * false); lines before it are a preamble and skipped.
   */
  header_row: number;
  /** False: the file has no header line ("the first row is data"); every column is named by position. */
  has_header: boolean;
  date_column: CsvColumn;
  date_format: CsvDateFormat;
  /** Joined with ' ' (empty cells left out). */
  description_columns: CsvColumn[];
  amount_column: CsvColumn | null;
  debit_column: CsvColumn | null;
  credit_column: CsvColumn | null;
  decimal_mark: '.' | ',';
  external_id_column: CsvColumn | null;
  /** Rows whose value here equals (case-insensitively) one of `skip_status_values` are skipped. */
  status_column: CsvColumn | null;
  skip_status_values: string[];
  /** With `amount_column`: a column such as Knab "CreditDebet" (C/D) or ING "Af Bij" that gives the direction of an unsigned amount. */
  direction_column: CsvColumn | null;
  direction_debit_values: string[];
  direction_credit_values: string[];
  /** A fee charged on top of the amount (Revolut "Fee"); it is subtracted from the amount. */
  fee_column: CsvColumn | null;
  /** A column holding the own account id/IBAN; used as account_ref when all rows agree. */
  account_column: CsvColumn | null;
  /** A column holding the ISO 4217 currency; used as the statement currency when all rows agree. */
  currency_column: CsvColumn | null;
  /**
   * A running balance after each row (Balance, 余额): the balance of the row last by date is the
   * statement's closing balance, as OFX's LEDGERBAL and camt's CLBD give it.
   */
  balance_column?: CsvColumn | null;
}

/** The parts of a mapping that read nothing: no optional column, no status or direction values. */
export function noOptionalColumns(): Omit<
  CsvMapping,
  'delimiter' | 'header_row' | 'has_header' | 'date_column' | 'date_format' | 'description_columns'
> {
  return {
    amount_column: null,
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
    balance_column: null,
  };
}

export interface SkippedRow {
  /** 1-based line number in the decoded file. */
  line: number;
  reason: string;
}

/** Cells of a CSV row beyond the header's columns, not read (a bank spreading its text over more cells). */
export interface IgnoredCells {
  /** 1-based line where the row starts. */
  line: number;
  /** The non-blank cells beyond the header, in order. */
  cells: string[];
}

export interface ParseResult {
  format: StatementFormat;
  /** What was decoded, e.g. 'utf-8', 'windows-1252'. */
  encoding: string;
  /** At least one. */
  statements: ParsedStatement[];
  csv_mapping: CsvMapping | null;
  /** For csv: the header names, in file order (for a mapping editor); null for other formats and CSVs without a header. */
  csv_columns: string[] | null;
  /** For csv: the cells of the first data row (to name columns by what they hold); null for other formats. */
  csv_first_row: string[] | null;
  skipped: SkippedRow[];
  /** For csv: rows with cells beyond the header, and those cells; empty for other formats. */
  ignored_cells: IgnoredCells[];
}

export interface ParseOptions {
  format?: StatementFormat;
  csvMapping?: CsvMapping;
  /** Default 100_000. Counts every transaction row in the file, including rows that end up skipped. */
  maxTransactions?: number;
  /** Decode with this encoding (any name iconv-lite knows) instead of detecting it. */
  encoding?: string;
}

/**
 * One transaction row as found in the file, before zero-amount and status rows are set aside.
 * `amount` is signed ('-' = money out) with '.' as decimal mark. Rows with a `skip_reason` may
 * lack a date or amount (a pending row has no booking date yet).
 */
export interface RawRow {
  line: number;
  date: string | null;
  amount: string | null;
  description: string;
  external_id: string | null;
  skip_reason: string | null;
}

export interface RawStatement extends Partial<StatementBalances> {
  account_ref: string | null;
  currency: string | null;
  start_date: string | null;
  end_date: string | null;
  rows: RawRow[];
}

/** What a format parser hands back: statements in file order plus non-transaction notes. */
export interface RawParse {
  statements: RawStatement[];
  /** CSV header names (none for a CSV without a header). */
  columns?: string[] | null;
  /** CSV: the cells of the first data row. */
  firstRow?: string[] | null;
  /** CSV: cells beyond the header, by row. */
  ignored?: IgnoredCells[];
  /** Records deliberately not read as transactions, e.g. QIF investment records. */
  notes: SkippedRow[];
}
