import type { z } from 'zod';
import type {
  balanceSheet,
  cashFlow,
  incomeExpenses,
  incomeStatement,
  netWorthSeries,
  trialBalance,
} from '../../../server/contract/reports.ts';
import { json } from './http.ts';

export type { TreeNode } from '../../../server/contract/reports.ts';
export type BalanceSheet = z.infer<typeof balanceSheet>;
export type IncomeStatement = z.infer<typeof incomeStatement>;
export type NetWorthSeries = z.infer<typeof netWorthSeries>;
export type CashFlow = z.infer<typeof cashFlow>;

// `convertTo` (a currency) adds `converted` and `missing_rates` to each report (CONTRACT §16).

export function balanceSheetReport(asOf?: string, convertTo?: string): Promise<BalanceSheet> {
  return json('GET', '/api/reports/balance-sheet', { query: { as_of: asOf, convert_to: convertTo } });
}

export function incomeStatementReport(
  startDate: string,
  endDate: string,
  convertTo?: string,
): Promise<IncomeStatement> {
  return json('GET', '/api/reports/income-statement', {
    query: { start_date: startDate, end_date: endDate, convert_to: convertTo },
  });
}

export function netWorthReport(
  startDate: string,
  endDate: string,
  interval: 'day' | 'week' | 'month' = 'month',
  convertTo?: string,
): Promise<NetWorthSeries> {
  return json('GET', '/api/reports/net-worth', {
    query: { start_date: startDate, end_date: endDate, interval, convert_to: convertTo },
  });
}

export function cashFlowReport(
  startDate: string,
  endDate: string,
  interval: 'day' | 'week' | 'month' = 'month',
  convertTo?: string,
): Promise<CashFlow> {
  return json('GET', '/api/reports/cash-flow', {
    query: { start_date: startDate, end_date: endDate, interval, convert_to: convertTo },
  });
}

export type TrialBalance = z.infer<typeof trialBalance>;

export function trialBalanceReport(asOf?: string, convertTo?: string): Promise<TrialBalance> {
  return json('GET', '/api/reports/trial-balance', { query: { as_of: asOf, convert_to: convertTo } });
}

export type IncomeExpenses = z.infer<typeof incomeExpenses>;

export function incomeExpensesReport(
  startDate: string,
  endDate: string,
  interval: 'day' | 'week' | 'month' = 'month',
  convertTo?: string,
): Promise<IncomeExpenses> {
  return json('GET', '/api/reports/income-expenses', {
    query: { start_date: startDate, end_date: endDate, interval, convert_to: convertTo },
  });
}
