import {
  asOfReportQuery,
  balanceSheet as balanceSheetSchema,
  cashFlow as cashFlowSchema,
  incomeExpenses as incomeExpensesSchema,
  incomeStatement as incomeStatementSchema,
  netWorthSeries as netWorthSchema,
  rangeQuery,
  seriesQuery,
  trialBalance as trialBalanceSchema,
} from '../../contract/reports.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import {
  balanceSheet,
  cashFlow,
  incomeExpensesSeries,
  incomeStatement,
  netWorthSeries,
  trialBalance,
} from './reports.service.ts';

export function reportRoutes(): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/reports/trial-balance',
      tag: 'reports',
      summary: 'Trial balance per currency as of a date (default today); debit and credit totals are equal',
      auth: true,
      cacheable: true,
      query: asOfReportQuery,
      responses: [{ status: 200, description: 'Trial balance', schema: trialBalanceSchema }],
      handler: ({ session, query }) => ({
        status: 200,
        body: trialBalance(session.ledger, query.as_of, query.convert_to),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/reports/balance-sheet',
      tag: 'reports',
      summary: 'Balance sheet per currency: asset, liability and equity trees, retained earnings and net worth',
      auth: true,
      cacheable: true,
      query: asOfReportQuery,
      responses: [{ status: 200, description: 'Balance sheet', schema: balanceSheetSchema }],
      handler: ({ session, query }) => ({
        status: 200,
        body: balanceSheet(session.ledger, query.as_of, query.convert_to),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/reports/income-statement',
      tag: 'reports',
      summary: 'Income and expense trees per currency over a date range (default: this year to today)',
      auth: true,
      cacheable: true,
      query: rangeQuery,
      responses: [{ status: 200, description: 'Income statement', schema: incomeStatementSchema }],
      handler: ({ session, query }) => ({
        status: 200,
        body: incomeStatement(session.ledger, query.start_date, query.end_date, query.convert_to),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/reports/net-worth',
      tag: 'reports',
      summary: 'Assets, liabilities and net worth per currency at the end of each period',
      auth: true,
      cacheable: true,
      query: seriesQuery,
      responses: [{ status: 200, description: 'Net-worth series', schema: netWorthSchema }],
      handler: ({ session, query }) => ({
        status: 200,
        body: netWorthSeries(session.ledger, query),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/reports/income-expenses',
      tag: 'reports',
      summary:
        'Income, expenses and their difference per currency and period (default by month), from the maintained month totals',
      auth: true,
      cacheable: true,
      query: seriesQuery,
      responses: [{ status: 200, description: 'Income and expenses per period', schema: incomeExpensesSchema }],
      handler: ({ session, query }) => ({
        status: 200,
        body: incomeExpensesSeries(session.ledger, query),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/reports/cash-flow',
      tag: 'reports',
      summary:
        'Money into and out of ASSET accounts per currency and period, by counter account (transfers between assets cancel)',
      auth: true,
      cacheable: true,
      query: seriesQuery,
      responses: [{ status: 200, description: 'Cash flow', schema: cashFlowSchema }],
      handler: ({ session, query }) => ({
        status: 200,
        body: cashFlow(session.ledger, query),
      }),
    }),
  ];
}
