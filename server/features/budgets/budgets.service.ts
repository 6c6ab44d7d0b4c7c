import type { LedgerDb } from '../../db/stores.ts';
import type { BudgetDto, BudgetLineDto, BudgetReportDto, FillSource, PutBudgetInput } from '../../contract/budgets.ts';
import { FIELD_MESSAGES, tooManyDecimals } from '../../contract/limits.ts';
import {
  addMonths,
  carriedInto,
  divideHalfEven,
  FIRST_MONTH,
  monthNumber,
  monthsIn,
  type MonthFigures,
} from '../../domain/budgets.ts';
import { localToday, monthOf } from '../../domain/dates.ts';
import { normalBalance } from '../../domain/double-entry.ts';
import { DomainError, type FieldError } from '../../domain/errors.ts';
import { formatMinor, parseAmount, type Minor } from '../../domain/money.ts';
import { accountsByIds, allAccounts } from '../accounts/accounts.queries.ts';
import type { Account } from '../accounts/accounts.model.ts';
import type { Pair } from '../totals/totals.model.ts';
import { budgetLinesBetween, monthTotalsBetween, replaceMonth } from './budgets.repository.ts';
import type { BudgetLine } from './budgets.model.ts';

/**
 * Budgets per month and account (CONTRACT §17). Actuals come from the maintained month totals
 * (one row per account and month), never from the lines: a month's budget costs one index range
 * of those totals and one of budget lines, plus one of each for every year a carry-over run
 * reaches back.
 */

const BUDGET_TYPES = new Set(['EXPENSE', 'INCOME']);

/** An account with the accounts its figures roll up: itself and its sub-accounts of its currency. */
interface Rollup {
  account: Account;
  members: string[];
  /** its ancestors of the same currency: a line under a budgeted ancestor is counted there in totals */
  ancestors: string[];
  /** names from the root down: the order of the lines (a parent before its children) */
  path: string;
}

function rollups(accounts: readonly Account[]): Map<string, Rollup> {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const out = new Map<string, Rollup>();
  for (const account of accounts) {
    const ancestors: string[] = [];
    const names = [account.name];
    // the tree has no cycles (the accounts service refuses them); the bound is for safety only
    for (let p = account.parentId, steps = 0; p !== null && steps < accounts.length; steps++) {
      const parent = byId.get(p);
      if (!parent) break;
      names.unshift(parent.name);
      if (parent.currency === account.currency) ancestors.push(parent.id);
      p = parent.parentId;
    }
    out.set(account.id, { account, members: [account.id], ancestors, path: names.join('\u0000') });
  }
  for (const rollup of out.values()) for (const a of rollup.ancestors) out.get(a)!.members.push(rollup.account.id);
  return out;
}

function actualOf(rollup: Rollup, totals: Map<string, Pair> | undefined): Minor {
  let sum = 0n;
  if (!totals) return sum;
  for (const id of rollup.members) {
    const t = totals.get(id);
    if (t) sum += normalBalance(rollup.account.type, t.a, t.b);
  }
  return sum;
}

function byTypeThenPath(a: Rollup, b: Rollup): number {
  if (a.account.type !== b.account.type) return a.account.type === 'EXPENSE' ? -1 : 1;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** How many months of budget lines and totals one read of the carry-over walk covers. */
const CARRY_WINDOW_MONTHS = 12;

/**
 * What carries into `month` for each of its lines: the run of consecutive months before it with
 * carry-over on (domain/budgets.ts). The months are read backwards a year at a time, every line
 * at once (one range of budget lines and one of month totals a year), and the walk ends when no
 * line's run reaches further back; it never reaches before FIRST_MONTH, so it reads at most the
 * years of the calendar, a number known before it starts.
 */
function carriedIn(db: LedgerDb, lines: readonly BudgetLine[], month: string, roll: Map<string, Rollup>) {
  const runs = new Map<string, MonthFigures[]>(lines.map((l) => [l.accountId, []]));
  const expected = new Map(lines.map((l) => [l.accountId, addMonths(month, -1)]));
  const windows = Math.ceil(monthsIn(FIRST_MONTH, addMonths(month, -1)) / CARRY_WINDOW_MONTHS);
  let windowEnd = addMonths(month, -1);
  for (let w = 0; w < windows && expected.size > 0; w++) {
    const windowStart = addMonths(windowEnd, 1 - CARRY_WINDOW_MONTHS);
    const before = new Map<string, BudgetLine>();
    for (const line of budgetLinesBetween(db, windowStart, windowEnd))
      if (expected.has(line.accountId)) before.set(`${line.accountId} ${line.month}`, line);
    const totals = monthTotalsBetween(db, windowStart, windowEnd);
    for (const [accountId, from] of expected) {
      // at most the window's months
      let at = from;
      for (let step = 0; ; step++) {
        if (step === CARRY_WINDOW_MONTHS || monthNumber(at) < monthNumber(windowStart)) {
          expected.set(accountId, at);
          break;
        }
        const line = before.get(`${accountId} ${at}`);
        if (!line || !line.carryOver) {
          expected.delete(accountId);
          break;
        }
        const actual = actualOf(roll.get(accountId)!, totals.get(at));
        runs.get(accountId)!.push({ month: at, budgeted: line.amountMinor, actual, carryOver: true });
        at = addMonths(at, -1);
      }
    }
    windowEnd = addMonths(windowStart, -1);
  }
  return new Map([...runs].map(([id, run]) => [id, carriedInto(month, run)]));
}

type TotalsKey = `${string} ${'EXPENSE' | 'INCOME'}`;

function budgetOf(db: LedgerDb, month: string): BudgetDto {
  const roll = rollups(allAccounts(db));
  const lines = budgetLinesBetween(db, month, month).filter((l) => roll.has(l.accountId));
  const totals = monthTotalsBetween(db, month, month).get(month);
  const carried = carriedIn(db, lines, month, roll);
  const budgeted = new Set(lines.map((l) => l.accountId));
  const sums = new Map<TotalsKey, { budgeted: Minor; actual: Minor; available: Minor }>();
  const rows: { rollup: Rollup; dto: BudgetLineDto }[] = [];
  for (const line of lines) {
    const rollup = roll.get(line.accountId)!;
    const { account } = rollup;
    const actual = actualOf(rollup, totals);
    const carriedMinor = carried.get(account.id)!;
    const available = line.amountMinor + carriedMinor - actual;
    const money = (v: Minor) => formatMinor(v, account.currency);
    rows.push({
      rollup,
      dto: {
        account_id: account.id,
        name: account.name,
        type: account.type,
        currency: account.currency,
        parent_id: account.parentId,
        budgeted: money(line.amountMinor),
        actual: money(actual),
        remaining: money(line.amountMinor - actual),
        carry_over: line.carryOver,
        carried_in: money(carriedMinor),
        available: money(available),
      },
    });
    if (rollup.ancestors.some((a) => budgeted.has(a))) continue;
    const key: TotalsKey = `${account.currency} ${account.type as 'EXPENSE' | 'INCOME'}`;
    const sum = sums.get(key) ?? { budgeted: 0n, actual: 0n, available: 0n };
    sum.budgeted += line.amountMinor;
    sum.actual += actual;
    sum.available += available;
    sums.set(key, sum);
  }
  rows.sort((a, b) => byTypeThenPath(a.rollup, b.rollup));
  return {
    month,
    lines: rows.map((r) => r.dto),
    totals: [...sums]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, sum]) => {
        const [currency, type] = key.split(' ') as [string, 'EXPENSE' | 'INCOME'];
        return {
          currency,
          type,
          budgeted: formatMinor(sum.budgeted, currency),
          actual: formatMinor(sum.actual, currency),
          remaining: formatMinor(sum.budgeted - sum.actual, currency),
          available: formatMinor(sum.available, currency),
        };
      }),
  };
}

export function getBudget(db: LedgerDb, month: string): BudgetDto {
  return db.readSnapshot(() => budgetOf(db, month));
}

/** Accounts a budget line may name: the user's own EXPENSE or INCOME accounts. */
function budgetAccounts(db: LedgerDb, ids: readonly string[]): Map<string, Account> {
  const accounts = accountsByIds(db, ids);
  const bad: FieldError[] = [];
  ids.forEach((id, i) => {
    const account = accounts.get(id);
    if (!account) bad.push({ field: `lines.${i}.account_id`, message: 'no such account' });
    else if (!BUDGET_TYPES.has(account.type))
      bad.push({
        field: `lines.${i}.account_id`,
        message: `is an ${account.type} account; budgets are for EXPENSE and INCOME accounts`,
      });
  });
  if (bad.length > 0) throw new DomainError('INVALID_ACCOUNT', `Line ${bad[0]!.field} ${bad[0]!.message}`, bad);
  return accounts;
}

export function putBudget(db: LedgerDb, month: string, input: PutBudgetInput): BudgetDto {
  return db.transaction(() => {
    const seen = new Map<string, number>();
    const duplicates: FieldError[] = [];
    input.lines.forEach((l, i) => {
      if (seen.has(l.account_id))
        duplicates.push({
          field: `lines.${i}.account_id`,
          message: `repeats the account of lines.${seen.get(l.account_id)}`,
        });
      else seen.set(l.account_id, i);
    });
    if (duplicates.length > 0)
      throw new DomainError(
        'VALIDATION_ERROR',
        `Invalid body: ${duplicates[0]!.field} ${duplicates[0]!.message}`,
        duplicates,
      );
    const accounts = budgetAccounts(
      db,
      input.lines.map((l) => l.account_id),
    );
    const badAmounts: FieldError[] = [];
    const lines: BudgetLine[] = [];
    input.lines.forEach((l, i) => {
      const account = accounts.get(l.account_id)!;
      const parsed = parseAmount(l.amount, account.currency);
      if ('problem' in parsed && parsed.problem !== 'zero') {
        const message =
          parsed.problem === 'digits'
            ? tooManyDecimals(account.currency)
            : parsed.problem === 'too_large'
              ? FIELD_MESSAGES.tooLarge
              : FIELD_MESSAGES.budgetAmount;
        badAmounts.push({ field: `lines.${i}.amount`, message });
        return;
      }
      lines.push({
        month,
        accountId: account.id,
        amountMinor: 'minor' in parsed ? parsed.minor : 0n,
        carryOver: l.carry_over ?? false,
      });
    });
    if (badAmounts.length > 0)
      throw new DomainError(
        'VALIDATION_ERROR',
        `Invalid body: ${badAmounts[0]!.field} ${badAmounts[0]!.message}`,
        badAmounts,
      );
    replaceMonth(db, month, lines);
    return budgetOf(db, month);
  });
}

/**
 * Fills a month in one action from the month before's budget, or from the average of the three
 * months before's actuals (each account's own postings, rounded half to even; accounts that took
 * in more than they spent are left out). Lines of the month for accounts the source does not name
 * stay as they are; the source's amounts replace the others.
 */
export function fillBudget(db: LedgerDb, month: string, from: FillSource): BudgetDto {
  return db.transaction(() => {
    const current = new Map(budgetLinesBetween(db, month, month).map((l) => [l.accountId, l]));
    const filled = new Map<string, BudgetLine>();
    if (from === 'previous_month') {
      for (const line of budgetLinesBetween(db, addMonths(month, -1), addMonths(month, -1)))
        filled.set(line.accountId, { ...line, month });
    } else {
      const accounts = new Map(allAccounts(db).map((a) => [a.id, a]));
      const sums = new Map<string, Minor>();
      for (const totals of monthTotalsBetween(db, addMonths(month, -3), addMonths(month, -1)).values()) {
        for (const [id, t] of totals) {
          const account = accounts.get(id);
          if (account && BUDGET_TYPES.has(account.type))
            sums.set(id, (sums.get(id) ?? 0n) + normalBalance(account.type, t.a, t.b));
        }
      }
      for (const [id, sum] of sums) {
        const average = divideHalfEven(sum, 3n);
        if (average > 0n)
          filled.set(id, {
            month,
            accountId: id,
            amountMinor: average,
            carryOver: current.get(id)?.carryOver ?? false,
          });
      }
    }
    if (filled.size === 0) {
      const detail =
        from === 'previous_month'
          ? `${addMonths(month, -1)} has no budget to copy`
          : `No EXPENSE or INCOME account has activity in the three months before ${month}`;
      throw new DomainError('VALIDATION_ERROR', detail, [{ field: 'from', message: 'the source is empty' }]);
    }
    for (const [id, line] of current) if (!filled.has(id)) filled.set(id, line);
    replaceMonth(db, month, [...filled.values()]);
    return budgetOf(db, month);
  });
}

/**
 * Budget against actual per account and month over a month or a calendar year (default: this
 * month): at most 12 months, counted from the query before any is read.
 */
export function budgetReport(
  db: LedgerDb,
  query: { month?: string | undefined; year?: string | undefined },
): BudgetReportDto {
  const start = query.month ?? (query.year ? `${query.year}-01` : monthOf(localToday()));
  const end = query.month ?? (query.year ? `${query.year}-12` : start);
  return db.readSnapshot(() => {
    const roll = rollups(allAccounts(db));
    const lines = budgetLinesBetween(db, start, end).filter((l) => roll.has(l.accountId));
    const totals = monthTotalsBetween(db, start, end);
    const months = Array.from({ length: monthsIn(start, end) }, (_, i) => addMonths(start, i));
    const budgetedIn = new Map<string, Map<string, Minor>>();
    for (const l of lines) {
      let byMonth = budgetedIn.get(l.accountId);
      if (!byMonth) budgetedIn.set(l.accountId, (byMonth = new Map()));
      byMonth.set(l.month, l.amountMinor);
    }
    const sums = new Map<TotalsKey, { budgeted: Minor; actual: Minor }>();
    const rows = [...budgetedIn.keys()]
      .map((id) => roll.get(id)!)
      .sort(byTypeThenPath)
      .map((rollup) => {
        const { account } = rollup;
        const money = (v: Minor) => formatMinor(v, account.currency);
        let budgeted = 0n;
        let actual = 0n;
        const perMonth = months.map((m) => {
          const b = budgetedIn.get(account.id)!.get(m) ?? 0n;
          const a = actualOf(rollup, totals.get(m));
          budgeted += b;
          actual += a;
          return { month: m, budgeted: money(b), actual: money(a), remaining: money(b - a) };
        });
        if (!rollup.ancestors.some((a) => budgetedIn.has(a))) {
          const key: TotalsKey = `${account.currency} ${account.type as 'EXPENSE' | 'INCOME'}`;
          const sum = sums.get(key) ?? { budgeted: 0n, actual: 0n };
          sum.budgeted += budgeted;
          sum.actual += actual;
          sums.set(key, sum);
        }
        return {
          account_id: account.id,
          name: account.name,
          type: account.type,
          currency: account.currency,
          budgeted: money(budgeted),
          actual: money(actual),
          remaining: money(budgeted - actual),
          months: perMonth,
        };
      });
    return {
      start_month: start,
      end_month: end,
      rows,
      totals: [...sums]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, sum]) => {
          const [currency, type] = key.split(' ') as [string, 'EXPENSE' | 'INCOME'];
          return {
            currency,
            type,
            budgeted: formatMinor(sum.budgeted, currency),
            actual: formatMinor(sum.actual, currency),
            remaining: formatMinor(sum.budgeted - sum.actual, currency),
          };
        }),
    };
  });
}
