import type { LedgerDb } from '../../db/stores.ts';
import type { TreeNode } from '../../contract/reports.ts';
import { addDays, localToday, periods, startOfYear, type Interval } from '../../domain/dates.ts';
import { nearestMemberAncestors, placeMembers } from '../../domain/account-tree.ts';
import { normalBalance, type AccountType } from '../../domain/double-entry.ts';
import { DomainError } from '../../domain/errors.ts';
import { formatMinor, type Minor } from '../../domain/money.ts';
import { allAccounts } from '../accounts/accounts.queries.ts';
import type { Account } from '../accounts/accounts.model.ts';
import { unrealizedByAccount } from '../investments/investments.service.ts';
import { sumEachPeriod, sumRange } from '../totals/totals.queries.ts';
import type { Pair } from '../totals/totals.model.ts';
import {
  convertedBalanceSheet,
  convertedCashFlow,
  convertedIncomeExpenses,
  convertedIncomeStatement,
  convertedNetWorth,
  convertedTrialBalance,
} from './reports.converted.ts';
import { incomeExpensesPeriod } from './income-expenses-period.ts';
import { RangeFlows } from './range-flows.ts';
import type { WorthPoint, WorthSide } from './reports.model.ts';

/**
 * Reports per currency (no conversion), from the maintained aggregates: everything ever posted,
 * so a voided entry and its reversal both count, each on its own date.
 */

export const MAX_SERIES_POINTS = 5000;

function currenciesOf(accounts: readonly Account[]): string[] {
  return [...new Set(accounts.map((a) => a.currency))].sort();
}

function balanceOf(account: Account, totals: Map<string, Pair>): Minor {
  const t = totals.get(account.id);
  return t ? normalBalance(account.type, t.a, t.b) : 0n;
}

/**
 * Account trees of one currency and some types, with own and rolled-up balances. An account whose
 * parent is in another currency hangs under its nearest ancestor in this currency, or at the top;
 * one deeper than MAX_ACCOUNT_DEPTH (a ledger made before the limit) under its ancestor at that
 * level (domain/account-tree.ts). Built without recursion: totals roll up from the deepest level.
 */
function trees(
  accounts: readonly Account[],
  currency: string,
  types: readonly AccountType[],
  own: (a: Account) => Minor,
): { roots: TreeNode[]; total: Minor } {
  const isMember = (a: Account) => a.currency === currency && types.includes(a.type);
  const members = accounts.filter(isMember);
  const ancestors = nearestMemberAncestors(accounts, isMember);
  const placement = placeMembers(members.map((a) => ({ id: a.id, parentId: ancestors.get(a.id) ?? null })));
  const totals = new Map<string, Minor>(members.map((a) => [a.id, own(a)]));
  const deepestFirst = [...members].sort((x, y) => placement.get(y.id)!.depth - placement.get(x.id)!.depth);
  for (const account of deepestFirst) {
    const parentId = placement.get(account.id)!.parentId;
    if (parentId !== null) totals.set(parentId, totals.get(parentId)! + totals.get(account.id)!);
  }
  const nodes = new Map<string, TreeNode>();
  for (const account of members) {
    nodes.set(account.id, {
      account_id: account.id,
      name: account.name,
      type: account.type,
      balance: formatMinor(own(account), currency),
      total: formatMinor(totals.get(account.id)!, currency),
      children: [],
    });
  }
  const roots: TreeNode[] = [];
  let total = 0n;
  for (const account of members) {
    const parentId = placement.get(account.id)!.parentId;
    const node = nodes.get(account.id)!;
    if (parentId === null) {
      roots.push(node);
      total += totals.get(account.id)!;
    } else nodes.get(parentId)!.children.push(node);
  }
  return { roots, total };
}

function resolveRange(start: string | undefined, end: string | undefined): { start: string; end: string } {
  const today = localToday();
  const resolvedEnd = end ?? today;
  const resolvedStart = start ?? startOfYear(end ?? today);
  if (resolvedStart > resolvedEnd) {
    throw new DomainError('VALIDATION_ERROR', 'start_date must not be after end_date', [
      { field: 'start_date', message: 'is after end_date' },
    ]);
  }
  return { start: resolvedStart, end: resolvedEnd };
}

export function trialBalance(db: LedgerDb, asOf: string = localToday(), convertTo?: string) {
  const accounts = allAccounts(db);
  const totals = sumRange(db, 'account', null, asOf);
  return {
    as_of: asOf,
    ...(convertTo && convertedTrialBalance(db, asOf, convertTo)),
    currencies: currenciesOf(accounts).map((currency) => {
      let totalDebit = 0n;
      let totalCredit = 0n;
      const rows = [];
      for (const account of accounts) {
        const t = totals.get(account.id);
        if (account.currency !== currency || !t || (t.a === 0n && t.b === 0n)) continue;
        const net = t.a - t.b;
        const debit = net > 0n ? net : 0n;
        const credit = net < 0n ? -net : 0n;
        totalDebit += debit;
        totalCredit += credit;
        rows.push({
          account_id: account.id,
          name: account.name,
          type: account.type,
          debit: formatMinor(debit, currency),
          credit: formatMinor(credit, currency),
        });
      }
      return {
        currency,
        rows,
        total_debit: formatMinor(totalDebit, currency),
        total_credit: formatMinor(totalCredit, currency),
      };
    }),
  };
}

export function balanceSheet(db: LedgerDb, asOf: string = localToday(), convertTo?: string) {
  const accounts = allAccounts(db);
  const totals = sumRange(db, 'account', null, asOf);
  // securities held are at market: each holding account's balance gains its unrealised gain
  const market = unrealizedByAccount(db, asOf);
  const own = (a: Account) => balanceOf(a, totals) + (market.get(a.id) ?? 0n);
  return {
    as_of: asOf,
    ...(convertTo && convertedBalanceSheet(db, asOf, convertTo, market)),
    currencies: currenciesOf(accounts).map((currency) => {
      const assets = trees(accounts, currency, ['ASSET'], own);
      const liabilities = trees(accounts, currency, ['LIABILITY'], own);
      const equity = trees(accounts, currency, ['EQUITY'], own);
      const income = trees(accounts, currency, ['INCOME'], own).total;
      const expenses = trees(accounts, currency, ['EXPENSE'], own).total;
      const retained = income - expenses;
      const held = accounts.filter((a) => a.currency === currency && market.has(a.id));
      const gains = held.reduce((sum, a) => sum + market.get(a.id)!, 0n);
      return {
        currency,
        assets: assets.roots,
        liabilities: liabilities.roots,
        equity: equity.roots,
        retained_earnings: formatMinor(retained, currency),
        ...(held.length > 0 && { unrealized_gains: formatMinor(gains, currency) }),
        total_assets: formatMinor(assets.total, currency),
        total_liabilities: formatMinor(liabilities.total, currency),
        total_equity: formatMinor(equity.total, currency),
        total_equity_and_earnings: formatMinor(equity.total + retained + gains, currency),
        total_liabilities_and_equity: formatMinor(liabilities.total + equity.total + retained + gains, currency),
        net_worth: formatMinor(assets.total - liabilities.total, currency),
      };
    }),
  };
}

export function incomeStatement(db: LedgerDb, startDate?: string, endDate?: string, convertTo?: string) {
  const { start, end } = resolveRange(startDate, endDate);
  const accounts = allAccounts(db);
  const totals = sumRange(db, 'account', start, end);
  const own = (a: Account) => balanceOf(a, totals);
  return {
    start_date: start,
    end_date: end,
    ...(convertTo && convertedIncomeStatement(db, start, end, convertTo)),
    currencies: currenciesOf(accounts).map((currency) => {
      const income = trees(accounts, currency, ['INCOME'], own);
      const expenses = trees(accounts, currency, ['EXPENSE'], own);
      return {
        currency,
        income: income.roots,
        expenses: expenses.roots,
        total_income: formatMinor(income.total, currency),
        total_expenses: formatMinor(expenses.total, currency),
        net_income: formatMinor(income.total - expenses.total, currency),
      };
    }),
  };
}

/** What a series report is asked: a range (the year to date where left out), an interval, a currency to convert to. */
export interface SeriesQuery {
  start_date?: string | undefined;
  end_date?: string | undefined;
  interval: Interval;
  convert_to?: string | undefined;
}

/** A series' resolved range, its periods, and the head of its answer. */
function seriesRange(query: SeriesQuery) {
  const { start, end } = resolveRange(query.start_date, query.end_date);
  const spans = periods(start, end, query.interval, MAX_SERIES_POINTS);
  return { start, end, spans, head: { start_date: start, end_date: end, interval: query.interval } };
}

/**
 * The balances at each period end, in one walk: the opening sums, then each period's sums (read at
 * once, sumEachPeriod) added to the running balances of the accounts and of their currency.
 */
function worthPoints(
  db: LedgerDb,
  accounts: readonly Account[],
  start: string,
  spans: readonly { start: string; end: string }[],
): WorthPoint[] {
  const running = new Map(currenciesOf(accounts).map((c) => [c, { assets: noWorth(), liabilities: noWorth() }]));
  const byId = new Map(
    accounts.map((a) => {
      const sides = running.get(a.currency)!;
      return [a.id, { account: a, side: a.type === 'ASSET' ? sides.assets : sides.liabilities, balance: 0n }];
    }),
  );
  const apply = (sums: Map<string, Pair>) => {
    for (const [id, pair] of sums) {
      const state = byId.get(id);
      if (!state) continue;
      const balance = state.balance + normalBalance(state.account.type, pair.a, pair.b);
      state.side.sum += balance - state.balance;
      state.side.nonZero += Number(balance !== 0n) - Number(state.balance !== 0n);
      state.balance = balance;
    }
  };
  apply(sumRange(db, 'account', null, addDays(start, -1)));
  const perPeriod = sumEachPeriod(db, 'account', spans, [...byId.keys()]);
  return spans.map((span, i) => {
    apply(perPeriod[i]!);
    const byCurrency = new Map<string, { assets: WorthSide; liabilities: WorthSide }>();
    for (const [currency, { assets, liabilities }] of running)
      byCurrency.set(currency, { assets: { ...assets }, liabilities: { ...liabilities } });
    return { date: span.end, byCurrency };
  });
}

function noWorth(): WorthSide {
  return { sum: 0n, nonZero: 0 };
}

export function netWorthSeries(db: LedgerDb, query: SeriesQuery) {
  const { start, end, spans, head } = seriesRange(query);
  const convertTo = query.convert_to;
  const accounts = allAccounts(db).filter((a) => a.type === 'ASSET' || a.type === 'LIABILITY');
  const points = worthPoints(db, accounts, start, spans);
  return {
    ...head,
    ...(convertTo && convertedNetWorth(db, points, end, convertTo)),
    currencies: currenciesOf(accounts).map((currency) => ({
      currency,
      series: points.map(({ date, byCurrency }) => {
        const { assets, liabilities } = byCurrency.get(currency)!;
        return {
          date,
          assets: formatMinor(assets.sum, currency),
          liabilities: formatMinor(liabilities.sum, currency),
          net_worth: formatMinor(assets.sum - liabilities.sum, currency),
        };
      }),
    })),
  };
}

export function cashFlow(db: LedgerDb, query: SeriesQuery) {
  const { end, spans, head } = seriesRange(query);
  const convertTo = query.convert_to;
  const accounts = allAccounts(db);
  const sums = spans.map((span) => ({ span, flows: sumRange(db, 'cash_flow', span.start, span.end) }));
  return {
    ...head,
    ...(convertTo && convertedCashFlow(db, spans, end, convertTo)),
    currencies: currenciesOf(accounts).map((currency) => {
      const overRange = new RangeFlows();
      const periodsOut = sums.map(({ span, flows }) => {
        let moneyIn = 0n;
        let moneyOut = 0n;
        const byAccount = [];
        for (const account of accounts) {
          const flow = flows.get(account.id);
          if (account.currency !== currency || !flow || (flow.a === 0n && flow.b === 0n)) continue;
          moneyIn += flow.a;
          moneyOut += flow.b;
          overRange.add(account, flow.a, flow.b);
          byAccount.push({
            account_id: account.id,
            name: account.name,
            type: account.type,
            money_in: formatMinor(flow.a, currency),
            money_out: formatMinor(flow.b, currency),
          });
        }
        return {
          start_date: span.start,
          end_date: span.end,
          money_in: formatMinor(moneyIn, currency),
          money_out: formatMinor(moneyOut, currency),
          net: formatMinor(moneyIn - moneyOut, currency),
          by_account: byAccount,
        };
      });
      return {
        currency,
        periods: periodsOut,
        ...overRange.summary(currency),
      };
    }),
  };
}

/**
 * Income and expenses per currency and period, from the maintained per-account month totals (day
 * totals for the days of a period that are not a whole month): each period's figures are the
 * income statement's totals over that period, and the totals the sums of the periods'.
 */
export function incomeExpensesSeries(db: LedgerDb, query: SeriesQuery) {
  const { end, spans, head } = seriesRange(query);
  const convertTo = query.convert_to;
  const accounts = allAccounts(db).filter((a) => a.type === 'INCOME' || a.type === 'EXPENSE');
  const perPeriod = sumEachPeriod(
    db,
    'account',
    spans,
    accounts.map((a) => a.id),
  );
  const byId = new Map(accounts.map((a) => [a.id, a]));
  return {
    ...head,
    ...(convertTo && convertedIncomeExpenses(db, spans, end, convertTo)),
    currencies: currenciesOf(accounts).map((currency) => {
      let [totalIncome, totalExpenses] = [0n, 0n];
      const periodsOut = spans.map((span, i) => {
        let [income, expenses] = [0n, 0n];
        for (const [id, pair] of perPeriod[i]!) {
          const account = byId.get(id)!;
          if (account.currency !== currency) continue;
          if (account.type === 'INCOME') income += normalBalance('INCOME', pair.a, pair.b);
          else expenses += normalBalance('EXPENSE', pair.a, pair.b);
        }
        totalIncome += income;
        totalExpenses += expenses;
        return incomeExpensesPeriod(span, income, expenses, currency);
      });
      return {
        currency,
        periods: periodsOut,
        total_income: formatMinor(totalIncome, currency),
        total_expenses: formatMinor(totalExpenses, currency),
        net_income: formatMinor(totalIncome - totalExpenses, currency),
      };
    }),
  };
}
