import type { z } from 'zod';
import type {
  AccountDto,
  CreateAccountInput,
  UpdateAccountInput,
  allBalances,
} from '../../../server/contract/accounts.ts';
import { allPages, json } from './http.ts';

export type { AccountDto };
export type AccountType = AccountDto['type'];
export type AllBalances = z.infer<typeof allBalances>;
export type BalanceRow = AllBalances['balances'][number];

export function allAccounts(): Promise<AccountDto[]> {
  return allPages<AccountDto>('/api/accounts');
}

export function createAccount(input: CreateAccountInput): Promise<AccountDto> {
  return json('POST', '/api/accounts', { json: input });
}

export function updateAccount(id: string, input: UpdateAccountInput): Promise<AccountDto> {
  return json('PUT', `/api/accounts/${encodeURIComponent(id)}`, { json: input });
}

export function deleteAccount(id: string): Promise<void> {
  return json('DELETE', `/api/accounts/${encodeURIComponent(id)}`);
}

export function accountBalances(asOf?: string): Promise<AllBalances> {
  return json('GET', '/api/accounts/balances', { query: { as_of: asOf } });
}
