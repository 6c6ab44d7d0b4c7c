import type { BudgetDto, BudgetReportDto, FillSource, PutBudgetInput } from '../../../server/contract/budgets.ts';
import { json } from './http.ts';

export type { BudgetDto, BudgetReportDto, FillSource };
export type BudgetLineDto = BudgetDto['lines'][number];

export function getBudget(month: string): Promise<BudgetDto> {
  return json('GET', `/api/budgets/${encodeURIComponent(month)}`);
}

export function putBudget(month: string, input: PutBudgetInput): Promise<BudgetDto> {
  return json('PUT', `/api/budgets/${encodeURIComponent(month)}`, { json: input });
}

export function fillBudget(month: string, from: FillSource): Promise<BudgetDto> {
  return json('POST', `/api/budgets/${encodeURIComponent(month)}/fill`, { json: { from } });
}

export function budgetReport(query: { month?: string; year?: string }): Promise<BudgetReportDto> {
  return json('GET', '/api/reports/budget-vs-actual', { query });
}
