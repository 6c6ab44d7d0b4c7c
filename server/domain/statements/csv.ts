import type { Decimal } from 'decimal.js';
import { formatBankAmount, readBankAmount } from './bank-amount.ts';
import { readCsvTable } from './csv-read.ts';
import type { CsvRecord } from './csv-read.ts';
import { parseDateWithFormat } from './dates.ts';
import { fail, quote } from './fail.ts';
import { NO_DESCRIPTION, cleanText, joinText, normaliseNewlines } from './text.ts';
import { CSV_DATE_FORMATS, CSV_DELIMITERS } from './types.ts';
import type { CsvColumn, CsvMapping, RawParse, RawRow } from './types.ts';

/**
 * Reads a bank CSV with a mapping (given, or from guessCsvMapping). One statement per file; its
 * account_ref comes from the account column when all rows agree, else from an IBAN in the
 * preamble; its currency from the currency column when all rows agree, else from the amount
 * header ("Betrag (€)", "Amount (EUR)"). Rows whose status is a skip value are kept aside.
 *
 * Lines that cannot be a transaction are skipped with their line and text: too few cells to reach
 * the date and amount columns ("Posted Transactions", "* noch nicht ausgeführte Umsätze"), no
 * date in the date column (a cell that does not start with a digit), or no amount (no digit in
 * the amount cells). A date or amount that is there but wrong ("2023-02-30", "12,3x") refuses
 * the file: that row is a transaction the bank wrote badly, and leaving it out would lose it.
 */
export function parseCsv(source: string, mapping: CsvMapping, limit: number): RawParse {
  validateMapping(mapping);
  const text = normaliseNewlines(source.charCodeAt(0) === 0xfeff ? source.slice(1) : source);
  const { header, rows, ignored } = readCsvTable(
    text,
    mapping.delimiter,
    mapping.header_row,
    limit,
    false,
    mapping.has_header,
  );
  const column = columnFinder(header, rows[0]?.cells.length ?? 0);
  const named = (ref: CsvColumn | null): number | null => (ref === null ? null : column(ref));
  const dateAt = column(mapping.date_column);
  const amountAt = named(mapping.amount_column);
  const debitAt = named(mapping.debit_column);
  const creditAt = named(mapping.credit_column);
  const directionAt = named(mapping.direction_column);
  const feeAt = named(mapping.fee_column);
  const statusAt = named(mapping.status_column);
  const idAt = named(mapping.external_id_column);
  const accountAt = named(mapping.account_column);
  const currencyAt = named(mapping.currency_column);
  const balanceAt = named(mapping.balance_column ?? null);
  const descriptionAt = mapping.description_columns.map(column);
  const skipStatus = new Set(mapping.skip_status_values.map((v) => v.trim().toUpperCase()));
  const debitValues = new Set(mapping.direction_debit_values.map((v) => v.trim().toUpperCase()));
  const creditValues = new Set(mapping.direction_credit_values.map((v) => v.trim().toUpperCase()));
  const label = (ref: CsvColumn | null): string => columnLabel(ref ?? '');
  const amountCells = [amountAt, debitAt, creditAt].filter((i): i is number => i !== null);
  const needed = Math.max(dateAt, ...amountCells) + 1;

  const cell = (row: CsvRecord, index: number | null): string =>
    index === null ? '' : (row.cells[index] ?? '').trim();
  const amountOf = (row: CsvRecord, index: number, name: string): Decimal | null => {
    const raw = cell(row, index);
    if (raw === '') return null;
    const value = readBankAmount(raw, mapping.decimal_mark);
    if (value === null)
      fail(`line ${row.line}: ${name} ${quote(raw)} is not a number (decimal mark ${quote(mapping.decimal_mark)})`);
    return value;
  };
  /** Why the line cannot be a transaction at all, or null when it can. */
  const notARow = (row: CsvRecord): string | null => {
    const shown = quote(row.cells.slice(0, row.fields).join(mapping.delimiter).trim(), 60);
    if (row.fields < needed)
      return `not a transaction: ${row.fields} ${row.fields === 1 ? 'cell' : 'cells'}, the date and amount columns need ${needed}: ${shown}`;
    if (!/^\d/.test(cell(row, dateAt))) return `not a transaction: no date in ${label(mapping.date_column)}: ${shown}`;
    if (!amountCells.some((i) => /\d/.test(cell(row, i)))) {
      const where =
        mapping.amount_column !== null
          ? label(mapping.amount_column)
          : `${label(mapping.debit_column)} or ${label(mapping.credit_column)}`;
      return `not a transaction: no amount in ${where}: ${shown}`;
    }
    return null;
  };

  const readRow = (row: CsvRecord): RawRow => {
    const status = cell(row, statusAt);
    const statusSkip = statusAt !== null && skipStatus.has(status.toUpperCase()) ? `status ${quote(status)}` : null;
    const skip = statusSkip ?? notARow(row);
    const dateText = cell(row, dateAt);
    const date = parseDateWithFormat(dateText, mapping.date_format);
    const result: RawRow = {
      line: row.line,
      date,
      amount: null,
      description: joinText(descriptionAt.map((i) => cell(row, i))) || NO_DESCRIPTION,
      external_id: cleanText(cell(row, idAt)) || null,
      skip_reason: skip,
    };
    if (skip !== null) {
      try {
        result.amount = signedAmount(row);
      } catch {
        result.amount = null;
      }
      return result;
    }
    if (date === null) fail(`line ${row.line}: date ${quote(dateText)} is not a valid ${mapping.date_format} date`);
    result.amount = signedAmount(row);
    return result;
  };

  const signedAmount = (row: CsvRecord): string => {
    let value: Decimal;
    if (amountAt !== null) {
      const amount = amountOf(row, amountAt, 'amount');
      if (amount === null) fail(`line ${row.line}: amount column ${label(mapping.amount_column)} is empty`);
      value = amount;
      if (directionAt !== null) {
        const direction = cell(row, directionAt).toUpperCase();
        const isDebit = debitValues.has(direction);
        if (!isDebit && !creditValues.has(direction)) {
          fail(
            `line ${row.line}: ${label(mapping.direction_column)} ${quote(cell(row, directionAt))} is neither a debit (${[...debitValues].join(', ')}) nor a credit (${[...creditValues].join(', ')}) value`,
          );
        }
        if (value.isNegative() && !value.isZero())
          fail(
            `line ${row.line}: amount ${quote(cell(row, amountAt))} is negative although ${label(mapping.direction_column)} gives the direction`,
          );
        value = isDebit ? value.abs().negated() : value.abs();
      }
      const fee = feeAt === null ? null : amountOf(row, feeAt, 'fee');
      if (fee !== null) value = value.minus(fee.abs());
    } else {
      const debit = amountOf(row, debitAt as number, 'debit');
      const credit = amountOf(row, creditAt as number, 'credit');
      const hasDebit = debit !== null && !debit.isZero();
      const hasCredit = credit !== null && !credit.isZero();
      if (hasDebit && hasCredit)
        fail(
          `line ${row.line}: both ${label(mapping.debit_column)} and ${label(mapping.credit_column)} have an amount`,
        );
      if (debit === null && credit === null)
        fail(
          `line ${row.line}: neither ${label(mapping.debit_column)} nor ${label(mapping.credit_column)} has an amount`,
        );
      value = hasDebit ? debit.abs().negated() : hasCredit ? credit.abs() : ((debit ?? credit) as Decimal);
    }
    return formatBankAmount(value);
  };

  const rawRows = rows.map(readRow);
  const balances =
    balanceAt === null ? null : runningBalance(rows, rawRows, (row) => amountOf(row, balanceAt, 'balance'));
  const accounts = distinct(rows.map((row) => cleanText(cell(row, accountAt))));
  const currencies = distinct(rows.map((row) => cleanText(cell(row, currencyAt)).toUpperCase()));
  const currency = currencies.length === 1 && /^[A-Z]{3}$/.test(currencies[0] ?? '') ? (currencies[0] ?? null) : null;
  const firstRow = rows[rawRows.findIndex((row) => row.skip_reason === null)] ?? rows[0];
  const amountHeader = header === null ? '' : (header.cells[amountAt ?? debitAt ?? -1] ?? '');
  return {
    statements: [
      {
        account_ref: (accounts.length === 1 ? accounts[0] : null) ?? preambleIban(text, mapping.header_row),
        currency: currency ?? headerCurrency(amountHeader),
        start_date: null,
        end_date: null,
        rows: rawRows,
        closing_balance: balances?.closing ?? null,
      },
    ],
    notes: balances?.notes ?? [],
    columns: header === null ? null : [...header.cells],
    firstRow: firstRow === undefined ? null : firstRow.cells.slice(0, firstRow.fields),
    ignored,
  };
}

/** How a message names a column: its header text, or "column N" (1-based) for a position. */
function columnLabel(ref: CsvColumn): string {
  return typeof ref === 'number' ? `column ${ref + 1}` : ref;
}

/** Finds a column by header text, or by position (below the header's width, or the rows' without a header). */
function columnFinder(header: CsvRecord | null, rowWidth: number): (ref: CsvColumn) => number {
  const names = header?.cells ?? [];
  const width = header === null ? rowWidth : names.length;
  return (ref: CsvColumn): number => {
    if (typeof ref === 'number') {
      if (!Number.isInteger(ref) || ref < 0 || ref >= Math.max(width, 1))
        fail(`CSV mapping: column ${ref + 1} is beyond the file's ${width} columns`);
      return ref;
    }
    if (header === null) fail(`CSV mapping: the file has no header line, so ${quote(ref)} must be a column position`);
    let index = names.indexOf(ref);
    if (index === -1) index = names.findIndex((n) => n.trim() === ref.trim());
    if (index === -1)
      fail(
        `line ${header.line}: column ${quote(ref)} is not in the header (${names.map((n) => quote(n, 20)).join(', ')})`,
      );
    return index;
  };
}

function validateMapping(mapping: CsvMapping): void {
  const problem = (detail: string): never => fail(`CSV mapping: ${detail}`);
  if (!(CSV_DELIMITERS as readonly string[]).includes(mapping.delimiter))
    problem(`delimiter ${quote(mapping.delimiter)} is not one of , ; tab |`);
  if (!Number.isInteger(mapping.header_row) || mapping.header_row < 0)
    problem('header_row must be a non-negative integer');
  if (!(CSV_DATE_FORMATS as readonly string[]).includes(mapping.date_format))
    problem(`date_format ${quote(String(mapping.date_format))} is not supported`);
  if (mapping.decimal_mark !== '.' && mapping.decimal_mark !== ',') problem('decimal_mark must be "." or ","');
  const pair = mapping.debit_column !== null || mapping.credit_column !== null;
  if ((mapping.amount_column === null) === !pair)
    problem('give either amount_column or debit_column and credit_column');
  if (pair && (mapping.debit_column === null || mapping.credit_column === null))
    problem('debit_column and credit_column go together');
  if (mapping.direction_column !== null && mapping.amount_column === null)
    problem('direction_column needs amount_column');
  if (
    mapping.direction_column !== null &&
    (mapping.direction_debit_values.length === 0 || mapping.direction_credit_values.length === 0)
  ) {
    problem('direction_column needs direction_debit_values and direction_credit_values');
  }
  if (mapping.fee_column !== null && mapping.amount_column === null) problem('fee_column needs amount_column');
}

function distinct(values: string[]): string[] {
  return [...new Set(values.filter((v) => v !== ''))];
}

/** An IBAN written in the lines before the header (ING "IBAN;DE12 3456 …", DKB's first line). */
function preambleIban(text: string, headerRow: number): string | null {
  if (headerRow === 0) return null;
  const preamble = text.split('\n', headerRow).join('\n');
  const m = /\b([A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?)\b/.exec(preamble);
  return m?.[1] ? m[1].replace(/ /g, '') : null;
}

function headerCurrency(header: string): string | null {
  if (/€/.test(header)) return 'EUR';
  const m = /[([]\s*([A-Z]{3})\s*[)\]]/.exec(header);
  return m?.[1] ?? null;
}

/**
 * The closing balance a running-balance column states: the balance of the row last by date (the
 * file's own order breaks ties; a newest-first file is read backwards). Each row's balance should
 * be the previous one plus its amount; the first row where it is not is said in a note.
 */
function runningBalance(
  records: readonly CsvRecord[],
  rows: readonly RawRow[],
  balanceOf: (record: CsvRecord) => Decimal | null,
): { closing: { amount: string; date: string | null } | null; notes: { line: number; reason: string }[] } {
  const kept: { row: RawRow; balance: Decimal }[] = [];
  rows.forEach((row, i) => {
    const balance = row.skip_reason === null && row.date !== null ? balanceOf(records[i]!) : null;
    if (balance !== null) kept.push({ row, balance });
  });
  if (kept.length === 0) return { closing: null, notes: [] };
  if (kept[0]!.row.date! > kept[kept.length - 1]!.row.date!) kept.reverse();
  const ordered = kept
    .map((k, i) => ({ ...k, i }))
    .sort((a, b) => (a.row.date! < b.row.date! ? -1 : a.row.date! > b.row.date! ? 1 : a.i - b.i));
  const notes: { line: number; reason: string }[] = [];
  for (let i = 1; i < ordered.length && notes.length === 0; i++) {
    const before = ordered[i - 1]!;
    const here = ordered[i]!;
    if (!before.balance.plus(here.row.amount ?? '0').equals(here.balance))
      notes.push({
        line: here.row.line,
        reason: `balance column: ${formatBankAmount(here.balance)} is not the balance before it (${formatBankAmount(before.balance)}) plus this line's amount (${here.row.amount}); the closing balance may be wrong`,
      });
  }
  const last = ordered[ordered.length - 1]!;
  return { closing: { amount: formatBankAmount(last.balance), date: last.row.date }, notes };
}
