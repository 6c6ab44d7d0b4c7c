import { errorBody, idParams } from '../../contract/common.ts';
import { listRulesQuery, MAX_RULES, rule, ruleBody, rulePage } from '../../contract/rules.ts';
import { MAX_REPEATS, MAX_RULE_PROGRAM, RULE_CALIBRATION_MS } from '../../domain/reconciliation/index.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import { createRule, getRule, listRulePage, removeRule, replaceRuleById } from './rules.service.ts';

const notFound = { status: 404, description: 'NOT_FOUND', schema: errorBody };
const invalid = {
  status: 400,
  description:
    `VALIDATION_ERROR (no condition; a regex RE2 cannot read, or too costly to match: repeats adding up past ${MAX_REPEATS}, ` +
    `a program of more than ${MAX_RULE_PROGRAM} instructions, a calibration match over ${RULE_CALIBRATION_MS} ms; amount_min above amount_max; ` +
    `the ledger's ${MAX_RULES} rules), INVALID_ACCOUNT`,
  schema: errorBody,
};

export function ruleRoutes(): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/rules',
      tag: 'rules',
      summary: 'Categorisation rules, in the order they apply: priority high first, then oldest first',
      auth: true,
      cacheable: true,
      query: listRulesQuery,
      responses: [{ status: 200, description: 'A page of rules', schema: rulePage }],
      handler: ({ session, query }) => ({ status: 200, body: listRulePage(session.ledger, query) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/rules',
      tag: 'rules',
      summary: 'Create a rule that books matching bank lines against an account',
      auth: true,
      body: ruleBody,
      responses: [{ status: 201, description: 'The rule', schema: rule }, invalid],
      handler: ({ session, body }) => ({ status: 201, body: createRule(session.ledger, body) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/rules/:id',
      tag: 'rules',
      summary: 'One rule',
      auth: true,
      cacheable: true,
      params: idParams,
      responses: [{ status: 200, description: 'The rule', schema: rule }, notFound],
      handler: ({ session, params }) => ({ status: 200, body: getRule(session.ledger, params.id) }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/rules/:id',
      tag: 'rules',
      summary: 'Replace a rule (the whole rule, as created)',
      auth: true,
      params: idParams,
      body: ruleBody,
      responses: [{ status: 200, description: 'The rule', schema: rule }, invalid, notFound],
      handler: ({ session, params, body }) => ({
        status: 200,
        body: replaceRuleById(session.ledger, params.id, body),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/rules/:id',
      tag: 'rules',
      summary: 'Delete a rule',
      auth: true,
      params: idParams,
      responses: [{ status: 204, description: 'Deleted' }, notFound],
      handler: ({ session, params }) => {
        removeRule(session.ledger, params.id);
        return { status: 204 };
      },
    }),
  ];
}
