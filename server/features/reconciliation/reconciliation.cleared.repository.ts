import type { LedgerDb } from '../../db/stores.ts';
import type { Direction } from '../../domain/double-entry.ts';
import type { Minor } from '../../domain/money.ts';
import { RECONCILED_SQL } from './reconciliation.matches.repository.ts';
import type { Reconciliation } from './reconciliation.model.ts';

/**
 * The cleared state of journal lines and what reconciling to the bank reads: the cleared day
 * totals kept by the triggers of the rules_and_cleared migration (one row per account and day,
 * never every line), the lines still to reconcile (their partial index), and the record of each
 * reconciliation.
 */

type ClearedState = 'uncleared' | 'cleared' | 'reconciled';

/** A line counts (CONTRACT §14) when its entry is posted and reverses nothing. */
const COUNTED =
  "EXISTS (SELECT 1 FROM journal_entries e WHERE e.id = l.entry_id AND e.status = 'posted' AND e.reverses_entry_id IS NULL)";

/** Debits and credits of the account's cleared and reconciled lines dated on or before `day`, and its uncleared and cleared lines. */
export function clearedTotals(
  db: LedgerDb,
  accountId: string,
  day: string,
): { debitMinor: Minor; creditMinor: Minor; uncleared: number; cleared: number } {
  const [row] = db.allSql<{ d: bigint | null; c: bigint | null; u: bigint | null; k: bigint | null }>(
    `SELECT SUM(cleared_debit_minor) AS d, SUM(cleared_credit_minor) AS c, SUM(uncleared_lines) AS u, SUM(cleared_lines) AS k
       FROM account_cleared_day_totals WHERE account_id = ? AND day <= ?`,
    accountId,
    day,
  );
  return {
    debitMinor: row?.d ?? 0n,
    creditMinor: row?.c ?? 0n,
    uncleared: Number(row?.u ?? 0n),
    cleared: Number(row?.k ?? 0n),
  };
}

export interface LineState {
  id: string;
  accountId: string;
  cleared: ClearedState;
  counted: boolean;
  /** a live accepted or automatic match pairs its entry with a bank line of its account */
  matched: boolean;
}

/** A live accepted or automatic match pairs the line's entry with a bank line of the line's account. */
const MATCHED = `EXISTS (SELECT 1 FROM reconciliation_matches m JOIN bank_transactions t ON t.id = m.bank_transaction_id
  WHERE m.entry_id = l.entry_id AND m.status IN ${RECONCILED_SQL} AND t.account_id = l.account_id)`;

export function lineStates(db: LedgerDb, lineIds: readonly string[]): Map<string, LineState> {
  const out = new Map<string, LineState>();
  const unique = [...new Set(lineIds)];
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    const rows = db.allSql<{ id: string; account_id: string; cleared: string; counted: bigint; matched: bigint }>(
      `SELECT l.id, l.account_id, l.cleared, ${COUNTED} AS counted, ${MATCHED} AS matched FROM journal_lines l
        WHERE l.id IN (${chunk.map(() => '?').join(', ')})`,
      ...chunk,
    );
    for (const r of rows)
      out.set(r.id, {
        id: r.id,
        accountId: r.account_id,
        cleared: r.cleared as ClearedState,
        counted: r.counted === 1n,
        matched: r.matched === 1n,
      });
  }
  return out;
}

export function setLinesCleared(db: LedgerDb, lineIds: readonly string[], state: 'cleared' | 'uncleared'): void {
  for (const id of lineIds)
    db.runSql(
      "UPDATE journal_lines SET cleared = ? WHERE id = ? AND cleared <> 'reconciled' AND cleared <> ?",
      state,
      id,
      state,
    );
}

/** Marks the account's cleared lines dated on or before `day` reconciled; how many there were. */
export function reconcileClearedLines(db: LedgerDb, accountId: string, day: string): number {
  // `cleared <> 'reconciled'` lets SQLite walk the partial index of the lines still to reconcile.
  return db.runSql(
    `UPDATE journal_lines SET cleared = 'reconciled'
      WHERE id IN (SELECT l.id FROM journal_lines l
                    WHERE l.account_id = ? AND l.cleared <> 'reconciled' AND l.entry_date <= ? AND l.cleared = 'cleared' AND ${COUNTED})`,
    accountId,
    day,
  );
}

export interface UnreconciledLine {
  lineId: string;
  entryId: string;
  entryDate: string;
  memo: string | null;
  direction: Direction;
  amountMinor: Minor;
  currency: string;
  cleared: ClearedState;
}

/**
 * The account's counted lines not yet reconciled dated on or before `day`, newest first: the
 * page's days found from the cleared day totals' counts (never a count of lines), then read from
 * the partial index of lines still to reconcile.
 */
export function unreconciledLines(
  db: LedgerDb,
  accountId: string,
  day: string,
  limit: number,
  offset: number,
): { items: UnreconciledLine[]; total: number } {
  let total = 0;
  let to: string | null = null;
  let from = '';
  let reached = false;
  let skip = 0;
  for (const row of db.iterateSql<{ day: string; n: bigint }>(
    `SELECT day, uncleared_lines + cleared_lines AS n FROM account_cleared_day_totals
      WHERE account_id = ? AND day <= ? ORDER BY day DESC`,
    accountId,
    day,
  )) {
    const n = Number(row.n);
    if (n === 0) continue;
    if (to === null && total + n > offset) {
      to = row.day;
      skip = offset - total;
    }
    total += n;
    if (to !== null && !reached) {
      from = row.day;
      reached = total >= offset + limit;
    }
  }
  if (to === null) return { items: [], total };
  const rows = db.allSql<{
    line_id: string;
    entry_id: string;
    entry_date: string;
    memo: string | null;
    direction: string;
    amount_minor: bigint;
    currency: string;
    cleared: string;
  }>(
    `SELECT l.id AS line_id, l.entry_id, l.entry_date, e.memo, l.direction, l.amount_minor, l.currency, l.cleared
       FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
      WHERE l.account_id = ? AND l.cleared <> 'reconciled' AND l.entry_date >= ? AND l.entry_date <= ?
        AND e.status = 'posted' AND e.reverses_entry_id IS NULL
      ORDER BY l.entry_date DESC, e.created_at DESC, e.seq DESC, l.line_no LIMIT ? OFFSET ?`,
    accountId,
    from,
    to,
    limit,
    skip,
  );
  return {
    total,
    items: rows.map((r) => ({
      lineId: r.line_id,
      entryId: r.entry_id,
      entryDate: r.entry_date,
      memo: r.memo,
      direction: r.direction as Direction,
      amountMinor: r.amount_minor,
      currency: r.currency,
      cleared: r.cleared as ClearedState,
    })),
  };
}

/** Whether any line of the entry is reconciled. */
export function entryHasReconciledLine(db: LedgerDb, entryId: string): boolean {
  return (
    db.allSql("SELECT 1 FROM journal_lines WHERE entry_id = ? AND cleared = 'reconciled' LIMIT 1", entryId).length > 0
  );
}

/** Whether the entry's lines on an account include a reconciled one. */
export function entryLineReconciledOn(db: LedgerDb, entryId: string, accountId: string): boolean {
  return (
    db.allSql(
      "SELECT 1 FROM journal_lines WHERE entry_id = ? AND +account_id = ? AND cleared = 'reconciled' LIMIT 1",
      entryId,
      accountId,
    ).length > 0
  );
}

export function insertReconciliation(db: LedgerDb, r: Reconciliation): void {
  const seq = db.allSql<{ s: bigint | null }>('SELECT MAX(seq) AS s FROM bank_reconciliations')[0]!.s ?? 0n;
  db.runSql(
    `INSERT INTO bank_reconciliations (id, seq, account_id, statement_date, statement_balance_minor, line_count, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    r.id,
    seq + 1n,
    r.accountId,
    r.statementDate,
    r.statementBalanceMinor,
    r.lineCount,
    r.createdAt,
  );
}

/** The statement date of the account's last reconciliation (its index), or null. */
export function lastReconciledDate(db: LedgerDb, accountId: string): string | null {
  const [row] = db.allSql<{ statement_date: string }>(
    'SELECT statement_date FROM bank_reconciliations WHERE account_id = ? ORDER BY seq DESC LIMIT 1',
    accountId,
  );
  return row?.statement_date ?? null;
}

/** The account's reconciliations, newest first (its index). */
export function listReconciliations(
  db: LedgerDb,
  accountId: string,
  limit: number,
  offset: number,
): { items: Reconciliation[]; total: number } {
  const total = Number(
    db.allSql<{ n: bigint }>('SELECT COUNT(*) AS n FROM bank_reconciliations WHERE account_id = ?', accountId)[0]!.n,
  );
  const rows = db.allSql<{
    id: string;
    account_id: string;
    statement_date: string;
    statement_balance_minor: bigint;
    line_count: bigint;
    created_at: string;
  }>(
    'SELECT id, account_id, statement_date, statement_balance_minor, line_count, created_at FROM bank_reconciliations WHERE account_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?',
    accountId,
    limit,
    offset,
  );
  return {
    total,
    items: rows.map((r) => ({
      id: r.id,
      accountId: r.account_id,
      statementDate: r.statement_date,
      statementBalanceMinor: r.statement_balance_minor,
      lineCount: Number(r.line_count),
      createdAt: r.created_at,
    })),
  };
}

/** The date of the account's earliest counted line, read from the front of its index; null when it has none. */
export function firstLineDate(db: LedgerDb, accountId: string): string | null {
  const [row] = db.allSql<{ entry_date: string }>(
    `SELECT l.entry_date FROM journal_lines l WHERE l.account_id = ? AND ${COUNTED} ORDER BY l.entry_date LIMIT 1`,
    accountId,
  );
  return row?.entry_date ?? null;
}

/**
 * Whether a counted entry already books between the account and an EQUITY account: its opening
 * balance. The automatic lines of an exchange on the currency trading accounts do not count.
 */
export function hasEquityEntry(db: LedgerDb, accountId: string): boolean {
  const rows = db.allSql<{ one: bigint }>(
    `SELECT 1 AS one FROM accounts a JOIN journal_lines o ON o.account_id = a.id
       JOIN journal_lines l ON l.entry_id = o.entry_id AND l.account_id = ?
      WHERE a.type = 'EQUITY' AND o.automatic = 0 AND ${COUNTED} LIMIT 1`,
    accountId,
  );
  return rows.length > 0;
}
