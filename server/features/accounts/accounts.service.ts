import type { LedgerDb } from '../../db/stores.ts';
import { newRowId } from '../../db/ids.ts';
import {
  MAX_ACCOUNTS,
  type AccountDto,
  type CreateAccountInput,
  type ListAccountsQuery,
  type UpdateAccountInput,
} from '../../contract/accounts.ts';
import { ACCOUNT_DEPTH_LIMIT, MAX_ACCOUNT_DEPTH } from '../../domain/account-tree.ts';
import { localToday } from '../../domain/dates.ts';
import { ACCOUNT_TYPES, normalBalance, type AccountType } from '../../domain/double-entry.ts';
import { DomainError } from '../../domain/errors.ts';
import { formatMinor } from '../../domain/money.ts';
import { convertedBalances } from '../prices/rate-book.ts';
import { accountTotalsAsOf } from '../totals/totals.queries.ts';
import {
  allAccounts,
  deleteAccount,
  findAccount,
  findAccountByName,
  hasChildren,
  hasLines,
  countAccounts,
  insertAccount,
  levelsBelow,
  listAccounts,
  updateAccount,
} from './accounts.repository.ts';
import type { Account } from './accounts.model.ts';

function toAccountDto(a: Account): AccountDto {
  return {
    id: a.id,
    name: a.name,
    type: a.type,
    currency: a.currency,
    description: a.description,
    is_active: a.isActive,
    parent_id: a.parentId,
    created_at: a.createdAt,
    updated_at: a.updatedAt,
  };
}

function isAccountType(value: string): value is AccountType {
  return (ACCOUNT_TYPES as readonly string[]).includes(value);
}

export function requireAccount(db: LedgerDb, id: string): Account {
  const account = findAccount(db, id);
  if (!account) throw new DomainError('NOT_FOUND', 'Account not found');
  return account;
}

function assertNameFree(db: LedgerDb, name: string, selfId?: string): void {
  const existing = findAccountByName(db, name);
  if (existing && existing.id !== selfId)
    throw new DomainError('DUPLICATE_NAME', `An account named "${existing.name}" already exists`);
}

/**
 * A parent is the same user's account of the same type, and never the account itself or below it;
 * the tree stays at most MAX_ACCOUNT_DEPTH levels deep, the moved account's own sub-accounts
 * included. The walk up stops at the limit, whatever the ledger holds.
 */
function assertParent(db: LedgerDb, parentId: string, type: AccountType, selfId?: string): void {
  const parent = findAccount(db, parentId);
  if (!parent)
    throw new DomainError('INVALID_PARENT', 'The parent account does not exist', [
      { field: 'parent_id', message: 'no such account' },
    ]);
  if (parent.type !== type) {
    throw new DomainError(
      'INVALID_PARENT',
      `The parent account must be of the same type (${type}), not ${parent.type}`,
      [{ field: 'parent_id', message: 'type differs' }],
    );
  }
  const tooDeep = () =>
    new DomainError('INVALID_PARENT', `The account cannot go there: ${ACCOUNT_DEPTH_LIMIT}`, [
      { field: 'parent_id', message: `would make the tree deeper than ${MAX_ACCOUNT_DEPTH} levels` },
    ]);
  let parentLevel = 0;
  for (
    let cursor: Account | undefined = parent;
    cursor;
    cursor = cursor.parentId ? findAccount(db, cursor.parentId) : undefined
  ) {
    if (cursor.id === selfId) {
      throw new DomainError('INVALID_PARENT', 'An account cannot be placed under itself or one of its sub-accounts', [
        { field: 'parent_id', message: 'would make a cycle' },
      ]);
    }
    if (++parentLevel >= MAX_ACCOUNT_DEPTH) throw tooDeep();
  }
  const below = selfId === undefined ? 0 : levelsBelow(db, selfId, MAX_ACCOUNT_DEPTH);
  if (parentLevel + 1 + below > MAX_ACCOUNT_DEPTH) throw tooDeep();
}

export function createAccount(db: LedgerDb, input: CreateAccountInput): AccountDto {
  if (!isAccountType(input.type)) {
    throw new DomainError(
      'INVALID_TYPE',
      `Invalid account type "${input.type}"; use one of ${ACCOUNT_TYPES.join(', ')}`,
      [{ field: 'type', message: `must be one of ${ACCOUNT_TYPES.join(', ')}` }],
    );
  }
  const type = input.type;
  return db.transaction(() => {
    if (countAccounts(db) >= MAX_ACCOUNTS)
      throw new DomainError('VALIDATION_ERROR', `A ledger holds at most ${MAX_ACCOUNTS} accounts`, [
        { field: 'name', message: `at most ${MAX_ACCOUNTS} accounts` },
      ]);
    assertNameFree(db, input.name);
    if (input.parent_id) assertParent(db, input.parent_id, type);
    const now = new Date().toISOString();
    const account: Account = {
      id: newRowId(),
      name: input.name,
      type,
      currency: input.currency ?? 'USD',
      description: input.description ?? null,
      isActive: true,
      parentId: input.parent_id ?? null,
      createdAt: now,
      updatedAt: now,
    };
    insertAccount(db, account);
    return toAccountDto(account);
  });
}

/**
 * Stores an account another use case made and checked (an import's, a currency's trading account),
 * in that use case's transaction.
 */
export function storeAccount(db: LedgerDb, account: Account): void {
  insertAccount(db, account);
}

/** Closes an account in the caller's transaction (an imported journal's `close` directive). */
export function closeAccount(db: LedgerDb, account: Account, at: string): void {
  updateAccount(db, { ...account, isActive: false, updatedAt: at });
}

export function getAccount(db: LedgerDb, id: string): AccountDto {
  return toAccountDto(requireAccount(db, id));
}

export function listAccountPage(db: LedgerDb, query: ListAccountsQuery) {
  const { items, total } = listAccounts(
    db,
    { type: query.type, isActive: query.is_active, parentId: query.parent_id },
    query.per_page,
    (query.page - 1) * query.per_page,
  );
  return { items: items.map(toAccountDto), total, page: query.page, per_page: query.per_page };
}

export function changeAccount(db: LedgerDb, id: string, input: UpdateAccountInput): AccountDto {
  return db.transaction(() => {
    const account = requireAccount(db, id);
    if (input.name !== undefined) assertNameFree(db, input.name, id);
    if (input.parent_id) assertParent(db, input.parent_id, account.type, id);
    const updated: Account = {
      ...account,
      name: input.name ?? account.name,
      description: input.description === undefined ? account.description : input.description,
      isActive: input.is_active ?? account.isActive,
      parentId: input.parent_id === undefined ? account.parentId : input.parent_id,
      updatedAt: new Date().toISOString(),
    };
    updateAccount(db, updated);
    return toAccountDto(updated);
  });
}

/**
 * What deleting an account asks of the features that point at accounts from their own tables (a
 * statement's account, a schedule's lines): why this account may not go, or null. They are handed
 * to the accounts' routes in server/index.ts, so that this feature reads no other feature's tables.
 */
export type AccountDeleteGuard = (db: LedgerDb, accountId: string) => DomainError | null;

export function removeAccount(db: LedgerDb, id: string, guards: readonly AccountDeleteGuard[]): void {
  db.transaction(() => {
    requireAccount(db, id);
    if (hasLines(db, id))
      throw new DomainError('HAS_ENTRIES', 'The account has journal entries; deactivate it instead');
    if (hasChildren(db, id))
      throw new DomainError('HAS_CHILDREN', 'The account has sub-accounts; move or delete them first');
    for (const guard of guards) {
      const refusal = guard(db, id);
      if (refusal) throw refusal;
    }
    deleteAccount(db, id);
  });
}

export interface AccountBalance {
  account: Account;
  balanceMinor: bigint;
}

/** Every account's balance as of a date, signed in its normal direction. */
export function balancesAsOf(db: LedgerDb, asOf: string): AccountBalance[] {
  const totals = accountTotalsAsOf(db, asOf);
  return allAccounts(db).map((account) => {
    const t = totals.get(account.id);
    return { account, balanceMinor: t ? normalBalance(account.type, t.a, t.b) : 0n };
  });
}

export function accountBalance(db: LedgerDb, id: string, asOf: string = localToday()) {
  const account = requireAccount(db, id);
  const t = accountTotalsAsOf(db, asOf, id).get(id);
  const balance = t ? normalBalance(account.type, t.a, t.b) : 0n;
  return { account_id: id, balance: formatMinor(balance, account.currency), currency: account.currency, as_of: asOf };
}

export function allBalances(db: LedgerDb, asOf: string = localToday(), convertTo?: string) {
  const balances = balancesAsOf(db, asOf);
  const converted = convertTo ? convertedBalances(db, balances, asOf, convertTo) : undefined;
  return {
    balances: balances.map(({ account, balanceMinor }) => ({
      account_id: account.id,
      name: account.name,
      type: account.type,
      balance: formatMinor(balanceMinor, account.currency),
      currency: account.currency,
      parent_id: account.parentId,
      is_active: account.isActive,
      ...(converted && { converted_balance: converted.balanceOf(account) }),
    })),
    as_of: asOf,
    ...(converted && { missing_rates: converted.missing_rates }),
  };
}
