/**
 * Pure parsers for bank statement files: CSV, OFX 1.x (SGML) and 2.x (XML), QFX, QIF and
 * camt.053. Bytes in, plain data out; every refusal is a DomainError 'INVALID_STATEMENT_FILE'
 * whose detail names the line or element at fault.
 *
 * Decisions worth knowing:
 * - Rows with a zero amount (bank notices, card holds, QIF opening balances) and rows whose status
 *   is pending/reverted (CSV status column, camt Sts PDNG/INFO/FUTR) are not transactions; they are
 *   listed in `skipped` with their line and reason.
 * - `date` is the booking date as written (OFX DTPOSTED, camt BookgDt, else ValDt; CSV: a booking
 *   date column is preferred over value/started dates, e.g. Revolut "Completed Date"), with no
 *   time-zone shift. Two-digit years: 00–69 → 2000–2069, 70–99 → 1970–1999 (QIF "M/D'YY" → 20YY).
 * - Direction: the sign (OFX TRNAMT, CSV amount), CdtDbtInd (camt), the debit/credit column or a
 *   direction column (CSV). OFX TRNTYPE is not used for the direction.
 * - Amounts keep their precision with at least two decimals ("7.80", "0.125"); descriptions are
 *   cut at 1000 characters; 'XXX' (no currency) counts as no currency.
 * - Limits (LIMITS): 32 MiB per file, 100 000 transaction rows, 65 536 characters per line,
 *   200 CSV fields, nesting 64 deep; DOCTYPE/ENTITY declarations are refused outright.
 */
import { parseCamt053 } from './camt053.ts';
import { parseCsv } from './csv.ts';
import { guessCsvMapping } from './csv-guess.ts';
import { decodeBytes } from './decode.ts';
import { detectFormatFromText } from './detect.ts';
import { fail, quote } from './fail.ts';
import { finalize } from './finalize.ts';
import { LIMITS } from './limits.ts';
import { parseOfx } from './ofx.ts';
import { parseQif } from './qif.ts';
import { LineIndex, firstOverlongLine } from './text.ts';
import { refuseDoctype } from './xml.ts';
import type { CsvMapping, ParseOptions, ParseResult, RawParse, StatementFormat } from './types.ts';

export type { CsvMapping, ParseOptions, ParseResult, ParsedStatement, RawRow, StatementFormat } from './types.ts';
export { CSV_DATE_FORMATS, CSV_DELIMITERS, noOptionalColumns } from './types.ts';
export { LIMITS } from './limits.ts';
export { STATEMENT_ENCODINGS, isKnownEncoding } from './decode.ts';
export { guessCsvMapping };

const FORMATS: readonly StatementFormat[] = ['csv', 'ofx', 'qif', 'camt053'];

/** The format of a statement file, or null when it is none of the supported ones. Never throws. */
export function detectFormat(bytes: Uint8Array): StatementFormat | null {
  if (!(bytes instanceof Uint8Array) || bytes.length === 0 || bytes.length > LIMITS.maxFileBytes) return null;
  return detectFormatFromText(decodeBytes(bytes).text);
}

/** Everything a parser found, before zero-amount and status rows are set aside (rows in file order). */
export interface StatementRows extends RawParse {
  format: StatementFormat;
  encoding: string;
  csv_mapping: CsvMapping | null;
}

/** Parses a statement file; see ParseResult. Throws DomainError 'INVALID_STATEMENT_FILE'. */
export function parseStatementFile(bytes: Uint8Array, options: ParseOptions = {}): ParseResult {
  const raw = parseStatementRows(bytes, options);
  const { statements, skipped } = finalize({ statements: raw.statements, notes: raw.notes });
  return {
    format: raw.format,
    encoding: raw.encoding,
    statements,
    csv_mapping: raw.csv_mapping,
    csv_columns: raw.columns ?? null,
    csv_first_row: raw.firstRow ?? null,
    skipped,
    ignored_cells: raw.ignored ?? [],
  };
}

/** Like parseStatementFile, but returns every transaction row with its line, including rows to be skipped. */
export function parseStatementRows(bytes: Uint8Array, options: ParseOptions = {}): StatementRows {
  if (!(bytes instanceof Uint8Array)) fail('the file content must be bytes');
  if (bytes.length === 0) fail('the file is empty');
  if (bytes.length > LIMITS.maxFileBytes) fail(`the file is larger than ${LIMITS.maxFileBytes} bytes`);
  const limit = options.maxTransactions ?? LIMITS.maxTransactions;
  if (!Number.isInteger(limit) || limit < 0) fail('maxTransactions must be a non-negative integer');
  if (options.format !== undefined && !FORMATS.includes(options.format))
    fail(`unknown format ${quote(String(options.format))}`);

  const { text, encoding } = decodeBytes(bytes, options.encoding);
  if (text.trim() === '') fail('the file is empty (only whitespace)');
  const nul = text.indexOf('\u0000');
  if (nul !== -1) fail(`line ${new LineIndex(text).lineOf(nul)}: binary data (NUL byte): not a bank statement file`);
  if (/^\s*(?:<|OFXHEADER)/i.test(text)) refuseDoctype(text);
  const format = options.format ?? detectFormatFromText(text);
  if (format === null) {
    const overlong = firstOverlongLine(text, LIMITS.maxLineChars);
    if (overlong)
      fail(
        `line ${overlong}: longer than ${LIMITS.maxLineChars} characters; the file is not CSV, OFX/QFX, QIF or camt.053`,
      );
    fail('unknown format: the file is not CSV, OFX/QFX, QIF or camt.053');
  }

  switch (format) {
    case 'ofx':
      return { format, encoding, csv_mapping: null, ...parseOfx(text, limit) };
    case 'camt053':
      return { format, encoding, csv_mapping: null, ...parseCamt053(text, limit) };
    case 'qif':
      return { format, encoding, csv_mapping: null, ...parseQif(text, limit) };
    case 'csv': {
      const mapping = options.csvMapping ?? guessCsvMapping(text);
      return { format, encoding, csv_mapping: mapping, ...parseCsv(text, mapping, limit) };
    }
  }
}
export { closingBalanceOf, describeNoTransactions, fileAccounts, transactionCount } from './file-accounts.ts';
export type { FileAccount } from './file-accounts.ts';
