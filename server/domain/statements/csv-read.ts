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
 * it with csv-parse. Blank records are dropped; rows are made as long as the header by `alignRows`.
 * More than `maxRows` data records is an error; with `sample`, reading just stops after `maxRows`.
 * The header is parsed on its own so that csv-parse measures field counts against the first data
 * row: files whose header differs in length from every row (a trailing delimiter) stay fast.
 */
export function readCsvTable(
  text: string,
  delimiter: string,
  headerRow: number,
  maxRows: number,
  sample = false,
): CsvTable {
  const overlong = firstOverlongLine(text, LIMITS.maxLineChars);
  if (overlong) fail(`line ${overlong}: longer than ${LIMITS.maxLineChars} characters`);
  let offset = 0;
  for (let k = 0; k < headerRow; k += 1) {
    const next = text.indexOf('\n', offset);
    if (next === -1) fail(`header_row ${headerRow} is beyond the end of the file (${k + 1} lines)`);
    offset = next + 1;
  }
  const headerLine = headerRow + 1;
  const first = readRecords(text.slice(offset), delimiter, headerRow, 1, true)[0];
  if (!first || first.record.line !== headerLine || first.record.cells.every((c) => c.trim() === '')) {
    fail(`line ${headerLine}: the header line is empty`);
  }
  const header = first.record;
  const bodyLines = headerRow + newlines(first.raw);
  const records = readRecords(text.slice(offset + first.raw.length), delimiter, bodyLines, maxRows, sample);
  const rows = records.map((r) => r.record).filter((r) => !r.cells.every((cell) => cell.trim() === ''));
  alignRows(header, rows, delimiter);
  return { header, rows };
}

interface Parsed {
  record: CsvRecord;
  raw: string;
}

/** csv-parse over `text`, whose first line is line `lineBase + 1`; at most `max` records (error unless `stop`). */
function readRecords(text: string, delimiter: string, lineBase: number, max: number, stop: boolean): Parsed[] {
  let count = 0;
  try {
    return parseRecords(text, {
      delimiter,
      record_delimiter: '\n',
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      raw: true,
      max_record_size: LIMITS.maxLineChars,
      ...(stop ? { to: max } : {}),
      on_record: (value: unknown, context: { lines: number }) => {
        const { record, raw } = value as { record: string[]; raw: string };
        // context.lines is the line the record ends on; raw may start with skipped blank lines.
        const line = lineBase + context.lines - newlines(raw.replace(/^\n+/, '').replace(/\n$/, ''));
        if (record.length > LIMITS.maxCsvColumns)
          fail(`line ${line}: ${record.length} fields (at most ${LIMITS.maxCsvColumns} are allowed)`);
        // Counting every record, blank ones too, bounds the work on hostile input.
        count += 1;
        if (count > max) fail(`line ${line}: more than ${max} transactions`);
        return { record: { line, cells: record }, raw };
      },
    }) as Parsed[];
  } catch (error) {
    if (error instanceof DomainError) throw error;
    if (error instanceof CsvError)
      fail(`line ${lineBase + Math.max(1, Number((error as { lines?: number }).lines ?? 1))}: ${csvProblem(error)}`);
    throw error;
  }
}

function newlines(text: string): number {
  let n = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) n += 1;
  return n;
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
    // Try the deficit against the full header first (Danske: 12 names, 10 cells), then against the
    // header without its trailing blank names.
    const positionsFor = (target: number): number[] => {
      const candidates = short.map((row) =>
        row.cells.flatMap((cell, i) => (cell.split(delimiter).length - 1 === target - row.cells.length ? [i] : [])),
      );
      return (candidates[0] ?? []).filter((i) => candidates.every((list) => list.includes(i)));
    };
    let positions = positionsFor(width);
    if (positions.length !== 1 && trimmedWidth !== width) positions = positionsFor(trimmedWidth);
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
    const records = parse(line, {
      delimiter,
      relax_quotes: true,
      relax_column_count: true,
      record_delimiter: '\n',
    }) as string[][];
    return records[0] ?? null;
  } catch {
    return null;
  }
}
