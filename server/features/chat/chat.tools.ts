import { z } from 'zod';
import type { LedgerDb } from '../../db/stores.ts';
import type { TreeNode } from '../../contract/reports.ts';
import { DomainError } from '../../domain/errors.ts';
import { addDays, isLedgerDate, localToday, startOfMonth, startOfYear } from '../../domain/dates.ts';
import { formatMinor } from '../../domain/money.ts';
import type { ToolDefinition } from '../../llm/model.ts';
import { allAccounts } from '../accounts/accounts.queries.ts';
import type { Account } from '../accounts/accounts.model.ts';
import { balancesAsOf } from '../accounts/accounts.service.ts';
import { listEntryPage } from '../journal/journal.service.ts';
import { reconciliationStats } from '../reconciliation/reconciliation.stats.service.ts';
import { balanceSheet, incomeStatement } from '../reports/reports.service.ts';
import { BUDGET_TOOL_DESCRIPTION, getBudgetAndUpcomingBills, MAX_BILL_DAYS } from '../budgets/budgets.advisor.ts';
import { homeCurrency } from '../settings/settings.service.ts';
import { holdingsReport, realizedGains } from '../investments/investments.holdings.ts';

type ToolParameters = ToolDefinition['function']['parameters'];

/**
 * The advisor's read-only tools over the user's ledger. Each runs one synchronous read (no
 * transaction spans the model's turn) and answers exact decimal strings. None writes.
 */

const PERIODS = ['this_month', 'last_month', 'this_year', 'last_year'] as const;
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
function findAccounts(accounts: readonly Account[], query: string): Account[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const exact = accounts.filter((a) => a.name.toLowerCase() === q || a.id === query.trim());
  return exact.length > 0 ? exact : accounts.filter((a) => a.name.toLowerCase().includes(q));
}

/**
 * The tools' arguments, read leniently: a value the model gets wrong is left out, as if not sent,
 * and the tool uses its default. The same schemas tell the model the arguments (TOOL_DEFINITIONS).
 */
const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
const date = z.string().refine(isLedgerDate).describe('YYYY-MM-DD');
const accountQuery = z.string().describe('an account name, or part of one');

const balancesArgs = z.object({ as_of: optional(date), account: optional(accountQuery) });
const netWorthArgs = z.object({ as_of: optional(date) });
const incomeArgs = z.object({
  period: optional(z.enum(PERIODS)),
  start_date: optional(date),
  end_date: optional(date),
});
const recentEntriesArgs = z.object({
  limit: optional(z.number().int().describe('at most 50, default 10')),
  account: optional(accountQuery),
  start_date: optional(date),
  end_date: optional(date),
});
const reconciliationArgs = z.object({ account: optional(accountQuery) });
const budgetArgs = z.object({
  month: optional(z.string().describe('YYYY-MM, default this month')),
  account: optional(z.string().describe('only budget lines whose account name contains this')),
  days: optional(
    z.number().int().describe(`upcoming bills over this many days from today, default 14, at most ${MAX_BILL_DAYS}`),
  ),
});

const investmentArgs = z.object({
  symbol: optional(z.string().describe('one security’s symbol, such as VTI')),
  period: optional(z.enum(PERIODS)),
  start_date: optional(date),
  end_date: optional(date),
});

function dateRange(args: z.output<typeof incomeArgs>): { start: string; end: string } {
  if (args.period) return periodRange(args.period);
  const end = args.end_date ?? localToday();
  const start = args.start_date ?? startOfMonth(end);
  return start <= end ? { start, end } : { start: end, end: start };
}

/** The tree's nodes in depth-first order, each named by its path (`Food > Dining`): a loop over a stack, not a recursion. */
function flatten(
  nodes: readonly TreeNode[],
  currency: string,
): { account: string; currency: string; amount: string }[] {
  const out: { account: string; currency: string; amount: string }[] = [];
  const stack = [...nodes].reverse().map((node) => ({ node, prefix: '' }));
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { node, prefix } = next;
    out.push({ account: prefix + node.name, currency, amount: node.total });
    for (let i = node.children.length - 1; i >= 0; i--)
      stack.push({ node: node.children[i]!, prefix: `${prefix}${node.name} > ` });
  }
  return out;
}

export function getBalances(db: LedgerDb, args: z.output<typeof balancesArgs>) {
  const asOf = args.as_of ?? localToday();
  let rows = balancesAsOf(db, asOf);
  if (args.account?.trim()) {
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

export function getNetWorth(db: LedgerDb, args: z.output<typeof netWorthArgs>) {
  const sheet = balanceSheet(db, args.as_of, homeIfMixed(db));
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

export function getIncomeAndSpending(db: LedgerDb, args: z.output<typeof incomeArgs>) {
  const { start, end } = dateRange(args);
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

function getRecentEntries(db: LedgerDb, args: z.output<typeof recentEntriesArgs>) {
  const limit = args.limit === undefined ? 10 : Math.min(Math.max(args.limit, 1), 50);
  let accountId: string | undefined;
  if (args.account?.trim()) {
    const found = findAccounts(allAccounts(db), args.account);
    if (found.length === 0) return { error: `no account matches "${args.account}"` };
    accountId = found[0]!.id;
  }
  const page = listEntryPage(db, {
    status: 'posted',
    account_id: accountId,
    start_date: args.start_date,
    end_date: args.end_date,
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

export function getReconciliationStatus(db: LedgerDb, args: z.output<typeof reconciliationArgs>) {
  let accountId: string | undefined;
  if (args.account?.trim()) {
    const found = findAccounts(allAccounts(db), args.account);
    if (found.length === 0) return { error: `no account matches "${args.account}"` };
    accountId = found[0]!.id;
  }
  const s = reconciliationStats(db, { account_id: accountId });
  return {
    total_transactions: s.total_transactions,
    matched_to_entries: s.matched,
    pending_review: s.pending_review,
    unmatched: s.unmatched,
    match_rate_percent: s.match_rate,
    by_account: s.by_account.map((a) => ({
      account_name: a.account_name,
      matched_to_entries: a.matched,
      pending_review: a.pending,
      unmatched: a.unmatched,
      reconciled_to_bank_balance_through: a.reconciled_through,
    })),
  };
}

/** Holdings at the latest price and the gains realised over a period (default this year), optionally of one symbol. */
function getInvestments(db: LedgerDb, args: z.output<typeof investmentArgs>) {
  const range = args.period || args.start_date || args.end_date ? dateRange(args) : periodRange('this_year');
  const symbol = args.symbol?.trim().toUpperCase() || undefined;
  const held = holdingsReport(db, undefined).items.filter((h) => !symbol || h.symbol === symbol);
  return {
    holdings: held.map((h) => ({
      account: h.account_name,
      symbol: h.symbol,
      currency: h.currency,
      units: h.units,
      cost_basis: h.cost_basis,
      price: h.price,
      price_date: h.price_date,
      market_value: h.market_value,
      unrealized_gain: h.unrealized_gain,
      return_percent: h.return_percent,
    })),
    realized: { start: range.start, end: range.end, ...realizedGains(db, range.start, range.end, symbol) },
  };
}

interface Tool {
  definition: ToolDefinition;
  run(db: LedgerDb, args: unknown): unknown;
}

/** A tool: what the model is told (its arguments as JSON Schema, from their zod schema) and what it runs. */
function tool<A>(
  name: string,
  description: string,
  args: z.ZodType<A>,
  run: (db: LedgerDb, args: A) => unknown,
): [string, Tool] {
  // As the model reads it: the arguments a call may send (io: input), without the $schema line.
  const { $schema: _, ...parameters } = z.toJSONSchema(args, {
    io: 'input',
    // an integer argument's safe-integer bounds are JavaScript's, not the tool's
    override: ({ jsonSchema }) => {
      if (jsonSchema.type === 'integer' && jsonSchema.maximum === Number.MAX_SAFE_INTEGER) {
        delete jsonSchema.minimum;
        delete jsonSchema.maximum;
      }
    },
  });
  return [
    name,
    {
      definition: { type: 'function', function: { name, description, parameters: parameters as ToolParameters } },
      // every field falls back to undefined, so only a non-object fails: it is read as no arguments
      run: (db, raw) => run(db, args.parse(raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw : {})),
    },
  ];
}

const TOOLS = new Map<string, Tool>([
  tool(
    'get_balances',
    'Balances of the user’s accounts as of a date (default today), signed in each account’s normal direction. Optionally only accounts whose name matches `account`.',
    balancesArgs,
    getBalances,
  ),
  tool(
    'get_net_worth',
    'Total assets, liabilities and net worth per currency as of a date (default today); with more than one currency, also in the home currency (`in_home_currency`, converted at that date’s rates, naming any missing rate).',
    netWorthArgs,
    getNetWorth,
  ),
  tool(
    'get_income_and_spending',
    'Income and spending by account over a period: either `period` or start_date/end_date (default: this month to today). Parent accounts include their sub-accounts. With more than one currency, also the totals in the home currency (`in_home_currency`, each entry at its date’s rate).',
    incomeArgs,
    getIncomeAndSpending,
  ),
  tool(
    'get_recent_entries',
    'Recent posted journal entries, newest first, optionally touching one account and within dates.',
    recentEntriesArgs,
    getRecentEntries,
  ),
  tool(
    'get_reconciliation_status',
    'How many bank transactions are matched to journal entries, awaiting review or unmatched, overall or for one account, and the date up to which each account is reconciled to the bank’s balance (null: never).',
    reconciliationArgs,
    getReconciliationStatus,
  ),
  tool('get_budget_and_upcoming_bills', BUDGET_TOOL_DESCRIPTION, budgetArgs, getBudgetAndUpcomingBills),
  tool(
    'get_investments',
    'Securities held (units, cost basis, latest price, market value, unrealised gain, return since purchase) and the gains realised by sales over a period (default this year), short and long term; optionally of one `symbol`.',
    investmentArgs,
    getInvestments,
  ),
]);

/** The tools as the model is told them. */
export const TOOL_DEFINITIONS: ToolDefinition[] = [...TOOLS.values()].map((t) => t.definition);

/** The dates of the period a question named, which a tool call that sends no dates of its own is for. */
export interface AskedPeriod {
  start: string;
  end: string;
  /** Whether the period is over (balances are then read at its end). */
  past: boolean;
}

/**
 * The asked period put into a call's arguments where it sends none of its own. A relative
 * `period` ("this_month") is the model's guess, not the question's words: the named period wins.
 */
function withAskedPeriod(name: string, args: Record<string, unknown>, asked: AskedPeriod): Record<string, unknown> {
  const hasDates = args.start_date !== undefined || args.end_date !== undefined;
  switch (name) {
    case 'get_income_and_spending':
    case 'get_recent_entries':
      return hasDates ? args : { ...args, period: undefined, start_date: asked.start, end_date: asked.end };
    case 'get_balances':
    case 'get_net_worth':
      return args.as_of !== undefined || !asked.past ? args : { ...args, as_of: asked.end };
    case 'get_budget_and_upcoming_bills':
      return args.month !== undefined || asked.start.slice(0, 7) !== asked.end.slice(0, 7)
        ? args
        : { ...args, month: asked.start.slice(0, 7) };
    default:
      return args;
  }
}

/** Runs one tool call; an unknown tool or a failure is answered as data for the model, never thrown. */
export function runTool(db: LedgerDb, name: string, args: Record<string, unknown>, asked?: AskedPeriod): unknown {
  const tool = TOOLS.get(name);
  if (!tool) return { error: `there is no tool named ${name}; the tools are ${[...TOOLS.keys()].join(', ')}` };
  try {
    return tool.run(db, asked ? withAskedPeriod(name, args, asked) : args);
  } catch (error) {
    // A ledger that cannot be read at all (replaced by a restore meanwhile) stops the answer with
    // a readable line; the model would only answer without figures.
    if (error instanceof DomainError && error.code === 'LEDGER_BUSY') throw error;
    return { error: error instanceof Error ? error.message : 'the tool failed' };
  }
}
