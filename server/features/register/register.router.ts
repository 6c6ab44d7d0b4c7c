import { errorBody, idParams } from '../../contract/common.ts';
import { registerPage as registerPageSchema, registerQuery } from '../../contract/register.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import { registerPage } from './register.service.ts';

export function registerRoutes(): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/accounts/:id/register',
      tag: 'accounts',
      summary:
        "An account's register: the lines that count in its balance, newest first, each with the balance just after it",
      auth: true,
      cacheable: true,
      params: idParams,
      query: registerQuery,
      responses: [
        { status: 200, description: 'A page of register lines', schema: registerPageSchema },
        { status: 404, description: 'NOT_FOUND', schema: errorBody },
      ],
      handler: ({ session, params, query }) => ({
        status: 200,
        body: registerPage(session.ledger, params.id, query),
      }),
    }),
  ];
}
