import type { z } from 'zod';
import type { RuleDto, ruleBody } from '../../../server/contract/rules.ts';
import { allPages, json } from './http.ts';

export type { RuleDto };
export type RuleInput = z.input<typeof ruleBody>;
export { ruleDraftFrom, RULE_DESCRIPTION_OPS, type RuleDescriptionOp } from '../../../server/contract/rule-draft.ts';

/** Every rule, in the order they apply (priority high first, then oldest). */
export function allRules(): Promise<RuleDto[]> {
  return allPages<RuleDto>('/api/rules');
}

export function createRule(input: RuleInput): Promise<RuleDto> {
  return json('POST', '/api/rules', { json: input });
}

export function updateRule(id: string, input: RuleInput): Promise<RuleDto> {
  return json('PUT', `/api/rules/${encodeURIComponent(id)}`, { json: input });
}

export function deleteRule(id: string): Promise<void> {
  return json('DELETE', `/api/rules/${encodeURIComponent(id)}`);
}
