import { errorBody } from '../../contract/common.ts';
import {
  budget,
  budgetReport as budgetReportSchema,
  budgetReportQuery,
  fillBudgetBody,
  monthParams,
  putBudgetBody,
} from '../../contract/budgets.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import { budgetReport, fillBudget, getBudget, putBudget } from './budgets.service.ts';

const invalid = { status: 400, description: 'VALIDATION_ERROR, INVALID_ACCOUNT', schema: errorBody };

export function budgetRoutes(): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/budgets/:month',
      tag: 'budgets',
      summary:
        "A month's budget: per account budgeted, actual (posted activity of the month, sub-accounts included), remaining, carry-over; totals per currency",
      auth: true,
      cacheable: true,
      params: monthParams,
      responses: [
        { status: 200, description: 'The budget (no lines for a month never budgeted)', schema: budget },
        { status: 400, description: 'VALIDATION_ERROR (not a month YYYY-MM)', schema: errorBody },
      ],
      handler: ({ session, params }) => ({ status: 200, body: getBudget(session.ledger, params.month) }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/budgets/:month',
      tag: 'budgets',
      summary: "Replace a month's budget: an amount per EXPENSE or INCOME account, optionally carried over",
      auth: true,
      params: monthParams,
      body: putBudgetBody,
      responses: [{ status: 200, description: 'The budget as GET answers it', schema: budget }, invalid],
      handler: ({ session, params, body }) => ({ status: 200, body: putBudget(session.ledger, params.month, body) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/budgets/:month/fill',
      tag: 'budgets',
      summary:
        "Fill a month from the month before's budget (previous_month) or the average of the three months before's actuals (average_actuals); other lines stay",
      auth: true,
      params: monthParams,
      body: fillBudgetBody,
      responses: [
        { status: 200, description: 'The budget as GET answers it', schema: budget },
        { status: 400, description: 'VALIDATION_ERROR (also: the source is empty)', schema: errorBody },
      ],
      handler: ({ session, params, body }) => ({
        status: 200,
        body: fillBudget(session.ledger, params.month, body.from),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/reports/budget-vs-actual',
      tag: 'reports',
      summary: 'Budget against actual per account and month, for a month or a calendar year (default: this month)',
      auth: true,
      cacheable: true,
      query: budgetReportQuery,
      responses: [
        { status: 200, description: 'Budget against actual', schema: budgetReportSchema },
        { status: 400, description: 'VALIDATION_ERROR', schema: errorBody },
      ],
      handler: ({ session, query }) => ({ status: 200, body: budgetReport(session.ledger, query) }),
    }),
  ];
}
