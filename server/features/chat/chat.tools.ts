import type { LedgerDb } from '../../db/stores.ts';
import type { TreeNode } from '../../contract/reports.ts';
import { DomainError } from '../../domain/errors.ts';
import { addDays, isCalendarDate, localToday, startOfMonth, startOfYear } from '../../domain/dates.ts';
import { formatMinor } from '../../domain/money.ts';
import type { ToolDefinition } from '../../llm/model.ts';
import { allAccounts, type Account } from '../accounts/accounts.repository.ts';
import { balancesAsOf } from '../accounts/accounts.service.ts';
import { listEntryPage } from '../journal/journal.service.ts';
import { reconciliationStats } from '../reconciliation/reconciliation.service.ts';
import { balanceSheet, incomeStatement } from '../reports/reports.service.ts';
import { homeCurrency } from '../settings/settings.service.ts';

/**
 * The advisor's read-only tools over the user's ledger. Each runs one synchronous read (no
 * transaction spans the model's turn) and answers exact decimal strings. None writes.
 */

export const PERIODS = ['this_month', 'last_month', 'this_year', 'last_year'] as const;
export type Period = (typeof PERIODS)[number];

export function periodRange(period: Period, today: string = localToday()): { start: string; end: string } {
  switch (period) {
    case 'this_month':
      return { start: startOfMonth(today), end: today };
    case 'last_month': {
      const end = addDays(startOfMonth(today), -1);
      return { start: startOfMonth(end), end };
    }
    case 'this_year':
      return { start: startOfYear(today), end: today };
    case 'last_year': {
      const end = addDays(startOfYear(today), -1);
      return { start: startOfYear(end), end };
    }
  }
}

/** Accounts named by a query: exact name (any case) first, else names containing it. */
export function findAccounts(accounts: readonly Account[], query: string): Account[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const exact = accounts.filter((a) => a.name.toLowerCase() === q || a.id === query.trim());
  return exact.length > 0 ? exact : accounts.filter((a) => a.name.toLowerCase().includes(q));
}

function dateArg(value: unknown): string | undefined {
  return typeof value === 'string' && isCalendarDate(value) ? value : undefined;
}

function rangeArgs(args: Record<string, unknown>): { start: string; end: string } {
  const period = PERIODS.find((p) => p === args.period);
  if (period) return periodRange(period);
  const end = dateArg(args.end_date) ?? localToday();
  const start = dateArg(args.start_date) ?? startOfMonth(end);
  return start <= end ? { start, end } : { start: end, end: start };
}

function flatten(
  nodes: readonly TreeNode[],
  currency: string,
  prefix = '',
): { account: string; currency: string; amount: string }[] {
  return nodes.flatMap((n) => [
    { account: prefix + n.name, currency, amount: n.total },
    ...flatten(n.children, currency, `${prefix}${n.name} > `),
  ]);
}

export const TOOL_DEFINITIONS: ToolDefinition[] = [
  {
    type: 'function',
    function: {
      name: 'get_balances',
      description:
        'Balances of the user’s accounts as of a date (default today), signed in each account’s normal direction. Optionally only accounts whose name matches `account`.',
      parameters: {
        type: 'object',
        properties: {
          as_of: { type: 'string', description: 'YYYY-MM-DD' },
          account: { type: 'string', description: 'an account name, or part of one' },
        },
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_net_worth',
      description:
        'Total assets, liabilities and net worth per currency as of a date (default today); with more than one currency, also in the home currency (`in_home_currency`, converted at that date’s rates, naming any missing rate).',
      parameters: { type: 'object', properties: { as_of: { type: 'string', description: 'YYYY-MM-DD' } } },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_income_and_spending',
      description:
        'Income and spending by account over a period: either `period` or start_date/end_date (default: this month to today). Parent accounts include their sub-accounts. With more than one currency, also the totals in the home currency (`in_home_currency`, each entry at its date’s rate).',
      parameters: {
        type: 'object',
        properties: {
          period: { type: 'string', enum: [...PERIODS] },
          start_date: { type: 'string', description: 'YYYY-MM-DD' },
          end_date: { type: 'string', description: 'YYYY-MM-DD' },
        },
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_recent_entries',
      description: 'Recent posted journal entries, newest first, optionally touching one account and within dates.',
      parameters: {
        type: 'object',
        properties: {
          limit: { type: 'integer', description: 'at most 50, default 10' },
          account: { type: 'string', description: 'an account name, or part of one' },
          start_date: { type: 'string', description: 'YYYY-MM-DD' },
          end_date: { type: 'string', description: 'YYYY-MM-DD' },
        },
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_reconciliation_status',
      description:
        'How many bank transactions are reconciled, awaiting review or unmatched, overall or for one account.',
      parameters: {
        type: 'object',
        properties: { account: { type: 'string', description: 'an account name, or part of one' } },
      },
    },
  },
];

export function getBalances(db: LedgerDb, args: Record<string, unknown>) {
  const asOf = dateArg(args.as_of) ?? localToday();
  let rows = balancesAsOf(db, asOf);
  if (typeof args.account === 'string' && args.account.trim()) {
    const wanted = new Set(
      findAccounts(
        rows.map((r) => r.account),
        args.account,
      ).map((a) => a.id),
    );
    if (wanted.size === 0)
      return { error: `no account matches "${args.account}"`, known_accounts: rows.map((r) => r.account.name) };
    rows = rows.filter((r) => wanted.has(r.account.id));
  }
  return {
    as_of: asOf,
    accounts: rows.map(({ account, balanceMinor }) => ({
      name: account.name,
      type: account.type,
      currency: account.currency,
      balance: formatMinor(balanceMinor, account.currency),
    })),
  };
}

/** The home currency when the books hold more than one currency (the figures then gain a converted total). */
function homeIfMixed(db: LedgerDb): string | undefined {
  return new Set(allAccounts(db).map((a) => a.currency)).size > 1 ? homeCurrency(db) : undefined;
}

export function getNetWorth(db: LedgerDb, args: Record<string, unknown>) {
  const sheet = balanceSheet(db, dateArg(args.as_of), homeIfMixed(db));
  const home = sheet.converted;
  return {
    as_of: sheet.as_of,
    currencies: sheet.currencies.map((c) => ({
      currency: c.currency,
      total_assets: c.total_assets,
      total_liabilities: c.total_liabilities,
      net_worth: c.net_worth,
    })),
    ...(home && {
      in_home_currency: {
        currency: home.currency,
        total_assets: home.total_assets,
        total_liabilities: home.total_liabilities,
        net_worth: home.net_worth,
        missing_rates: sheet.missing_rates ?? [],
      },
    }),
  };
}

export function getIncomeAndSpending(db: LedgerDb, args: Record<string, unknown>) {
  const { start, end } = rangeArgs(args);
  const statement = incomeStatement(db, start, end, homeIfMixed(db));
  const home = statement.converted;
  return {
    start_date: statement.start_date,
    end_date: statement.end_date,
    ...(home && {
      in_home_currency: {
        currency: home.currency,
        total_income: home.total_income,
        total_spending: home.total_expenses,
        net_income: home.net_income,
        missing_rates: statement.missing_rates ?? [],
      },
    }),
    currencies: statement.currencies.map((c) => ({
      currency: c.currency,
      total_income: c.total_income,
      total_spending: c.total_expenses,
      net_income: c.net_income,
      income: flatten(c.income, c.currency),
      spending: flatten(c.expenses, c.currency),
    })),
  };
}

export function getRecentEntries(db: LedgerDb, args: Record<string, unknown>) {
  const limit =
    typeof args.limit === 'number' && Number.isInteger(args.limit) ? Math.min(Math.max(args.limit, 1), 50) : 10;
  let accountId: string | undefined;
  if (typeof args.account === 'string' && args.account.trim()) {
    const found = findAccounts(allAccounts(db), args.account);
    if (found.length === 0) return { error: `no account matches "${args.account}"` };
    accountId = found[0]!.id;
  }
  const page = listEntryPage(db, {
    status: 'posted',
    account_id: accountId,
    start_date: dateArg(args.start_date),
    end_date: dateArg(args.end_date),
    source_type: undefined,
    page: 1,
    per_page: limit,
  });
  return {
    entries: page.items.map((e) => ({
      date: e.entry_date,
      memo: e.memo,
      lines: e.lines.map((l) => ({
        account: l.account_name,
        direction: l.direction,
        amount: l.amount,
        currency: l.currency,
      })),
    })),
  };
}

export function getReconciliationStatus(db: LedgerDb, args: Record<string, unknown>) {
  let accountId: string | undefined;
  if (typeof args.account === 'string' && args.account.trim()) {
    const found = findAccounts(allAccounts(db), args.account);
    if (found.length === 0) return { error: `no account matches "${args.account}"` };
    accountId = found[0]!.id;
  }
  const s = reconciliationStats(db, { account_id: accountId });
  return {
    total_transactions: s.total_transactions,
    reconciled: s.reconciled,
    pending_review: s.pending_review,
    unmatched: s.unmatched,
    reconciliation_rate_percent: s.reconciliation_rate,
    by_account: s.by_account,
  };
}

const RUNNERS: Record<string, (db: LedgerDb, args: Record<string, unknown>) => unknown> = {
  get_balances: getBalances,
  get_net_worth: getNetWorth,
  get_income_and_spending: getIncomeAndSpending,
  get_recent_entries: getRecentEntries,
  get_reconciliation_status: getReconciliationStatus,
};

/** Runs one tool call; an unknown tool or a failure is answered as data for the model, never thrown. */
export function runTool(db: LedgerDb, name: string, args: Record<string, unknown>): unknown {
  const runner = RUNNERS[name];
  if (!runner) return { error: `there is no tool named ${name}; the tools are ${Object.keys(RUNNERS).join(', ')}` };
  try {
    return runner(db, args && typeof args === 'object' ? args : {});
  } catch (error) {
    // A ledger that cannot be read at all (replaced by a restore meanwhile) stops the answer with
    // a readable line; the model would only answer without figures.
    if (error instanceof DomainError && error.code === 'LEDGER_BUSY') throw error;
    return { error: error instanceof Error ? error.message : 'the tool failed' };
  }
}
