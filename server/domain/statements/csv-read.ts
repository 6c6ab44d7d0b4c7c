import { CsvError, parse } from 'csv-parse/sync';
import { DomainError } from '../errors.ts';
import { fail } from './fail.ts';
import { LIMITS } from './limits.ts';
import { firstOverlongLine } from './text.ts';
import type { IgnoredCells } from './types.ts';

export interface CsvRecord {
  /** 1-based line where the record starts. */
  line: number;
  cells: string[];
  /** How many cells the record has in the file (before `alignRows` makes it as long as the header). */
  fields: number;
}

export interface CsvTable {
  /** Null for a file without a header line. */
  header: CsvRecord | null;
  rows: CsvRecord[];
  /** Rows with non-blank cells beyond the header, and those cells. */
  ignored: IgnoredCells[];
}

/**
 * Reads the header (0-based line `headerRow` of newline-normalised text) and the data records after
 * it with csv-parse; without a header (`hasHeader` false), line `headerRow` is the first data row.
 * Blank records are dropped; rows are made as long as the header by `alignRows`.
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
  hasHeader = true,
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
  if (!hasHeader) {
    const records = readRecords(text.slice(offset), delimiter, headerRow, maxRows, sample);
    const rows = records.map((r) => r.record).filter((r) => !blank(r.cells));
    const width = Math.max(0, ...rows.map((r) => r.cells.length));
    for (const row of rows) while (row.cells.length < width) row.cells.push('');
    return { header: null, rows, ignored: [] };
  }
  const first = readRecords(text.slice(offset), delimiter, headerRow, 1, true)[0];
  if (!first || first.record.line !== headerLine || blank(first.record.cells)) {
    fail(`line ${headerLine}: the header line is empty`);
  }
  const header = first.record;
  const bodyLines = headerRow + newlines(first.raw);
  const records = readRecords(text.slice(offset + first.raw.length), delimiter, bodyLines, maxRows, sample);
  const rows = records.map((r) => r.record).filter((r) => !blank(r.cells));
  return { header, rows, ignored: alignRows(header, rows, delimiter) };
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
        return { record: { line, cells: record, fields: record.length }, raw };
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
 * Makes every row as long as the header and answers the non-blank cells it cut off. Cells beyond
 * the header are cut (a trailing delimiter, or text spread over more cells than the header names:
 * those are answered as ignored). Short rows are repaired when one field position holds exactly
 * the missing delimiters in every short row that has such a field (Danske's quoted
 * ",Vilnius08500,LT" standing for Address, City, Country); other short rows are padded with empty
 * cells, and the row reader skips those that lack a mapped column.
 */
function alignRows(header: CsvRecord, rows: CsvRecord[], delimiter: string): IgnoredCells[] {
  const width = header.cells.length;
  let trimmedWidth = width;
  while (trimmedWidth > 0 && header.cells[trimmedWidth - 1]?.trim() === '') trimmedWidth -= 1;
  const short = rows.filter((row) => row.cells.length < trimmedWidth);
  if (short.length > 0) {
    // Try the deficit against the full header first (Danske: 12 names, 10 cells), then against the
    // header without its trailing blank names.
    const repair = (target: number): { at: number; rows: CsvRecord[] } | null => {
      const holding = (row: CsvRecord): number[] =>
        row.cells.flatMap((cell, i) => (cell.split(delimiter).length - 1 === target - row.cells.length ? [i] : []));
      const explained = short.filter((row) => holding(row).length > 0);
      const lists = explained.map(holding);
      const common = (lists[0] ?? []).filter((i) => lists.every((list) => list.includes(i)));
      return common.length === 1 ? { at: common[0] as number, rows: explained } : null;
    };
    const found = repair(width) ?? (trimmedWidth !== width ? repair(trimmedWidth) : null);
    if (found) {
      for (const row of found.rows) {
        row.cells.splice(found.at, 1, ...(row.cells[found.at] ?? '').split(delimiter));
        row.fields = row.cells.length;
      }
    }
  }
  const ignored: IgnoredCells[] = [];
  for (const row of rows) {
    if (row.cells.length > width) {
      const extra = row.cells.slice(width).filter((cell) => cell.trim() !== '');
      if (extra.length > 0) ignored.push({ line: row.line, cells: extra });
      row.cells.length = width;
    }
    while (row.cells.length < width) row.cells.push('');
  }
  return ignored;
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
