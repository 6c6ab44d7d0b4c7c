import { answer, api, type Answer, type Schemas } from './client.ts';

export type TreeNode = Schemas['AccountTreeNode'];
export type BalanceSheet = Answer<'/api/reports/balance-sheet', 'get'>;
export type IncomeStatement = Answer<'/api/reports/income-statement', 'get'>;
export type NetWorthSeries = Answer<'/api/reports/net-worth', 'get'>;
export type CashFlow = Answer<'/api/reports/cash-flow', 'get'>;
export type TrialBalance = Answer<'/api/reports/trial-balance', 'get'>;

// `convertTo` (a currency) adds `converted` and `missing_rates` to each report (CONTRACT §16).

export function balanceSheetReport(asOf?: string, convertTo?: string): Promise<BalanceSheet> {
  return answer(api.GET('/api/reports/balance-sheet', { params: { query: { as_of: asOf, convert_to: convertTo } } }));
}

export function incomeStatementReport(
  startDate: string,
  endDate: string,
  convertTo?: string,
): Promise<IncomeStatement> {
  return answer(
    api.GET('/api/reports/income-statement', {
      params: { query: { start_date: startDate, end_date: endDate, convert_to: convertTo } },
    }),
  );
}

export function netWorthReport(
  startDate: string,
  endDate: string,
  interval: 'day' | 'week' | 'month' = 'month',
  convertTo?: string,
): Promise<NetWorthSeries> {
  return answer(
    api.GET('/api/reports/net-worth', {
      params: { query: { start_date: startDate, end_date: endDate, interval, convert_to: convertTo } },
    }),
  );
}

export function cashFlowReport(
  startDate: string,
  endDate: string,
  interval: 'day' | 'week' | 'month' = 'month',
  convertTo?: string,
): Promise<CashFlow> {
  return answer(
    api.GET('/api/reports/cash-flow', {
      params: { query: { start_date: startDate, end_date: endDate, interval, convert_to: convertTo } },
    }),
  );
}

export function trialBalanceReport(asOf?: string, convertTo?: string): Promise<TrialBalance> {
  return answer(api.GET('/api/reports/trial-balance', { params: { query: { as_of: asOf, convert_to: convertTo } } }));
}

export type IncomeExpenses = Answer<'/api/reports/income-expenses', 'get'>;

export function incomeExpensesReport(
  startDate: string,
  endDate: string,
  interval: 'day' | 'week' | 'month' = 'month',
  convertTo?: string,
): Promise<IncomeExpenses> {
  return answer(
    api.GET('/api/reports/income-expenses', {
      params: { query: { start_date: startDate, end_date: endDate, interval, convert_to: convertTo } },
    }),
  );
}
