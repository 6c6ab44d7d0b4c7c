import type { z } from 'zod';
import type {
  balanceSheet,
  cashFlow,
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

export function balanceSheetReport(asOf?: string): Promise<BalanceSheet> {
  return json('GET', '/api/reports/balance-sheet', { query: { as_of: asOf } });
}

export function incomeStatementReport(startDate: string, endDate: string): Promise<IncomeStatement> {
  return json('GET', '/api/reports/income-statement', { query: { start_date: startDate, end_date: endDate } });
}

export function netWorthReport(
  startDate: string,
  endDate: string,
  interval: 'day' | 'week' | 'month' = 'month',
): Promise<NetWorthSeries> {
  return json('GET', '/api/reports/net-worth', { query: { start_date: startDate, end_date: endDate, interval } });
}

export function cashFlowReport(
  startDate: string,
  endDate: string,
  interval: 'day' | 'week' | 'month' = 'month',
): Promise<CashFlow> {
  return json('GET', '/api/reports/cash-flow', { query: { start_date: startDate, end_date: endDate, interval } });
}

export type TrialBalance = z.infer<typeof trialBalance>;

export function trialBalanceReport(asOf?: string): Promise<TrialBalance> {
  return json('GET', '/api/reports/trial-balance', { query: { as_of: asOf } });
}
