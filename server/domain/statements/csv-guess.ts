import { readBankAmount } from './bank-amount.ts';
import { readCsvTable, splitLine } from './csv-read.ts';
import {
  ACCOUNT_HEADERS,
  AMOUNT_HEADERS,
  COUNTERPARTY_HEADERS,
  BALANCE_HEADERS,
  CURRENCY_HEADERS,
  DATE_HEADERS,
  DEBIT_CREDIT_HEADERS,
  DIRECTION_CREDIT_VALUES,
  DIRECTION_DEBIT_VALUES,
  DIRECTION_HEADERS,
  EXTERNAL_ID_HEADERS,
  FALLBACK_TEXT_HEADERS,
  FEE_HEADERS,
  NUMBERED_TEXT,
  SKIP_STATUS_VALUES,
  STATUS_HEADERS,
  TEXT_HEADERS,
  headerIs,
  normaliseHeader,
} from './csv-headers.ts';
import { parseDateWithFormat } from './dates.ts';
import { fail, quote } from './fail.ts';
import { LIMITS } from './limits.ts';
import { normaliseNewlines } from './text.ts';
import { CSV_DATE_FORMATS, CSV_DELIMITERS, noOptionalColumns } from './types.ts';
import type { CsvColumn, CsvDateFormat, CsvMapping } from './types.ts';

/** Lines searched for the header row. */
const HEADER_SEARCH_LINES = 50;
/** Data rows looked at to choose the date format, decimal mark and id column. */
const SAMPLE_ROWS = 500;

interface Roles {
  date: number;
  amount: number | null;
  debit: number | null;
  credit: number | null;
  direction: number | null;
  status: number | null;
  fee: number | null;
  externalId: number | null;
  account: number | null;
  currency: number | null;
  balance: number | null;
  description: number[];
}

/**
 * Guesses how to read a bank CSV from its header (or, without one, from what its columns hold): the first of the first 50 lines that, split on
 * one of ';' ',' tab '|', names a date column and an amount column (or a debit and a credit
 * column) is the header. The date format, decimal mark and id column are then chosen from the data.
 * Throws INVALID_STATEMENT_FILE when no such header exists.
 */
export function guessCsvMapping(source: string): CsvMapping {
  const text = normaliseNewlines(source.charCodeAt(0) === 0xfeff ? source.slice(1) : source);
  const header = findHeader(text);
  if (header === null) {
    const headerless = guessHeaderless(text);
    if (headerless !== null) return headerless;
    fail(
      `cannot recognise the CSV columns: none of the first ${HEADER_SEARCH_LINES} lines names a date column and an amount (or debit and credit) column, and no column holds only dates; give a CSV mapping`,
    );
  }
  const { row, delimiter, cells, roles } = header;
  const sample = readCsvTable(text, delimiter, row, SAMPLE_ROWS, true).rows;
  const name = (index: number | null): string | null => (index === null ? null : (cells[index] ?? null));
  const values = (index: number | null): string[] =>
    index === null ? [] : sample.map((r) => (r.cells[index] ?? '').trim()).filter((v) => v !== '');

  const dateColumn = cells[roles.date] ?? '';
  const amountColumns = [roles.amount, roles.debit, roles.credit, roles.fee];
  const direction =
    roles.amount !== null && roles.direction !== null && directionValuesKnown(values(roles.direction))
      ? roles.direction
      : null;
  const externalId = roles.externalId !== null && allDistinct(values(roles.externalId)) ? roles.externalId : null;
  return {
    delimiter,
    header_row: row,
    has_header: true,
    date_column: dateColumn,
    date_format: guessDateFormat(dateColumn, values(roles.date)),
    description_columns: (roles.description.length > 0
      ? roles.description
      : textColumn(roles, cells.length, values)
    ).map((i) => cells[i] ?? ''),
    amount_column: name(roles.amount),
    debit_column: roles.amount === null ? name(roles.debit) : null,
    credit_column: roles.amount === null ? name(roles.credit) : null,
    decimal_mark: guessDecimalMark(amountColumns.flatMap(values), delimiter),
    external_id_column: name(externalId),
    status_column: name(roles.status),
    skip_status_values: roles.status === null ? [] : [...SKIP_STATUS_VALUES],
    direction_column: name(direction),
    direction_debit_values: direction === null ? [] : [...DIRECTION_DEBIT_VALUES],
    direction_credit_values: direction === null ? [] : [...DIRECTION_CREDIT_VALUES],
    fee_column: roles.amount === null ? null : name(roles.fee),
    account_column: name(roles.account),
    currency_column: name(roles.currency),
    balance_column: name(roles.balance),
  };
}

function findHeader(text: string): { row: number; delimiter: string; cells: string[]; roles: Roles } | null {
  let start = 0;
  for (let row = 0; row < HEADER_SEARCH_LINES && start <= text.length; row += 1) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end === -1 ? text.length : end);
    if (line.length > LIMITS.maxLineChars) fail(`line ${row + 1}: longer than ${LIMITS.maxLineChars} characters`);
    let best: { row: number; delimiter: string; cells: string[]; roles: Roles } | null = null;
    for (const delimiter of CSV_DELIMITERS) {
      if (!line.includes(delimiter)) continue;
      const cells = splitLine(line, delimiter);
      if (cells === null || cells.length < 2 || cells.length > LIMITS.maxCsvColumns) continue;
      const roles = findRoles(cells);
      if (roles !== null && (best === null || cells.length > best.cells.length))
        best = { row, delimiter, cells, roles };
    }
    if (best !== null) return best;
    if (end === -1) break;
    start = end + 1;
  }
  return null;
}

function findRoles(cells: string[]): Roles | null {
  const names = cells.map(normaliseHeader);
  const used = new Set<number>();
  const take = (synonyms: readonly string[]): number | null => {
    for (const synonym of synonyms) {
      const index = names.findIndex((n, i) => !used.has(i) && headerIs(n, synonym));
      if (index !== -1) {
        used.add(index);
        return index;
      }
    }
    return null;
  };
  const date = take(DATE_HEADERS);
  if (date === null) return null;
  const amount = take(AMOUNT_HEADERS);
  let debit: number | null = null;
  let credit: number | null = null;
  if (amount === null) {
    for (const [out, into] of DEBIT_CREDIT_HEADERS) {
      const d = names.findIndex((n, i) => !used.has(i) && headerIs(n, out));
      const c = names.findIndex((n, i) => !used.has(i) && headerIs(n, into));
      if (d !== -1 && c !== -1) {
        [debit, credit] = [d, c];
        used.add(d).add(c);
        break;
      }
    }
    if (debit === null) return null;
  }
  const roles: Roles = {
    date,
    amount,
    debit,
    credit,
    direction: take(DIRECTION_HEADERS),
    status: take(STATUS_HEADERS),
    fee: take(FEE_HEADERS),
    externalId: take(EXTERNAL_ID_HEADERS),
    account: take(ACCOUNT_HEADERS),
    currency: take(CURRENCY_HEADERS),
    balance: take(BALANCE_HEADERS),
    description: [],
  };
  const matching = (test: (n: string) => boolean): number[] =>
    names.flatMap((n, i) => (!used.has(i) && test(n) ? [i] : []));
  const counterparty = matching((n) => COUNTERPARTY_HEADERS.some((s) => headerIs(n, s)));
  const numbered = matching((n) => NUMBERED_TEXT.test(n));
  let texts = numbered.length > 0 ? numbered : matching((n) => TEXT_HEADERS.some((s) => headerIs(n, s)));
  if (texts.length === 0) texts = matching((n) => FALLBACK_TEXT_HEADERS.some((s) => headerIs(n, s)));
  roles.description = [...counterparty, ...texts];
  return roles;
}

/**
 * The date layout that reads the most sample values (a bad date is then reported with its line by
 * the parser). Day/month ambiguity (the values fit both) is resolved as month-first when some value
 * lacks zero padding (3/4/2016, a US habit), else day-first.
 */
function guessDateFormat(column: string, values: string[]): CsvDateFormat {
  const firstValue = values[0];
  if (firstValue === undefined) fail(`column ${quote(column)} has no dates`);
  const score = new Map(
    CSV_DATE_FORMATS.map((f) => [f, values.filter((v) => parseDateWithFormat(v, f) !== null).length]),
  );
  const best = Math.max(...score.values());
  if (best === 0) fail(`column ${quote(column)}: cannot recognise the date format of ${quote(firstValue)}`);
  const fitting = CSV_DATE_FORMATS.filter((f) => score.get(f) === best);
  const unpadded = values.some((v) => /^\d\D|^\d{1,2}\D\d\D/.test(v.trim()));
  const dayFirst = fitting.find((f) => f.startsWith('DD'));
  const monthFirst = fitting.find((f) => f.startsWith('M'));
  if (monthFirst && (!dayFirst || unpadded)) {
    return unpadded && fitting.includes('M/D/YYYY') ? 'M/D/YYYY' : monthFirst;
  }
  return (dayFirst ?? fitting[0]) as CsvDateFormat;
}

/**
 * Votes by the last '.' or ',' in each amount: followed by one or two digits it is the decimal
 * mark ("-10,7", "$7,971.39"); a mark that occurs twice groups thousands ("1.234.567"), so the other
 * one is decimal; a lone mark before exactly three digits ("2,500") says nothing. Without evidence:
 * ',' for ';'-separated files, '.' otherwise. The choice must read every value when possible.
 */
function guessDecimalMark(values: string[], delimiter: string): '.' | ',' {
  let dot = 0;
  let comma = 0;
  for (const value of values) {
    const m = /([.,])(\d+)\D*$/.exec(value);
    const mark = m?.[1];
    if (!m || mark === undefined) continue;
    const votesFor = (decimal: string): void => {
      if (decimal === '.') dot += 1;
      else comma += 1;
    };
    if ((m[2] ?? '').length !== 3) votesFor(mark);
    else if (value.indexOf(mark) !== m.index) votesFor(mark === '.' ? ',' : '.');
  }
  const preferred: '.' | ',' = dot > comma ? '.' : comma > dot ? ',' : delimiter === ';' ? ',' : '.';
  const other: '.' | ',' = preferred === '.' ? ',' : '.';
  const readsAll = (mark: '.' | ','): boolean => values.every((v) => readBankAmount(v, mark) !== null);
  return readsAll(preferred) || !readsAll(other) ? preferred : other;
}

/** Without a known description header: the first unused column whose values are mostly words. */
function textColumn(roles: Roles, width: number, values: (index: number | null) => string[]): number[] {
  const used = new Set([
    roles.date,
    roles.amount,
    roles.debit,
    roles.credit,
    roles.direction,
    roles.status,
    roles.fee,
    roles.externalId,
    roles.account,
    roles.currency,
  ]);
  for (let i = 0; i < width; i += 1) {
    if (used.has(i)) continue;
    const texts = values(i);
    if (texts.length > 0 && texts.filter((v) => /\p{L}{3}/u.test(v)).length * 2 > texts.length) return [i];
  }
  return [];
}

function directionValuesKnown(values: string[]): boolean {
  const known = new Set([...DIRECTION_DEBIT_VALUES, ...DIRECTION_CREDIT_VALUES]);
  return values.length > 0 && values.every((v) => known.has(v.toUpperCase()));
}

function allDistinct(values: string[]): boolean {
  return values.length > 0 && new Set(values).size === values.length;
}

/** A mapping that reads nothing but the date, amount and description columns, by position. */
function positional(delimiter: string, firstDataLine: number, date: number, format: CsvDateFormat): CsvMapping {
  return {
    ...noOptionalColumns(),
    delimiter,
    header_row: firstDataLine,
    has_header: false,
    date_column: date,
    date_format: format,
    description_columns: [],
  };
}

const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/;

/**
 * A line right before the data whose cells are all distinct non-empty texts, as many as the rows
 * have, is a header in words the guesser does not know: the mapping then names its columns.
 */
function namedByHeader(
  mapping: CsvMapping,
  cells: string[] | undefined,
  line: number | undefined,
  width: number,
): CsvMapping {
  if (cells === undefined || line === undefined || cells.length !== width) return mapping;
  if (cells.some((c) => c === '' || /^[-+(]?\d/.test(c)) || new Set(cells).size !== cells.length) return mapping;
  const name = (ref: CsvColumn | null): CsvColumn | null => (typeof ref === 'number' ? (cells[ref] ?? ref) : ref);
  return {
    ...mapping,
    header_row: line - 1,
    has_header: true,
    date_column: name(mapping.date_column) ?? mapping.date_column,
    description_columns: mapping.description_columns.map((ref) => name(ref) ?? ref),
    amount_column: name(mapping.amount_column),
    currency_column: name(mapping.currency_column),
    account_column: name(mapping.account_column),
  };
}

/**
 * A file without a header line (several Austrian banks write none). For each delimiter, the data
 * start at the first row that has a date and an amount; the date column is the first whose values
 * all read as dates in one layout, the amount column the first other one whose values all read as
 * amounts and show a sign or decimals (preferring one with money out); then a currency column
 * (three capital letters throughout), an account column (one IBAN throughout) and, as description,
 * the column with the most letters. The delimiter that gives the widest such reading wins. Null
 * when no delimiter gives a date and an amount column. A header line in unknown words right before
 * the data names the columns (namedByHeader).
 */
function guessHeaderless(text: string): CsvMapping | null {
  let best: CsvMapping | null = null;
  let bestWidth = 0;
  for (const delimiter of CSV_DELIMITERS) {
    if (!text.includes(delimiter)) continue;
    let rows: string[][];
    let lines: number[];
    try {
      const table = readCsvTable(text, delimiter, 0, SAMPLE_ROWS, true, false);
      rows = table.rows.map((r) => r.cells.map((c) => c.trim()));
      lines = table.rows.map((r) => r.line);
    } catch {
      continue;
    }
    const width = Math.max(0, ...rows.map((r) => r.length));
    if (width < 2 || width <= bestWidth) continue;
    const isDate = (value: string): boolean => CSV_DATE_FORMATS.some((f) => parseDateWithFormat(value, f) !== null);
    const isAmount = (value: string): boolean =>
      /^[-+(]|[.,]\d{1,2}\D*$/.test(value) &&
      (readBankAmount(value, '.') !== null || readBankAmount(value, ',') !== null);
    const start = rows.findIndex((r) => r.some(isDate) && r.some(isAmount));
    if (start === -1) continue;
    const data = rows.slice(start);
    const column = (i: number): string[] => data.map((r) => r[i] ?? '').filter((v) => v !== '');
    const date = [...Array(width).keys()].find((i) => column(i).length === data.length && column(i).every(isDate));
    if (date === undefined) continue;
    const amounts = [...Array(width).keys()].filter(
      (i) => i !== date && column(i).length === data.length && column(i).every(isAmount),
    );
    const amount = amounts.find((i) => column(i).some((v) => /^-|^\(|-$/.test(v))) ?? amounts[0];
    if (amount === undefined) continue;
    const used = new Set([date, amount]);
    const free = [...Array(width).keys()].filter((i) => !used.has(i));
    const currency = free.find((i) => column(i).length > 0 && column(i).every((v) => /^[A-Z]{3}$/.test(v))) ?? null;
    const account =
      free.find((i) => {
        const values = new Set(column(i).map((v) => v.replace(/ /g, '')));
        return values.size === 1 && IBAN.test([...values][0] ?? '');
      }) ?? null;
    const letters = (i: number): number => column(i).join(' ').match(/\p{L}/gu)?.length ?? 0;
    const description = free
      .filter((i) => i !== currency && i !== account && letters(i) > 0)
      .sort((a, b) => letters(b) - letters(a))[0];
    const mapping = positional(
      delimiter,
      (lines[start] ?? 1) - 1,
      date,
      guessDateFormat(`column ${date + 1}`, column(date)),
    );
    mapping.amount_column = amount;
    mapping.decimal_mark = guessDecimalMark(column(amount), delimiter);
    mapping.description_columns = description === undefined ? [] : [description];
    mapping.currency_column = currency;
    mapping.account_column = account;
    best = namedByHeader(mapping, rows[start - 1], lines[start - 1], width);
    bestWidth = width;
  }
  return best;
}
