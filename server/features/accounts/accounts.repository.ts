import type { LedgerSchema } from '../../db/schema.ts';
import type { LedgerDb } from '../../db/stores.ts';
import type { AccountType } from '../../domain/double-entry.ts';
import { nameKey, type Account } from './accounts.model.ts';

type Row = LedgerSchema['accounts'];

function toAccount(row: Row): Account {
  return {
    id: row.id,
    name: row.name,
    type: row.type as AccountType,
    currency: row.currency,
    description: row.description,
    isActive: row.is_active === 1n,
    parentId: row.parent_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function findAccount(db: LedgerDb, id: string): Account | undefined {
  const [row] = db.allSql<Row>('SELECT * FROM accounts WHERE id = ?', id);
  return row && toAccount(row);
}

export function findAccountByName(db: LedgerDb, name: string): Account | undefined {
  const row = db.first(db.qb.selectFrom('accounts').selectAll().where('name_key', '=', nameKey(name)));
  return row && toAccount(row);
}

export function accountsByIds(db: LedgerDb, ids: readonly string[]): Map<string, Account> {
  const unique = [...new Set(ids)];
  const out = new Map<string, Account>();
  // prepared SQL (a few shapes, cached): every posting and every balance reads accounts
  for (let i = 0; i < unique.length; i += 100) {
    const chunk = unique.slice(i, i + 100);
    const rows = db.allSql<Row>(`SELECT * FROM accounts WHERE id IN (${chunk.map(() => '?').join(', ')})`, ...chunk);
    for (const row of rows) out.set(row.id, toAccount(row));
  }
  return out;
}

export function allAccounts(db: LedgerDb): Account[] {
  return db.allSql<Row>('SELECT * FROM accounts ORDER BY name_key, id').map(toAccount);
}

export interface AccountFilter {
  type?: AccountType | undefined;
  isActive?: boolean | undefined;
  parentId?: string | undefined;
}

export function listAccounts(
  db: LedgerDb,
  filter: AccountFilter,
  limit: number,
  offset: number,
): { items: Account[]; total: number } {
  let query = db.qb.selectFrom('accounts');
  if (filter.type) query = query.where('type', '=', filter.type);
  if (filter.isActive !== undefined) query = query.where('is_active', '=', filter.isActive ? 1n : 0n);
  if (filter.parentId) query = query.where('parent_id', '=', filter.parentId);
  const total = db.first(query.select((eb) => eb.fn.countAll<bigint>().as('n')))!.n;
  const rows = db.all(query.selectAll().orderBy('name_key').orderBy('id').limit(limit).offset(offset));
  return { items: rows.map(toAccount), total: Number(total) };
}

export function countAccounts(db: LedgerDb): number {
  return Number(db.first(db.qb.selectFrom('accounts').select((eb) => eb.fn.countAll<bigint>().as('n')))!.n);
}

export function insertAccount(db: LedgerDb, account: Account): void {
  db.run(
    db.qb.insertInto('accounts').values({
      id: account.id,
      name: account.name,
      name_key: nameKey(account.name),
      type: account.type,
      currency: account.currency,
      description: account.description,
      is_active: account.isActive ? 1n : 0n,
      parent_id: account.parentId,
      created_at: account.createdAt,
      updated_at: account.updatedAt,
    }),
  );
}

export function updateAccount(db: LedgerDb, account: Account): void {
  db.run(
    db.qb
      .updateTable('accounts')
      .set({
        name: account.name,
        name_key: nameKey(account.name),
        description: account.description,
        is_active: account.isActive ? 1n : 0n,
        parent_id: account.parentId,
        updated_at: account.updatedAt,
      })
      .where('id', '=', account.id),
  );
}

export function deleteAccount(db: LedgerDb, id: string): void {
  db.run(db.qb.deleteFrom('account_day_totals').where('account_id', '=', id));
  db.run(db.qb.deleteFrom('account_month_totals').where('account_id', '=', id));
  db.run(db.qb.deleteFrom('cash_flow_day_totals').where('account_id', '=', id));
  db.run(db.qb.deleteFrom('cash_flow_month_totals').where('account_id', '=', id));
  db.run(db.qb.deleteFrom('accounts').where('id', '=', id));
}

export function hasLines(db: LedgerDb, id: string): boolean {
  return db.first(db.qb.selectFrom('journal_lines').select('id').where('account_id', '=', id).limit(1)) !== undefined;
}

export function hasChildren(db: LedgerDb, id: string): boolean {
  return db.first(db.qb.selectFrom('accounts').select('id').where('parent_id', '=', id).limit(1)) !== undefined;
}

/**
 * How many levels of sub-accounts hang below an account (0 for none), counting at most `limit` + 1:
 * one walk down the parent index, stopped past the limit whatever the tree holds.
 */
export function levelsBelow(db: LedgerDb, id: string, limit: number): number {
  const [row] = db.allSql<{ levels: bigint | null }>(
    `WITH RECURSIVE below (id, level) AS (
       SELECT id, 1 FROM accounts WHERE parent_id = ?
       UNION ALL
       SELECT a.id, b.level + 1 FROM below b JOIN accounts a ON a.parent_id = b.id WHERE b.level <= ?
     )
     SELECT MAX(level) AS levels FROM below`,
    id,
    limit,
  );
  return Number(row?.levels ?? 0n);
}
