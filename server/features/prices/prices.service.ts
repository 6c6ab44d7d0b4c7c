import { parse } from 'csv-parse/sync';
import type { LedgerDb } from '../../db/stores.ts';
import { newRowId } from '../../db/ids.ts';
import {
  MAX_PRICE_ROWS,
  type ConvertQuery,
  type ListPricesQuery,
  type PriceDto,
  type PriceInput,
} from '../../contract/prices.ts';
import { isKnownCurrency } from '../../domain/currencies.ts';
import { DATE_RANGE_TEXT, isLedgerDate } from '../../domain/dates.ts';
import { DomainError } from '../../domain/errors.ts';
import { formatMinor, parseAmount } from '../../domain/money.ts';
import { formatRate, parseRate, rateText } from '../../domain/rates.ts';
import { convertOnDay, missingRate } from './rate-book.ts';
import {
  deletePrice,
  findPriceOn,
  insertPrice,
  latestPerPair,
  listPrices,
  updatePriceRate,
} from './prices.repository.ts';
import type { Price } from './prices.model.ts';

function toPriceDto(p: Price): PriceDto {
  return { id: p.id, date: p.date, from: p.from, to: p.to, rate: formatRate(p.rateScaled), created_at: p.createdAt };
}

function requireRate(text: string, field: string): bigint {
  const scaled = parseRate(text);
  if (scaled === null)
    throw new DomainError('VALIDATION_ERROR', `Invalid body: ${field} must be greater than zero`, [
      { field, message: 'must be greater than zero' },
    ]);
  return scaled;
}

/** Creates the price of a pair on a date, or replaces its rate: `created` says which. */
function upsert(
  db: LedgerDb,
  input: { date: string; from: string; to: string },
  rateScaled: bigint,
  now: string,
): { price: Price; created: boolean } {
  const existing = findPriceOn(db, input.date, input.from, input.to);
  if (existing) {
    updatePriceRate(db, existing.id, rateScaled);
    return { price: { ...existing, rateScaled }, created: false };
  }
  const price: Price = {
    id: newRowId(),
    date: input.date,
    from: input.from,
    to: input.to,
    rateScaled,
    createdAt: now,
  };
  insertPrice(db, price);
  return { price, created: true };
}

export function savePrice(db: LedgerDb, input: PriceInput): { created: boolean; price: PriceDto } {
  const rateScaled = requireRate(input.rate, 'rate');
  return db.transaction(() => {
    const { price, created } = upsert(db, input, rateScaled, new Date().toISOString());
    return { created, price: toPriceDto(price) };
  });
}

export function removePrice(db: LedgerDb, id: string): void {
  if (!db.transaction(() => deletePrice(db, id))) throw new DomainError('NOT_FOUND', 'Price not found');
}

export function listPricePage(db: LedgerDb, query: ListPricesQuery) {
  const { items, total } = listPrices(
    db,
    { from: query.from, to: query.to },
    query.per_page,
    (query.page - 1) * query.per_page,
  );
  return { items: items.map(toPriceDto), total, page: query.page, per_page: query.per_page };
}

export function latestPrices(db: LedgerDb) {
  return { items: latestPerPair(db).map(toPriceDto) };
}

/** Prices read from a file, each with the line it came from. */
export interface PriceLine {
  line: number;
  date: string;
  from: string;
  to: string;
  rateScaled: bigint;
}

/** Stores many prices in the caller's transaction, each created or replaced. */
export function upsertPrices(db: LedgerDb, prices: readonly PriceLine[], now: string) {
  let created = 0;
  let replaced = 0;
  let first: string | null = null;
  let last: string | null = null;
  for (const p of prices) {
    const result = upsert(db, p, p.rateScaled, now);
    if (result.created) created++;
    else replaced++;
    if (first === null || p.date < first) first = p.date;
    if (last === null || p.date > last) last = p.date;
  }
  return { created, replaced, first_date: first, last_date: last };
}

const COLUMNS = ['date', 'from', 'to', 'rate'] as const;

function fileError(line: number, message: string): DomainError {
  return new DomainError('VALIDATION_ERROR', `Line ${line}: ${message}`, [{ field: `line.${line}`, message }]);
}

/** A CSV table's rows, each a cell reader by column and the line it is on. */
export interface CsvRow<C extends string> {
  line: number;
  cell: (column: C) => string;
}

/**
 * Reads a CSV file of prices: a header row naming `columns` (any order, any case, other columns
 * ignored), then at most `maxRows` rows. A file that is not CSV, is empty, is too long or lacks a
 * column is refused with VALIDATION_ERROR naming the line (`Line N: …`). The rates import and the
 * security prices import (features/investments) read their files with it.
 */
export function readCsvTable<C extends string>(
  bytes: Uint8Array,
  columns: readonly C[],
  maxRows: number,
  what: string,
): CsvRow<C>[] {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/^\uFEFF/, '');
  const headerText = columns.join(',');
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
      to: maxRows + 2,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 1;
    throw fileError(line, 'the file is not valid CSV');
  }
  if (records.length === 0) throw fileError(1, `the file is empty; it needs a header row: ${headerText}`);
  if (records.length > maxRows + 1) throw fileError(maxRows + 2, `a file holds at most ${maxRows} ${what}`);
  const header = records[0]!.record.map((h) => h.toLowerCase());
  const index = new Map(columns.map((c) => [c, header.indexOf(c)] as const));
  const absent = columns.filter((c) => index.get(c)! < 0);
  if (absent.length > 0) throw fileError(1, `the header row lacks the column(s) ${absent.join(', ')} (${headerText})`);
  return records.slice(1).map(({ record, info }) => ({
    line: info.lines,
    cell: (c: C) => record[index.get(c)!] ?? '',
  }));
}

export { fileError as csvLineError };

/** A row of the rates file, as read. */
export interface PriceCsvRow {
  line: number;
  date: string;
  from: string;
  to: string;
  rate: string;
}

/**
 * The rows of a rates file that are a security's prices (`from` a security's symbol, `to` its
 * currency; docs/investments.md). The investments feature reads them; the job table hands its
 * reader to the import, so that this feature knows none.
 */
export interface SecurityPriceRows {
  /** Whether the row is a security's price: then it is checked (a `Line N:` error) and kept. */
  take(db: LedgerDb, row: PriceCsvRow): boolean;
  /** Writes the rows kept, in the import's transaction: how many prices were created and replaced, and their dates. */
  save(db: LedgerDb): { created: number; replaced: number; first_date: string | null; last_date: string | null };
}

/**
 * Reads a CSV file of rates: a header row naming the columns `date`, `from`, `to` and `rate` (any
 * order, any case, other columns ignored), then one price per row. Any bad row refuses the file,
 * naming its line. A row `securities` takes (a security's price) is theirs.
 */
export function readPriceCsv(bytes: Uint8Array, securities?: (row: PriceCsvRow) => boolean): PriceLine[] {
  const rows = readCsvTable(bytes, COLUMNS, MAX_PRICE_ROWS, 'prices');
  const out: PriceLine[] = [];
  const seen = new Set<string>();
  for (const { line, cell } of rows) {
    const date = cell('date');
    const from = cell('from').toUpperCase();
    const to = cell('to').toUpperCase();
    const rate = cell('rate');
    if (!isLedgerDate(date))
      throw fileError(line, `${JSON.stringify(date.slice(0, 40))} is not a date YYYY-MM-DD from ${DATE_RANGE_TEXT}`);
    if (securities?.({ line, date, from, to, rate })) continue;
    for (const code of [from, to])
      if (!isKnownCurrency(code))
        throw fileError(line, `${JSON.stringify(code.slice(0, 40))} is not an ISO 4217 currency code`);
    if (from === to) throw fileError(line, 'from and to are the same currency');
    const rateScaled = parseRate(rate);
    if (rateScaled === null)
      throw fileError(line, `${JSON.stringify(rate.slice(0, 40))} is not a rate above zero with at most 12 decimals`);
    const key = `${date} ${from} ${to}`;
    if (seen.has(key)) throw fileError(line, `a second price of ${from} in ${to} on ${date}`);
    seen.add(key);
    out.push({ line, date, from, to, rateScaled });
  }
  return out;
}

/** Imports a rates file; with `securities`, its rows of securities' prices too (counted in created and replaced). */
export function importPriceCsv(db: LedgerDb, bytes: Uint8Array, securities?: SecurityPriceRows) {
  const prices = readPriceCsv(bytes, securities && ((row) => securities.take(db, row)));
  return db.transaction(() => {
    const rates = upsertPrices(db, prices, new Date().toISOString());
    const held = securities?.save(db) ?? { created: 0, replaced: 0, first_date: null, last_date: null };
    const dates = [rates.first_date, rates.last_date, held.first_date, held.last_date].filter(
      (d): d is string => d !== null,
    );
    return {
      created: rates.created + held.created,
      replaced: rates.replaced + held.replaced,
      security_prices: held.created + held.replaced,
      first_date: dates.length > 0 ? dates.reduce((a, b) => (a < b ? a : b)) : null,
      last_date: dates.length > 0 ? dates.reduce((a, b) => (a > b ? a : b)) : null,
    };
  });
}

/** An amount converted at the rate table's rate of a day (400 MISSING_RATE without one). */
export function convertAmount(db: LedgerDb, query: ConvertQuery) {
  const parsed = parseAmount(query.amount, query.from);
  if ('problem' in parsed)
    throw new DomainError('VALIDATION_ERROR', `Invalid query: amount is not an amount of ${query.from}`, [
      { field: 'amount', message: `must be an amount of ${query.from} above zero, with at most its decimals` },
    ]);
  const converted = convertOnDay(db, parsed.minor, query.from, query.to, query.date);
  if (!converted) throw missingRate(query.from, query.to, query.date, 'date');
  const direct = converted.price.from === query.from;
  return {
    amount: formatMinor(parsed.minor, query.from),
    from: query.from,
    to: query.to,
    date: query.date,
    converted_amount: formatMinor(converted.convertedMinor, query.to),
    rate: direct ? formatRate(converted.price.rateScaled) : trimZeros(rateText(converted.rate, 12)),
    price: toPriceDto(converted.price),
  };
}

function trimZeros(decimal: string): string {
  return decimal.includes('.') ? decimal.replace(/\.?0+$/, '') : decimal;
}
