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

export function payeeExamples(db: LedgerDb): { description: string; accountId: string }[] {
  return db
    .all(db.qb.selectFrom('payee_examples').select(['description', 'account_id']).orderBy('id'))
    .map((r) => ({ description: r.description, accountId: r.account_id }));
}

/** The examples added after the given id, oldest first, and how many there are in all (one statement: one snapshot). */
export function payeeExamplesAfter(
  db: LedgerDb,
  afterId: number,
): { total: number; added: { id: number; description: string; accountId: string }[] } {
  const rows = db.allSql<{ total: bigint; id: bigint | null; description: string | null; account_id: string | null }>(
    'SELECT (SELECT COUNT(*) FROM payee_examples) AS total, p.id, p.description, p.account_id FROM (SELECT 1) LEFT JOIN payee_examples p ON p.id > ? ORDER BY p.id',
    afterId,
  );
  const added = rows
    .filter((r) => r.id !== null)
    .map((r) => ({ id: Number(r.id), description: r.description!, accountId: r.account_id! }));
  return { total: Number(rows[0]?.total ?? 0n), added };
}

export function addPayeeExample(
  db: LedgerDb,
  description: string,
  accountId: string,
  source: 'accepted_match' | 'created_entry',
  at: string,
): void {
  db.runSql(
    'INSERT INTO payee_examples (description, account_id, source, created_at) VALUES (?, ?, ?, ?)',
    description,
    accountId,
    source,
    at,
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
