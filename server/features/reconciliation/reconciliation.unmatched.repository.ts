import type { LedgerDb } from '../../db/stores.ts';
import type { Minor } from '../../domain/money.ts';
import {
  BANK_TRANSACTION_COLUMNS,
  toBankTransaction,
  type BankTransactionRow,
} from '../statements/statements.queries.ts';
import type { BankTransaction } from '../statements/statements.model.ts';
import { LIVE_SQL } from './reconciliation.matches.repository.ts';

/**
 * The unmatched list's pages, read from the maintained unmatched counts (migration 0005), and the
 * accounts' use that ranks suggestions without history. `accountIds` are the accounts the list
 * covers (those with statements, from the statements feature).
 */

/** A bank transaction `t` with no live match. */
const TXN_HAS_NO_LIVE_MATCH = `NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.bank_transaction_id = t.id AND m.status IN ${LIVE_SQL})`;

/** The accounts as one parameter (a JSON array: any number of them), for `account_id IN ${IN_ACCOUNTS}`. */
const IN_ACCOUNTS = '(SELECT value FROM json_each(?))';

/** The days a page of the unmatched list spans (newest `to`, oldest `from`), and how many rows of day `to` come before it. */
interface UnmatchedSpan {
  from: string;
  to: string;
  skip: number;
}

/**
 * Walks the maintained unmatched counts of the accounts (migration 0005), newest day
 * first, to the days holding rows `offset` and `offset + limit - 1`: one row per account and day,
 * never one per transaction or entry. Also answers the exact total.
 */
function unmatchedSpan(
  db: LedgerDb,
  table: 'unmatched_transaction_day_counts' | 'unmatched_entry_day_counts',
  accounts: string,
  offset: number,
  limit: number,
): { total: number; span: UnmatchedSpan | undefined } {
  const column = table === 'unmatched_transaction_day_counts' ? 'transactions' : 'entries';
  const where = `account_id IN ${IN_ACCOUNTS}`;
  const params = [accounts];
  const total = Number(
    db.allSql<{ n: bigint | null }>(`SELECT SUM(${column}) AS n FROM ${table} WHERE ${where}`, ...params)[0]?.n ?? 0n,
  );
  if (limit <= 0 || offset >= total) return { total, span: undefined };
  let before = 0;
  let to: string | null = null;
  let skip = 0;
  let from = '';
  for (const row of db.iterateSql<{ day: string; n: bigint }>(
    `SELECT day, SUM(${column}) AS n FROM ${table} WHERE ${where} GROUP BY day ORDER BY day DESC`,
    ...params,
  )) {
    const n = Number(row.n);
    if (to === null && before + n > offset) {
      to = row.day;
      skip = offset - before;
    }
    before += n;
    from = row.day;
    if (to !== null && before >= offset + limit) break;
  }
  return { total, span: to === null ? undefined : { from, to, skip } };
}

/** The accounts' bank transactions with no live match, newest first: a page read from the dates the counts give. */
export function unmatchedTransactions(
  db: LedgerDb,
  accountIds: readonly string[],
  limit: number,
  offset: number,
): { items: (BankTransaction & { currency: string })[]; total: number } {
  if (accountIds.length === 0) return { total: 0, items: [] };
  const accounts = JSON.stringify(accountIds);
  const { total, span } = unmatchedSpan(db, 'unmatched_transaction_day_counts', accounts, offset, limit);
  if (!span) return { total, items: [] };
  const rows = db.allSql<BankTransactionRow & { currency: string }>(
    `SELECT ${BANK_TRANSACTION_COLUMNS.join(', ')}, a.currency
       FROM bank_transactions t JOIN accounts a ON a.id = t.account_id
      WHERE t.account_id IN ${IN_ACCOUNTS}
        AND t.date >= ? AND t.date <= ?
        AND ${TXN_HAS_NO_LIVE_MATCH}
      ORDER BY t.date DESC, t.seq DESC LIMIT ? OFFSET ?`,
    accounts,
    span.from,
    span.to,
    limit,
    span.skip,
  );
  return { total, items: rows.map((r) => ({ ...toBankTransaction(r), currency: r.currency })) };
}

/**
 * Posted entries on the accounts with no live match, newest first (an entry with lines on two of
 * them is listed once for each). Reversal entries are never listed.
 */
export function unmatchedEntries(
  db: LedgerDb,
  accountIds: readonly string[],
  limit: number,
  offset: number,
): {
  items: {
    entryId: string;
    accountId: string;
    entryDate: string;
    memo: string | null;
    netMinor: Minor;
    currency: string;
  }[];
  total: number;
} {
  if (accountIds.length === 0) return { total: 0, items: [] };
  const accounts = JSON.stringify(accountIds);
  const { total, span } = unmatchedSpan(db, 'unmatched_entry_day_counts', accounts, offset, limit);
  if (!span) return { total, items: [] };
  // `+e.status`: drive by the lines' (account, date) ranges, not by the status index.
  const rows = db.allSql<{
    entry_id: string;
    account_id: string;
    entry_date: string;
    memo: string | null;
    net: bigint;
    currency: string;
  }>(
    `SELECT e.id AS entry_id, l.account_id, e.entry_date, e.memo, l.currency,
            SUM(CASE l.direction WHEN 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) AS net
       FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
      WHERE l.account_id IN ${IN_ACCOUNTS}
        AND l.entry_date >= ? AND l.entry_date <= ?
        AND +e.status = 'posted' AND e.reverses_entry_id IS NULL
        AND NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.entry_id = e.id AND m.status IN ${LIVE_SQL})
      GROUP BY e.id, l.account_id
      ORDER BY e.entry_date DESC, e.seq DESC, l.account_id
      LIMIT ? OFFSET ?`,
    accounts,
    span.from,
    span.to,
    limit,
    span.skip,
  );
  return {
    total,
    items: rows.map((r) => ({
      entryId: r.entry_id,
      accountId: r.account_id,
      entryDate: r.entry_date,
      memo: r.memo,
      netMinor: r.net,
      currency: r.currency,
    })),
  };
}

/** A page of a statement's transactions with no live match, newest first, and their count (the statement's index range). */
export function unmatchedTransactionsOfStatementPage(
  db: LedgerDb,
  statementId: string,
  limit: number,
  offset: number,
): { items: (BankTransaction & { currency: string })[]; total: number } {
  const unmatched = `t.statement_id = ?
        AND ${TXN_HAS_NO_LIVE_MATCH}`;
  const total = Number(
    db.allSql<{ n: bigint }>(`SELECT COUNT(*) AS n FROM bank_transactions t WHERE ${unmatched}`, statementId)[0]!.n,
  );
  if (limit <= 0 || offset >= total) return { total, items: [] };
  const rows = db.allSql<BankTransactionRow & { currency: string }>(
    `SELECT ${BANK_TRANSACTION_COLUMNS.join(', ')}, a.currency
       FROM bank_transactions t JOIN accounts a ON a.id = t.account_id
      WHERE ${unmatched}
      ORDER BY t.date DESC, t.seq DESC LIMIT ? OFFSET ?`,
    statementId,
    limit,
    offset,
  );
  return { total, items: rows.map((r) => ({ ...toBankTransaction(r), currency: r.currency })) };
}

/** A statement's transactions with no live match, by date (the statement's own index range). */
export function unmatchedTransactionsOfStatement(db: LedgerDb, statementId: string): BankTransaction[] {
  return db
    .allSql<BankTransactionRow>(
      `SELECT ${BANK_TRANSACTION_COLUMNS.join(', ')} FROM bank_transactions t
        WHERE t.statement_id = ?
          AND ${TXN_HAS_NO_LIVE_MATCH}
        ORDER BY t.date, t.seq`,
      statementId,
    )
    .map(toBankTransaction);
}
