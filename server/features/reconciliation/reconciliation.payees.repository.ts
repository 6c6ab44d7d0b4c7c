import type { LedgerDb } from '../../db/stores.ts';
import type { AccountType } from '../../domain/double-entry.ts';

/** What the payee model learns from: the stored examples, and the counter accounts of reconciled entries. */

/**
 * The other lines' accounts of each entry (its counter accounts as seen from `accountId`), one
 * object per account, shared by every entry it appears in. (A run reads them with its candidates.)
 */
export function counterAccounts(
  db: LedgerDb,
  entryIds: readonly string[],
  accountId: string,
): Map<string, { id: string; type: AccountType }[]> {
  const out = new Map<string, { id: string; type: AccountType }[]>();
  const accounts = new Map<string, { id: string; type: AccountType }>();
  for (let i = 0; i < entryIds.length; i += 500) {
    const chunk = entryIds.slice(i, i + 500);
    const rows = db.allSql<{ entry_id: string; id: string; type: string }>(
      `SELECT l.entry_id, a.id, a.type FROM journal_lines l JOIN accounts a ON a.id = l.account_id
        WHERE l.entry_id IN (${chunk.map(() => '?').join(', ')}) AND l.account_id != ?`,
      ...chunk,
      accountId,
    );
    for (const r of rows) {
      let account = accounts.get(r.id);
      if (!account) accounts.set(r.id, (account = { id: r.id, type: r.type as AccountType }));
      const list = out.get(r.entry_id);
      if (list) list.push(account);
      else out.set(r.entry_id, [account]);
    }
  }
  return out;
}

/** A booking as the payee model learns it. */
export interface StoredPayeeExample {
  id: number;
  description: string;
  accountId: string;
  type: 'debit' | 'credit' | undefined;
  amountMinor: bigint | undefined;
}

/** What a booking of a bank line adds besides its description and account: the line's direction and amount. */
export interface PayeeExampleContext {
  type: 'debit' | 'credit';
  amountMinor: bigint;
}

/** The examples added after the given id, oldest first, and how many there are in all (one statement: one snapshot). */
export function payeeExamplesAfter(db: LedgerDb, afterId: number): { total: number; added: StoredPayeeExample[] } {
  const rows = db.allSql<{
    total: bigint;
    id: bigint | null;
    description: string | null;
    account_id: string | null;
    txn_type: string | null;
    amount_minor: bigint | null;
  }>(
    'SELECT (SELECT COUNT(*) FROM payee_examples) AS total, p.id, p.description, p.account_id, p.txn_type, p.amount_minor FROM (SELECT 1) LEFT JOIN payee_examples p ON p.id > ? ORDER BY p.id',
    afterId,
  );
  const added = rows
    .filter((r) => r.id !== null)
    .map((r): StoredPayeeExample => ({
      id: Number(r.id),
      description: r.description!,
      accountId: r.account_id!,
      type: r.txn_type === 'debit' || r.txn_type === 'credit' ? r.txn_type : undefined,
      amountMinor: r.amount_minor ?? undefined,
    }));
  return { total: Number(rows[0]?.total ?? 0n), added };
}

export function addPayeeExample(
  db: LedgerDb,
  description: string,
  accountId: string,
  source: 'accepted_match' | 'created_entry',
  at: string,
  context: PayeeExampleContext,
): void {
  db.runSql(
    'INSERT INTO payee_examples (description, account_id, source, created_at, txn_type, amount_minor) VALUES (?, ?, ?, ?, ?, ?)',
    description,
    accountId,
    source,
    at,
    context.type,
    context.amountMinor,
  );
}

/** Takes back the latest example of a description going to an account (a match undone). */
export function removePayeeExample(
  db: LedgerDb,
  description: string,
  accountId: string,
  source: 'accepted_match' | 'created_entry',
): void {
  db.runSql(
    `DELETE FROM payee_examples WHERE id = (SELECT MAX(id) FROM payee_examples WHERE account_id = ? AND description = ? AND source = ?)`,
    accountId,
    description,
    source,
  );
}
