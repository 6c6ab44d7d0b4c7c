import { CsvError, parse } from 'csv-parse/sync';
import { DomainError } from '../errors.ts';
import { fail } from './fail.ts';
import { LIMITS } from './limits.ts';
import { firstOverlongLine } from './text.ts';

export interface CsvRecord {
  /** 1-based line where the record starts. */
  line: number;
  cells: string[];
}

export interface CsvTable {
  header: CsvRecord;
  rows: CsvRecord[];
}

/**
 * Reads the header (0-based line `headerRow` of newline-normalised text) and the data records after
 * it with csv-parse. Blank records are dropped; records longer than the header by blank cells are
 * trimmed, shorter ones padded when the missing header names are blank; see `alignRows`.
 */
export function readCsvTable(text: string, delimiter: string, headerRow: number, maxRows: number): CsvTable {
  const overlong = firstOverlongLine(text, LIMITS.maxLineChars);
  if (overlong) fail(`line ${overlong}: longer than ${LIMITS.maxLineChars} characters`);
  let offset = 0;
  for (let k = 0; k < headerRow; k += 1) {
    const next = text.indexOf('\n', offset);
    if (next === -1) fail(`header_row ${headerRow} is beyond the end of the file (${k + 1} lines)`);
    offset = next + 1;
  }
  let line = headerRow + 1;
  let records: CsvRecord[];
  try {
    records = parseRecords(text.slice(offset), {
      delimiter,
      record_delimiter: '\n',
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      raw: true,
      max_record_size: LIMITS.maxLineChars,
      on_record: (value: unknown) => {
        const { record, raw } = value as { record: string[]; raw: string };
        const start = line;
        for (let at = raw.indexOf('\n'); at !== -1; at = raw.indexOf('\n', at + 1)) line += 1;
        if (record.length > LIMITS.maxCsvColumns) fail(`line ${start}: ${record.length} fields (at most ${LIMITS.maxCsvColumns} are allowed)`);
        if (record.every((cell) => cell.trim() === '')) return null;
        return { line: start, cells: record };
      },
    }) as CsvRecord[];
  } catch (error) {
    if (error instanceof DomainError) throw error;
    if (error instanceof CsvError) fail(`line ${headerRow + Math.max(1, Number((error as { lines?: number }).lines ?? 1))}: ${csvProblem(error)}`);
    throw error;
  }
  const header = records[0];
  if (!header || header.line !== headerRow + 1) fail(`line ${headerRow + 1}: the header line is empty`);
  const rows = records.slice(1);
  if (rows.length > maxRows) fail(`line ${rows[maxRows]?.line ?? 0}: more than ${maxRows} transactions`);
  alignRows(header, rows, delimiter);
  return { header, rows };
}

function csvProblem(error: CsvError): string {
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'unexpected text after the closing quote of a field';
    case 'INVALID_OPENING_QUOTE':
      return 'unexpected quote inside a field';
    case 'CSV_MAX_RECORD_SIZE':
      return `a record is longer than ${LIMITS.maxLineChars} characters`;
    default:
      return `malformed CSV (${error.code})`;
  }
}

/** csv-parse's sync API, typed for on_record returning our own record objects. */
const parseRecords = parse as (input: string, options: Record<string, unknown>) => unknown[];

const blank = (cells: string[]): boolean => cells.every((cell) => cell.trim() === '');

/**
 * Makes every row as long as the header. Extra blank cells (a trailing delimiter) are dropped;
 * missing cells are added when their header names are blank. Rows that are shorter for another
 * reason are repaired only when one field position holds exactly the missing delimiters in every
 * short row (Danske's quoted ",Vilnius08500,LT" standing for Address, City, Country); otherwise the
 * first such row is refused.
 */
export function alignRows(header: CsvRecord, rows: CsvRecord[], delimiter: string): void {
  const width = header.cells.length;
  let trimmedWidth = width;
  while (trimmedWidth > 0 && header.cells[trimmedWidth - 1]?.trim() === '') trimmedWidth -= 1;
  const mismatch = (row: CsvRecord): never =>
    fail(`line ${row.line}: ${row.cells.length} fields, but the header on line ${header.line} has ${trimmedWidth}`);
  const fits = (row: CsvRecord): boolean => {
    const n = row.cells.length;
    if (n >= width) return blank(row.cells.slice(width));
    return n >= trimmedWidth;
  };

  const short = rows.filter((row) => !fits(row));
  const tooLong = short.find((row) => row.cells.length > width);
  if (tooLong) mismatch(tooLong);
  if (short.length > 0) {
    const candidates = short.map((row) => {
      const missing = new Set([width - row.cells.length, trimmedWidth - row.cells.length]);
      return row.cells.flatMap((cell, i) => (missing.has(cell.split(delimiter).length - 1) ? [i] : []));
    });
    const positions = (candidates[0] ?? []).filter((i) => candidates.every((list) => list.includes(i)));
    const at = positions[0];
    if (positions.length !== 1 || at === undefined) return mismatch(short[0] as CsvRecord);
    for (const row of short) {
      row.cells.splice(at, 1, ...(row.cells[at] ?? '').split(delimiter));
      if (!fits(row)) mismatch(row);
    }
  }
  for (const row of rows) {
    if (row.cells.length > width) row.cells.length = width;
    while (row.cells.length < width) row.cells.push('');
  }
}

/** Splits one physical line into cells (for header detection); null when it is not valid CSV. */
export function splitLine(line: string, delimiter: string): string[] | null {
  try {
    const records = parse(line, { delimiter, relax_quotes: true, relax_column_count: true, record_delimiter: '\n' }) as string[][];
    return records[0] ?? null;
  } catch {
    return null;
  }
}
