import type { z } from 'zod';
import type {
  AccountDto,
  CreateAccountInput,
  UpdateAccountInput,
  allBalances,
} from '../../../server/contract/accounts.ts';
import type { RegisterLineDto } from '../../../server/contract/register.ts';
import { allPages, json, type Page } from './http.ts';

export type { AccountDto, RegisterLineDto };
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

export function getAccount(id: string): Promise<AccountDto> {
  return json('GET', `/api/accounts/${encodeURIComponent(id)}`);
}

export function accountBalance(
  id: string,
  asOf?: string,
): Promise<{ account_id: string; balance: string; currency: string; as_of: string }> {
  return json('GET', `/api/accounts/${encodeURIComponent(id)}/balance`, { query: { as_of: asOf } });
}

/** A page of an account's register: its counted lines, newest first, each with the balance after it. */
export function accountRegister(
  id: string,
  query: { start_date?: string | undefined; end_date?: string | undefined; page: number; per_page: number },
): Promise<Page<RegisterLineDto>> {
  return json('GET', `/api/accounts/${encodeURIComponent(id)}/register`, { query: { ...query } });
}
