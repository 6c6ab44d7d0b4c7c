import { formatBankAmount, readBankAmount } from './bank-amount.ts';
import { expandTwoDigitYear, isoDate } from './dates.ts';
import { fail, quote } from './fail.ts';
import { LIMITS } from './limits.ts';
import { NO_DESCRIPTION, cleanText, firstOverlongLine, joinText, normaliseNewlines } from './text.ts';
import type { RawParse, RawRow, RawStatement, SkippedRow } from './types.ts';

/** Sections whose records are transactions of one account. */
const ACCOUNT_SECTIONS = new Set(['bank', 'cash', 'ccard', 'oth a', 'oth l']);

interface Field {
  code: string;
  value: string;
  line: number;
}

interface PendingRow {
  line: number;
  dateText: string;
  amountText: string;
  description: string;
  statement: RawStatement;
}

/**
 * Quicken Interchange Format. Records of !Type:Bank/Cash/CCard/Oth A/Oth L sections are
 * transactions; each !Account block that precedes such a section starts a new statement named
 * after the account. Investment records are reported as skipped; category, class, security and
 * other lists are ignored. Lines starting with '#' are comments. In a record the first D line is
 * the date (a stray D inside a split is ignored), T (or U) the signed amount, P the payee and M
 * the memo. Dates: 'D.M.Y' is day-first; 'M/D/Y' is month-first unless some date in the file has
 * a first number above 12; "M/D'YY" (Quicken's apostrophe) means 20YY; other two-digit years
 * follow the 00–69 → 20xx, 70–99 → 19xx rule.
 */
export function parseQif(source: string, limit: number): RawParse {
  const text = normaliseNewlines(source);
  const overlong = firstOverlongLine(text, LIMITS.maxLineChars);
  if (overlong) fail(`line ${overlong}: longer than ${LIMITS.maxLineChars} characters`);
  const lines = text.split('\n');
  const statements: RawStatement[] = [];
  const byAccount = new Map<string, RawStatement>();
  const notes: SkippedRow[] = [];
  const pending: PendingRow[] = [];
  let section: string | null = null;
  let account: string | null = null;
  let sawAccountSection = false;
  let fields: Field[] = [];

  const statementFor = (name: string | null): RawStatement => {
    const key = name ?? '';
    let stmt = byAccount.get(key);
    if (!stmt) {
      stmt = { account_ref: name, currency: null, start_date: null, end_date: null, rows: [] };
      byAccount.set(key, stmt);
      statements.push(stmt);
    }
    return stmt;
  };

  const endRecord = (): void => {
    const record = fields;
    fields = [];
    const first = record[0];
    if (!first) return;
    if (section === null) fail(`line ${first.line}: record before any !Type header`);
    if (section === 'account') {
      const name = cleanText(record.find((f) => f.code === 'N')?.value);
      account = name || null;
    } else if (section === 'invst') {
      notes.push({ line: first.line, reason: 'investment record (!Type:Invst) is not a bank transaction' });
    } else if (ACCOUNT_SECTIONS.has(section)) {
      if (pending.length >= limit) fail(`line ${first.line}: more than ${limit} transactions`);
      pending.push(readRecord(record, statementFor(account)));
    }
  };

  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    const line = raw.trimEnd();
    if (line.trim() === '' || line.startsWith('#')) return;
    if (line.startsWith('!')) {
      endRecord();
      const directive = line.slice(1).trim().toLowerCase();
      if (directive.startsWith('type:')) {
        section = directive.slice(5).trim();
        if (ACCOUNT_SECTIONS.has(section)) {
          sawAccountSection = true;
          statementFor(account);
        }
      } else if (directive === 'account') {
        section = 'account';
      } else if (!directive.startsWith('option:') && !directive.startsWith('clear:')) {
        section = 'other';
      }
      return;
    }
    if (line.startsWith('^')) {
      endRecord();
      return;
    }
    fields.push({ code: line[0] ?? '', value: line.slice(1), line: lineNo });
  });
  endRecord();

  if (!sawAccountSection)
    fail('no !Type:Bank, Cash, CCard, Oth A or Oth L section: no bank transactions in this QIF file');
  const dayFirstSlash = slashOrder(pending);
  for (const row of pending) row.statement.rows.push(finishRow(row, dayFirstSlash));
  return { statements, notes };
}

function readRecord(record: Field[], statement: RawStatement): PendingRow {
  const line = record[0]?.line ?? 0;
  const first = (code: string): Field | undefined => record.find((f) => f.code === code);
  const date = first('D');
  if (!date) fail(`line ${line}: record has no D (date) line`);
  const amount = first('T') ?? first('U');
  if (!amount) fail(`line ${line}: record has no T (amount) line`);
  const payee = cleanText(first('P')?.value);
  const memo = cleanText(first('M')?.value);
  let description = payee || memo;
  if (payee !== '' && memo !== '' && !payee.toUpperCase().includes(memo.toUpperCase()))
    description = joinText([payee, memo], ' - ');
  return {
    line,
    dateText: date.value.trim(),
    amountText: amount.value.trim(),
    description: description || cleanText(first('L')?.value) || NO_DESCRIPTION,
    statement,
  };
}

const DATE = /^(\d{1,2})\s*([/.-])\s*(\d{1,2})\s*(['/.-])\s*(\d{2}|\d{4})$/;
const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;

/** Whether slash/dash dates are day-first: only when some first number exceeds 12 and no second one does. */
function slashOrder(rows: PendingRow[]): boolean {
  let dayFirstEvidence: PendingRow | undefined;
  let monthFirstEvidence: PendingRow | undefined;
  for (const row of rows) {
    const m = DATE.exec(row.dateText.replace(/\s+/g, ' '));
    if (!m || m[2] === '.') continue;
    if (Number(m[1]) > 12) dayFirstEvidence ??= row;
    if (Number(m[3]) > 12) monthFirstEvidence ??= row;
  }
  if (dayFirstEvidence && monthFirstEvidence) {
    fail(
      `line ${dayFirstEvidence.line}: date ${quote(dayFirstEvidence.dateText)} is day-first but line ${monthFirstEvidence.line} has month-first ${quote(monthFirstEvidence.dateText)}`,
    );
  }
  return dayFirstEvidence !== undefined;
}

function finishRow(row: PendingRow, dayFirstSlash: boolean): RawRow {
  const date = parseQifDate(row.dateText, dayFirstSlash);
  if (date === null) fail(`line ${row.line}: date ${quote(row.dateText)} is not a valid date`);
  const amount = readBankAmount(row.amountText, 'auto');
  if (amount === null) fail(`line ${row.line}: amount ${quote(row.amountText)} is not a number`);
  return {
    line: row.line,
    date,
    amount: formatBankAmount(amount),
    description: row.description,
    external_id: null,
    skip_reason: null,
  };
}

function parseQifDate(text: string, dayFirstSlash: boolean): string | null {
  const iso = ISO.exec(text);
  if (iso) return isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const m = DATE.exec(text.replace(/\s+/g, ' '));
  if (!m) return null;
  const [a, b, yearText] = [Number(m[1]), Number(m[3]), m[5] ?? ''];
  let year = Number(yearText);
  if (yearText.length === 2) year = m[4] === "'" ? 2000 + year : expandTwoDigitYear(year);
  const dayFirst = m[2] === '.' || dayFirstSlash;
  return dayFirst ? isoDate(year, b, a) : isoDate(year, a, b);
}
