import { answer, api, type Answer, type Body, type Query, type Schemas } from './client.ts';

export type BudgetDto = Schemas['Budget'];
export type BudgetLineDto = Schemas['BudgetLine'];
export type BudgetReportDto = Answer<'/api/reports/budget-vs-actual', 'get'>;
export type PutBudgetInput = Body<'/api/budgets/{month}', 'put'>;
/** Where a month's budget is filled from. */
export type FillSource = Body<'/api/budgets/{month}/fill', 'post'>['from'];

export function getBudget(month: string): Promise<BudgetDto> {
  return answer(api.GET('/api/budgets/{month}', { params: { path: { month } } }));
}

export function putBudget(month: string, input: PutBudgetInput): Promise<BudgetDto> {
  return answer(api.PUT('/api/budgets/{month}', { params: { path: { month } }, body: input }));
}

export function fillBudget(month: string, from: FillSource): Promise<BudgetDto> {
  return answer(api.POST('/api/budgets/{month}/fill', { params: { path: { month } }, body: { from } }));
}

export function budgetReport(query: Query<'/api/reports/budget-vs-actual', 'get'>): Promise<BudgetReportDto> {
  return answer(api.GET('/api/reports/budget-vs-actual', { params: { query } }));
}
