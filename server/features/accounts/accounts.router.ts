import {
  MAX_ACCOUNTS,
  account,
  accountBalance as accountBalanceSchema,
  accountPage,
  allBalances as allBalancesSchema,
  asOfQuery,
  balancesQuery,
  createAccountBody,
  listAccountsQuery,
  updateAccountBody,
} from '../../contract/accounts.ts';
import { errorBody, idParams } from '../../contract/common.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import {
  accountBalance,
  allBalances,
  changeAccount,
  createAccount,
  getAccount,
  listAccountPage,
  removeAccount,
  type AccountDeleteGuard,
} from './accounts.service.ts';

const notFound = { status: 404, description: 'NOT_FOUND', schema: errorBody };

/** `deleteGuards`: what deleting an account asks of the features that point at accounts (see `AccountDeleteGuard`). */
export function accountRoutes(deleteGuards: readonly AccountDeleteGuard[]): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/accounts',
      tag: 'accounts',
      summary: 'List accounts, by name',
      auth: true,
      cacheable: true,
      query: listAccountsQuery,
      responses: [{ status: 200, description: 'A page of accounts', schema: accountPage }],
      handler: ({ session, query }) => ({ status: 200, body: listAccountPage(session.ledger, query) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/accounts',
      tag: 'accounts',
      summary: 'Create an account',
      auth: true,
      body: createAccountBody,
      responses: [
        { status: 201, description: 'The account', schema: account },
        {
          status: 400,
          description: `INVALID_TYPE, DUPLICATE_NAME, INVALID_PARENT, VALIDATION_ERROR (also: the ledger holds ${MAX_ACCOUNTS} accounts already)`,
          schema: errorBody,
        },
      ],
      handler: ({ session, body }) => ({ status: 201, body: createAccount(session.ledger, body) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/accounts/balances',
      tag: 'accounts',
      summary: 'Balances of all accounts as of a date (default today), signed in each account’s normal direction',
      auth: true,
      cacheable: true,
      query: balancesQuery,
      responses: [{ status: 200, description: 'Balances', schema: allBalancesSchema }],
      handler: ({ session, query }) => ({
        status: 200,
        body: allBalances(session.ledger, query.as_of, query.convert_to),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/accounts/:id',
      tag: 'accounts',
      summary: 'One account',
      auth: true,
      cacheable: true,
      params: idParams,
      responses: [{ status: 200, description: 'The account', schema: account }, notFound],
      handler: ({ session, params }) => ({ status: 200, body: getAccount(session.ledger, params.id) }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/accounts/:id',
      tag: 'accounts',
      summary: 'Rename, describe, move, deactivate or reactivate an account (type and currency never change)',
      auth: true,
      params: idParams,
      body: updateAccountBody,
      responses: [{ status: 200, description: 'The updated account', schema: account }, notFound],
      handler: ({ session, params, body }) => ({ status: 200, body: changeAccount(session.ledger, params.id, body) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/accounts/:id',
      tag: 'accounts',
      summary: 'Delete an account that has no entries and no sub-accounts',
      auth: true,
      params: idParams,
      responses: [
        { status: 204, description: 'Deleted' },
        notFound,
        { status: 409, description: 'HAS_ENTRIES or HAS_CHILDREN', schema: errorBody },
      ],
      handler: ({ session, params }) => {
        removeAccount(session.ledger, params.id, deleteGuards);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/accounts/:id/balance',
      tag: 'accounts',
      summary: 'One account’s balance as of a date (default today)',
      auth: true,
      cacheable: true,
      params: idParams,
      query: asOfQuery,
      responses: [{ status: 200, description: 'The balance', schema: accountBalanceSchema }, notFound],
      handler: ({ session, params, query }) => ({
        status: 200,
        body: accountBalance(session.ledger, params.id, query.as_of),
      }),
    }),
  ];
}
