import { allPages, answer, api, type Body, type Schemas } from './client.ts';

export type RuleDto = Schemas['Rule'];
export type RuleInput = Body<'/api/rules', 'post'>;
export { ruleDraftFrom, RULE_DESCRIPTION_OPS, type RuleDescriptionOp } from '../../../server/contract/rule-draft.ts';

/** Every rule, in the order they apply (priority high first, then oldest). */
export function allRules(): Promise<RuleDto[]> {
  return allPages((page, per_page) => answer(api.GET('/api/rules', { params: { query: { page, per_page } } })));
}

export function createRule(input: RuleInput): Promise<RuleDto> {
  return answer(api.POST('/api/rules', { body: input }));
}

export function updateRule(id: string, input: RuleInput): Promise<RuleDto> {
  return answer(api.PUT('/api/rules/{id}', { params: { path: { id } }, body: input }));
}

export async function deleteRule(id: string): Promise<void> {
  await api.DELETE('/api/rules/{id}', { params: { path: { id } } });
}
