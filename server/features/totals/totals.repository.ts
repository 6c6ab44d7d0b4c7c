import type { LedgerDb } from '../../db/stores.ts';
import { sqlWords } from '../../db/sql-text.ts';
import { endOfMonth, monthOf, startOfMonth } from '../../domain/dates.ts';
import { BOOKED_ENTRY_STATUSES, type AccountType, type Direction } from '../../domain/double-entry.ts';
import { DomainError } from '../../domain/errors.ts';
import type { Minor } from '../../domain/money.ts';
import type { Pair, PostedLine } from './totals.model.ts';

/** The statuses of the entries that count in the books, in raw SQL. */
const BOOKED = sqlWords(BOOKED_ENTRY_STATUSES);

/**
 * Maintained aggregates of everything ever posted (an entry counts from its posting on, also
 * after it is voided, because its reversal offsets it). They are updated in the posting's own
 * transaction; balances and reports read them instead of scanning lines: a date range costs at
 * most two partial months of day rows plus one row per account and month.
 */

type Kind = 'account' | 'cash_flow';

const TABLES: Record<Kind, { day: string; month: string; a: string; b: string }> = {
  account: { day: 'account_day_totals', month: 'account_month_totals', a: 'debit_minor', b: 'credit_minor' },
  cash_flow: { day: 'cash_flow_day_totals', month: 'cash_flow_month_totals', a: 'in_minor', b: 'out_minor' },
};

function add(db: LedgerDb, kind: Kind, accountId: string, day: string, a: Minor, b: Minor): void {
  const t = TABLES[kind];
  for (const [table, column, key] of [
    [t.day, 'day', day],
    [t.month, 'month', monthOf(day)],
  ] as const) {
    db.runSql(
      `INSERT INTO ${table} (account_id, ${column}, ${t.a}, ${t.b}) VALUES (?, ?, ?, ?)
       ON CONFLICT (account_id, ${column}) DO UPDATE SET ${t.a} = ${t.a} + excluded.${t.a}, ${t.b} = ${t.b} + excluded.${t.b}`,
      accountId,
      key,
      a,
      b,
    );
  }
}

/**
 * The most an account's all-time debits (or credits) may reach, in minor units. Every aggregate
 * row and every SUM over them stays below it, so SQLite's 64-bit integers never overflow (an
 * overflow would turn the sum into a REAL, which the STRICT tables refuse): 2^62 plus one more
 * entry (at most 1000 lines below 10^15 minor units each) is still below 2^63.
 */
const MAX_ACCOUNT_TOTAL_MINOR = 2n ** 62n;

/** Refuses a posting that would take an account's all-time debits or credits past MAX_ACCOUNT_TOTAL_MINOR. */
function assertTotalsFit(db: LedgerDb, byAccount: ReadonlyMap<string, Pair>): void {
  for (const [accountId, pair] of byAccount) {
    const [sums] = db.allSql<{ a: bigint | null; b: bigint | null }>(
      'SELECT SUM(debit_minor) AS a, SUM(credit_minor) AS b FROM account_month_totals WHERE account_id = ?',
      accountId,
    );
    if ((sums?.a ?? 0n) + pair.a > MAX_ACCOUNT_TOTAL_MINOR || (sums?.b ?? 0n) + pair.b > MAX_ACCOUNT_TOTAL_MINOR) {
      throw new DomainError(
        'VALIDATION_ERROR',
        "Posting this would take an account's all-time totals past the largest amount the ledger keeps exactly",
        [{ field: 'lines', message: `the totals of account ${accountId} would be too large` }],
      );
    }
  }
}

/** Adds one posted entry's lines to the aggregates. Call inside the posting's transaction. */
export function applyPosting(db: LedgerDb, entryDate: string, lines: readonly PostedLine[]): void {
  const byAccount = new Map<string, Pair>();
  for (const line of lines) {
    const pair = byAccount.get(line.accountId) ?? { a: 0n, b: 0n };
    if (line.direction === 'DEBIT') pair.a += line.amountMinor;
    else pair.b += line.amountMinor;
    byAccount.set(line.accountId, pair);
  }
  assertTotalsFit(db, byAccount);
  for (const [accountId, pair] of byAccount) add(db, 'account', accountId, entryDate, pair.a, pair.b);

  for (const [accountId, pair] of cashFlowOf(lines)) add(db, 'cash_flow', accountId, entryDate, pair.a, pair.b);
}

/**
 * Money into and out of ASSET accounts, by counter account: in each currency that has an ASSET
 * line, every other line is a counter line; its CREDIT is money in, its DEBIT money out. Because
 * the entry balances, in minus out is exactly the assets' change; transfers between assets cancel.
 */
function cashFlowOf(lines: readonly PostedLine[]): Map<string, Pair> {
  const assetCurrencies = new Set(lines.filter((l) => l.accountType === 'ASSET').map((l) => l.currency));
  const out = new Map<string, Pair>();
  for (const line of lines) {
    if (line.accountType === 'ASSET' || !assetCurrencies.has(line.currency)) continue;
    const pair = out.get(line.accountId) ?? { a: 0n, b: 0n };
    if (line.direction === 'CREDIT') pair.a += line.amountMinor;
    else pair.b += line.amountMinor;
    out.set(line.accountId, pair);
  }
  return out;
}

type SumRow = { account_id: string; a: bigint; b: bigint };

function sumPeriods(
  db: LedgerDb,
  kind: Kind,
  unit: 'day' | 'month',
  from: string,
  to: string,
  accountId: string | undefined,
  into: Map<string, Pair>,
): void {
  const t = TABLES[kind];
  const table = unit === 'day' ? t.day : t.month;
  const sql = `SELECT account_id, SUM(${t.a}) AS a, SUM(${t.b}) AS b FROM ${table} WHERE ${unit} >= ? AND ${unit} <= ?`;
  const rows =
    accountId === undefined
      ? db.allSql<SumRow>(`${sql} GROUP BY account_id`, from, to)
      : db.allSql<SumRow>(`${sql} AND account_id = ? GROUP BY account_id`, from, to, accountId);
  merge(rows, into);
}

function merge(rows: SumRow[], into: Map<string, Pair>): void {
  for (const row of rows) {
    const pair = into.get(row.account_id) ?? { a: 0n, b: 0n };
    pair.a += row.a;
    pair.b += row.b;
    into.set(row.account_id, pair);
  }
}

function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${String(y - 1).padStart(4, '0')}-12` : `${month.slice(0, 4)}-${String(m - 1).padStart(2, '0')}`;
}

function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${String(y + 1).padStart(4, '0')}-01` : `${month.slice(0, 4)}-${String(m + 1).padStart(2, '0')}`;
}

/**
 * Sums per account over the dates [from, to] (from = null: since the beginning). `a`/`b` are
 * debit/credit for accounts, in/out for cash flow.
 */
export function sumRange(
  db: LedgerDb,
  kind: Kind,
  from: string | null,
  to: string,
  accountId?: string,
): Map<string, Pair> {
  const out = new Map<string, Pair>();
  const sumDays = (a: string, b: string) => sumPeriods(db, kind, 'day', a, b, accountId, out);
  const sumMonths = (a: string | null, b: string) => sumPeriods(db, kind, 'month', a ?? '', b, accountId, out);
  if (from !== null && from > to) return out;
  const toMonth = monthOf(to);
  if (from !== null && monthOf(from) === toMonth) {
    sumDays(from, to);
    return out;
  }
  let firstFullMonth: string | null = null;
  if (from !== null) {
    if (from === startOfMonth(from)) firstFullMonth = monthOf(from);
    else {
      sumDays(from, endOfMonth(from));
      firstFullMonth = nextMonth(monthOf(from));
    }
  }
  if (to === endOfMonth(to)) {
    sumMonths(firstFullMonth, toMonth);
  } else {
    const lastFullMonth = previousMonth(toMonth);
    if (firstFullMonth === null || firstFullMonth <= lastFullMonth) sumMonths(firstFullMonth, lastFullMonth);
    sumDays(startOfMonth(to), to);
  }
  return out;
}

/**
 * Sums of some accounts over each of consecutive periods (as `periods` in domain/dates.ts makes
 * them), read at once: the month totals of every month that lies inside one period, the day totals
 * of the other days, each account's rows a range of its primary key. Element i holds the sums of
 * period i, for the accounts that have rows in it.
 */
export function sumEachPeriod(
  db: LedgerDb,
  kind: Kind,
  spans: readonly { start: string; end: string }[],
  accountIds: readonly string[],
): Map<string, Pair>[] {
  const out = spans.map(() => new Map<string, Pair>());
  if (spans.length === 0 || accountIds.length === 0) return out;
  const ends = spans.map((s) => s.end);
  /** The index of the period holding `date` (the first whose end is on or after it). */
  const periodOf = (date: string) => {
    let lo = 0;
    let hi = ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid]! < date) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const first = spans[0]!.start;
  const last = spans[spans.length - 1]!.end;
  // consecutive months read the same way make one range
  const runs: { unit: 'day' | 'month'; from: string; to: string }[] = [];
  for (let month = monthOf(first); month <= monthOf(last); month = nextMonth(month)) {
    const monthStart = `${month}-01`;
    const monthEnd = endOfMonth(monthStart);
    const from = first > monthStart ? first : monthStart;
    const to = last < monthEnd ? last : monthEnd;
    const whole = from === monthStart && to === monthEnd && ends[periodOf(from)]! >= monthEnd;
    const [unit, lo, hi] = whole ? (['month', month, month] as const) : (['day', from, to] as const);
    const run = runs[runs.length - 1];
    if (run?.unit === unit) run.to = hi;
    else runs.push({ unit, from: lo, to: hi });
  }
  const t = TABLES[kind];
  const ids = JSON.stringify(accountIds);
  for (const { unit, from, to } of runs) {
    const rows = db.allSql<{ at: string; account_id: string; a: bigint; b: bigint }>(
      `SELECT ${unit} AS at, account_id, ${t.a} AS a, ${t.b} AS b FROM ${unit === 'day' ? t.day : t.month}
        WHERE account_id IN (SELECT value FROM json_each(?)) AND ${unit} >= ? AND ${unit} <= ?`,
      ids,
      from,
      to,
    );
    for (const row of rows) {
      const sums = out[periodOf(unit === 'day' ? row.at : `${row.at}-01`)]!;
      const pair = sums.get(row.account_id);
      if (pair) {
        pair.a += row.a;
        pair.b += row.b;
      } else sums.set(row.account_id, { a: row.a, b: row.b });
    }
  }
  return out;
}

/** Debit and credit totals per account of everything posted on or before `asOf`. */
export function accountTotalsAsOf(db: LedgerDb, asOf: string, accountId?: string): Map<string, Pair> {
  return sumRange(db, 'account', null, asOf, accountId);
}

/** The aggregates recomputed from every line of every ever-posted entry: the invariant's other side. */
export function recomputeFromLines(db: LedgerDb): { accountDays: string[]; cashFlowDays: string[] } {
  const lines = db.allSql<{
    entry_id: string;
    entry_date: string;
    account_id: string;
    type: AccountType;
    direction: Direction;
    amount_minor: bigint;
    currency: string;
  }>(
    `SELECT l.entry_id, l.entry_date, l.account_id, a.type, l.direction, l.amount_minor, l.currency
       FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id JOIN accounts a ON a.id = l.account_id
      WHERE e.status IN ${BOOKED} ORDER BY l.entry_id, l.line_no`,
  );
  const accountDays = new Map<string, Pair>();
  const cashFlowDays = new Map<string, Pair>();
  let i = 0;
  while (i < lines.length) {
    const entryId = lines[i]!.entry_id;
    const entryLines: PostedLine[] = [];
    const date = lines[i]!.entry_date;
    for (; i < lines.length && lines[i]!.entry_id === entryId; i++) {
      const l = lines[i]!;
      entryLines.push({
        accountId: l.account_id,
        accountType: l.type,
        direction: l.direction,
        amountMinor: l.amount_minor,
        currency: l.currency,
      });
      const key = `${l.account_id} ${date}`;
      const pair = accountDays.get(key) ?? { a: 0n, b: 0n };
      if (l.direction === 'DEBIT') pair.a += l.amount_minor;
      else pair.b += l.amount_minor;
      accountDays.set(key, pair);
    }
    for (const [accountId, pair] of cashFlowOf(entryLines)) {
      const key = `${accountId} ${date}`;
      const sum = cashFlowDays.get(key) ?? { a: 0n, b: 0n };
      sum.a += pair.a;
      sum.b += pair.b;
      cashFlowDays.set(key, sum);
    }
  }
  const render = (m: Map<string, Pair>) => [...m].map(([k, p]) => `${k} ${p.a} ${p.b}`).sort();
  return { accountDays: render(accountDays), cashFlowDays: render(cashFlowDays) };
}

/** The maintained aggregates in the same form as recomputeFromLines, day and month tables checked against each other. */
export function maintainedTotals(db: LedgerDb): {
  accountDays: string[];
  cashFlowDays: string[];
  monthsMatchDays: boolean;
} {
  const read = (kind: Kind) => {
    const t = TABLES[kind];
    return db
      .allSql<{ account_id: string; day: string; a: bigint; b: bigint }>(
        `SELECT account_id, day, ${t.a} AS a, ${t.b} AS b FROM ${t.day}`,
      )
      .filter((r) => r.a !== 0n || r.b !== 0n)
      .map((r) => `${r.account_id} ${r.day} ${r.a} ${r.b}`)
      .sort();
  };
  let monthsMatchDays = true;
  for (const kind of ['account', 'cash_flow'] as const) {
    const t = TABLES[kind];
    const mismatches = db.allSql<{ n: bigint }>(
      `SELECT COUNT(*) AS n FROM (
         SELECT account_id, substr(day, 1, 7) AS month, SUM(${t.a}) AS a, SUM(${t.b}) AS b FROM ${t.day} GROUP BY 1, 2
       ) d FULL OUTER JOIN ${t.month} m ON m.account_id = d.account_id AND m.month = d.month
       WHERE d.a IS NOT m.${t.a} OR d.b IS NOT m.${t.b}`,
    );
    if (mismatches[0]!.n !== 0n) monthsMatchDays = false;
  }
  return { accountDays: read('account'), cashFlowDays: read('cash_flow'), monthsMatchDays };
}

/**
 * Adds many posted entries at once (a bulk journal import): the same aggregates and the same
 * limit as applyPosting, summed in memory first so that each account and day is written once.
 * Call inside the import's transaction.
 */
export function applyPostings(
  db: LedgerDb,
  postings: Iterable<{ entryDate: string; lines: readonly PostedLine[] }>,
): void {
  const accountDays = new Map<string, Map<string, Pair>>();
  const cashFlowDays = new Map<string, Map<string, Pair>>();
  const byAccount = new Map<string, Pair>();
  const bump = (into: Map<string, Map<string, Pair>>, accountId: string, day: string, a: Minor, b: Minor) => {
    let days = into.get(accountId);
    if (!days) into.set(accountId, (days = new Map()));
    const pair = days.get(day);
    if (pair) {
      pair.a += a;
      pair.b += b;
    } else days.set(day, { a, b });
  };
  for (const { entryDate, lines } of postings) {
    for (const line of lines) {
      const [a, b] = line.direction === 'DEBIT' ? [line.amountMinor, 0n] : [0n, line.amountMinor];
      bump(accountDays, line.accountId, entryDate, a, b);
      const total = byAccount.get(line.accountId) ?? { a: 0n, b: 0n };
      total.a += a;
      total.b += b;
      byAccount.set(line.accountId, total);
    }
    for (const [accountId, pair] of cashFlowOf(lines)) bump(cashFlowDays, accountId, entryDate, pair.a, pair.b);
  }
  assertTotalsFit(db, byAccount);
  for (const [kind, sums] of [
    ['account', accountDays],
    ['cash_flow', cashFlowDays],
  ] as const) {
    for (const [accountId, days] of sums) for (const [day, pair] of days) add(db, kind, accountId, day, pair.a, pair.b);
  }
}
