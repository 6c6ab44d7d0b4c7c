import { allPages, answer, api, type Answer, type Body, type Page, type Query, type Schemas } from './client.ts';

export type AccountDto = Schemas['Account'];
export type RegisterLineDto = Schemas['RegisterLine'];
export type AccountType = AccountDto['type'];
export type AllBalances = Answer<'/api/accounts/balances', 'get'>;
export type BalanceRow = AllBalances['balances'][number];
export type CreateAccountInput = Body<'/api/accounts', 'post'>;
export type UpdateAccountInput = Body<'/api/accounts/{id}', 'put'>;

export function allAccounts(): Promise<AccountDto[]> {
  return allPages((page, per_page) => answer(api.GET('/api/accounts', { params: { query: { page, per_page } } })));
}

export function createAccount(input: CreateAccountInput): Promise<AccountDto> {
  return answer(api.POST('/api/accounts', { body: input }));
}

export function updateAccount(id: string, input: UpdateAccountInput): Promise<AccountDto> {
  return answer(api.PUT('/api/accounts/{id}', { params: { path: { id } }, body: input }));
}

export async function deleteAccount(id: string): Promise<void> {
  await api.DELETE('/api/accounts/{id}', { params: { path: { id } } });
}

export function accountBalances(asOf?: string): Promise<AllBalances> {
  return answer(api.GET('/api/accounts/balances', { params: { query: { as_of: asOf } } }));
}

export function getAccount(id: string): Promise<AccountDto> {
  return answer(api.GET('/api/accounts/{id}', { params: { path: { id } } }));
}

export function accountBalance(id: string, asOf?: string): Promise<Schemas['AccountBalance']> {
  return answer(api.GET('/api/accounts/{id}/balance', { params: { path: { id }, query: { as_of: asOf } } }));
}

/** A page of an account's register: its counted lines, newest first, each with the balance after it. */
export function accountRegister(
  id: string,
  query: Query<'/api/accounts/{id}/register', 'get'>,
): Promise<Page<RegisterLineDto>> {
  return answer(api.GET('/api/accounts/{id}/register', { params: { path: { id }, query } }));
}
