/**
 * Parses every file listed in ../shared/fixtures/statements/manifest.json (next to the repository)
 * and compares the result with the facts the manifest records: one line per file, "ok" or
 * "mismatch" with the reasons; exits 1 on any mismatch. Without the shared corpus it says so and
 * exits 0. Run: node scripts/check-shared-corpus.ts [corpus-dir]
 *
 * Counts and first/last rows are compared on every transaction row of the file, including rows the
 * parser reports as skipped (pending, zero amount), because the manifest counts those too; the
 * public result must then hold exactly the other rows as transactions.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Decimal } from 'decimal.js';
import { DomainError } from '../server/domain/errors.ts';
import { parseStatementFile, parseStatementRows } from '../server/domain/statements/index.ts';
import type { RawRow, StatementRows } from '../server/domain/statements/index.ts';

interface ExpectedRow {
  date?: string | null;
  signed_amount?: string;
  amount_in_file?: unknown;
  fitid?: string;
  acct_svcr_ref?: string;
  state?: string;
}

interface ExpectedStatement {
  account_id?: string;
  account_type?: string;
  currency?: string | null;
  start?: string | null;
  end?: string | null;
  transaction_count?: number | string;
  entry?: ExpectedRow;
}

interface Entry {
  file: string;
  format: string;
  category: string;
  sha256?: string;
  encoding?: string;
  statements?: ExpectedStatement[];
  account_id?: string | null;
  currency?: string | null;
  transaction_count: number;
  completed_count?: number;
  pending_count?: number;
  first_transaction: ExpectedRow | null;
  last_transaction: ExpectedRow | string | null;
  per_statement_edges?: Record<string, { first: ExpectedRow; last: ExpectedRow }>;
}

const FORMAT: Record<string, string> = {
  OFX1: 'ofx',
  OFX2: 'ofx',
  QFX: 'ofx',
  QIF: 'qif',
  CAMT053: 'camt053',
  CSV: 'csv',
};
const ELEMENT_OR_LINE = /\bline \d+\b|<\/?[A-Za-z][\w.]*>/;

const defaultDir = fileURLToPath(new URL('../../shared/fixtures/statements/', import.meta.url));
const dir = process.argv[2] ?? defaultDir;
const manifestPath = join(dir, 'manifest.json');
if (!existsSync(manifestPath)) {
  console.log(`no shared corpus at ${manifestPath}: nothing to check`);
  process.exit(0);
}

const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Entry[];
let ok = 0;
let bad = 0;
for (const entry of manifest) {
  const problems: string[] = [];
  let summary = '';
  try {
    summary = checkEntry(entry, problems);
  } catch (error) {
    problems.push(`unexpected ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  }
  if (problems.length === 0) {
    ok += 1;
    console.log(`ok       ${entry.file}  ${summary}`);
  } else {
    bad += 1;
    console.log(`mismatch ${entry.file}  ${problems.join('; ')}`);
  }
}
console.log(`\n${ok} ok, ${bad} mismatch, ${manifest.length} files`);
process.exit(bad === 0 ? 0 : 1);

function checkEntry(entry: Entry, problems: string[]): string {
  const path = join(dir, entry.file);
  if (!existsSync(path)) {
    problems.push('file is missing');
    return '';
  }
  const bytes = new Uint8Array(readFileSync(path));
  const sha = createHash('sha256').update(bytes).digest('hex');
  if (entry.sha256 && entry.sha256 !== sha) problems.push('sha256 differs from the manifest');

  if (entry.category === 'broken') {
    try {
      const result = parseStatementFile(bytes);
      problems.push(`parsed (${result.statements.length} statements) but the manifest marks it broken`);
      return '';
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'INVALID_STATEMENT_FILE') throw error;
      if (!ELEMENT_OR_LINE.test(error.message))
        problems.push(`refused, but the message names no line or element: ${error.message}`);
      return `refused: ${error.message}`;
    }
  }

  const raw = parseStatementRows(bytes);
  const result = parseStatementFile(bytes);
  const rows = raw.statements.flatMap((s) => s.rows);
  const expectedFormat = FORMAT[entry.format];
  if (raw.format !== expectedFormat) problems.push(`format ${raw.format}, expected ${expectedFormat}`);
  if (rows.length !== entry.transaction_count)
    problems.push(`${rows.length} transaction rows, expected ${entry.transaction_count}`);

  checkEncoding(entry, raw, problems);
  checkStatements(entry, raw, problems);
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (entry.first_transaction) compareRow('first', first, entry.first_transaction, problems);
  else if (rows.length > 0) problems.push('has rows, the manifest lists none');
  if (typeof entry.last_transaction === 'string') compareRow('last', last, entry.first_transaction ?? {}, problems);
  else if (entry.last_transaction) compareRow('last', last, entry.last_transaction, problems);
  if (entry.per_statement_edges) {
    Object.values(entry.per_statement_edges).forEach((edges, i) => {
      const stmtRows = raw.statements[i]?.rows ?? [];
      compareRow(`statement ${i + 1} first`, stmtRows[0], edges.first, problems);
      compareRow(`statement ${i + 1} last`, stmtRows[stmtRows.length - 1], edges.last, problems);
    });
  }

  const skippedRows = rows.filter((r) => r.skip_reason !== null);
  if (entry.pending_count !== undefined && skippedRows.length !== entry.pending_count) {
    problems.push(`${skippedRows.length} rows skipped by status, expected ${entry.pending_count} pending`);
  }
  if (entry.completed_count !== undefined && rows.length - skippedRows.length !== entry.completed_count) {
    problems.push(`${rows.length - skippedRows.length} rows not pending, expected ${entry.completed_count} completed`);
  }
  const transactions = result.statements.reduce((n, s) => n + s.transactions.length, 0);
  const skippedFromRows = result.skipped.length - raw.notes.length;
  if (transactions + skippedFromRows !== rows.length) {
    problems.push(`result has ${transactions} transactions + ${skippedFromRows} skipped rows for ${rows.length} rows`);
  }
  if (result.statements.length !== raw.statements.length)
    problems.push('result and rows disagree on the statement count');

  const reasons = [...new Set(result.skipped.map((s) => s.reason))].join(' | ');
  return `${rows.length} rows in ${raw.statements.length} statement(s): ${transactions} transactions, ${result.skipped.length} skipped${reasons ? ` (${reasons})` : ''}; ${raw.encoding}`;
}

function compareRow(label: string, row: RawRow | undefined, expected: ExpectedRow, problems: string[]): void {
  if (!row) {
    problems.push(`${label} row missing`);
    return;
  }
  const pending = expected.state !== undefined && expected.state !== 'COMPLETED';
  if (pending && row.skip_reason === null)
    problems.push(`${label} row (line ${row.line}) is ${expected.state} but not skipped`);
  if (expected.date) {
    if (row.date === null && row.skip_reason === null) problems.push(`${label} row (line ${row.line}) has no date`);
    else if (row.date !== null && row.date !== expected.date)
      problems.push(`${label} date ${row.date}, expected ${expected.date}`);
  }
  if (expected.signed_amount !== undefined) {
    if (row.amount === null) problems.push(`${label} row (line ${row.line}) has no amount`);
    else if (!new Decimal(row.amount).equals(new Decimal(expected.signed_amount))) {
      problems.push(`${label} amount ${row.amount}, expected ${expected.signed_amount}`);
    }
  }
  const id = expected.fitid ?? expected.acct_svcr_ref;
  if (id && row.external_id !== id) problems.push(`${label} external_id ${row.external_id}, expected ${id}`);
}

function checkStatements(entry: Entry, raw: StatementRows, problems: string[]): void {
  const expected = entry.statements;
  if (!expected) {
    const stmt = raw.statements[0];
    if (raw.statements.length !== 1) problems.push(`${raw.statements.length} statements, expected 1`);
    if (stmt && isCode(entry.currency) && stmt.currency !== null && stmt.currency !== entry.currency) {
      problems.push(`currency ${stmt.currency}, expected ${entry.currency}`);
    }
    return;
  }
  if (raw.statements.length !== expected.length)
    problems.push(`${raw.statements.length} statements, expected ${expected.length}`);
  expected.forEach((want, i) => {
    const got = raw.statements[i];
    if (!got) return;
    const label = `statement ${i + 1}`;
    if (typeof want.transaction_count === 'number' && got.rows.length !== want.transaction_count) {
      problems.push(`${label}: ${got.rows.length} rows, expected ${want.transaction_count}`);
    }
    if (want.account_id && got.account_ref !== want.account_id.trim())
      problems.push(`${label}: account ${got.account_ref}, expected ${want.account_id}`);
    if (isCode(want.currency) && got.currency !== want.currency)
      problems.push(`${label}: currency ${got.currency}, expected ${want.currency}`);
    if (want.start && got.start_date !== want.start)
      problems.push(`${label}: start ${got.start_date}, expected ${want.start}`);
    if (want.end && got.end_date !== want.end) problems.push(`${label}: end ${got.end_date}, expected ${want.end}`);
    if (want.entry) compareRow(`${label} entry`, got.rows[0], want.entry, problems);
  });
}

/** Loose: a file the manifest calls single-byte must not come out as UTF-8 and vice versa. */
function checkEncoding(entry: Entry, raw: StatementRows, problems: string[]): void {
  const said = (entry.encoding ?? '').toLowerCase();
  const singleByte = /^(iso-8859|windows-125)/.test(said);
  if (singleByte && raw.encoding.startsWith('utf'))
    problems.push(`decoded as ${raw.encoding}, the manifest says ${entry.encoding}`);
  if (said.startsWith('utf-8') && !said.includes('ascii content') && raw.encoding !== 'utf-8') {
    problems.push(`decoded as ${raw.encoding}, the manifest says ${entry.encoding}`);
  }
}

function isCode(value: string | null | undefined): value is string {
  return typeof value === 'string' && /^[A-Z]{3}$/.test(value);
}
