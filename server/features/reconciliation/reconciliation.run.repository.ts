import type { LedgerDb } from '../../db/stores.ts';
import type { Minor } from '../../domain/money.ts';
import { BANK_TRANSACTION_COLUMNS, toBankTransaction } from '../statements/statements.queries.ts';
import type { BankTransaction } from '../statements/statements.model.ts';
import { LIVE_SQL, toMatch } from './reconciliation.matches.repository.ts';
import type { Match } from './reconciliation.model.ts';
import { RECONCILED_MATCH_STATUSES } from '../../domain/reconciliation/index.ts';

/** What a reconciliation run reads (its scope's transactions, the candidate entries, refusals) and the run's own record. */

export interface TxnInScope extends BankTransaction {
  pendingMatch: Match | undefined;
}

export interface Scope {
  statementId?: string | undefined;
  accountId?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
}

/** The scope's filters on a query of `bank_transactions as t`. */
export function scoped<T extends { where: Function }>(query: T, scope: Scope): T {
  let q = query as any;
  if (scope.statementId) q = q.where('t.statement_id', '=', scope.statementId);
  if (scope.accountId) q = q.where('t.account_id', '=', scope.accountId);
  if (scope.startDate) q = q.where('t.date', '>=', scope.startDate);
  if (scope.endDate) q = q.where('t.date', '<=', scope.endDate);
  return q as T;
}

/** The scope's bank transactions that are not reconciled yet, each with its pending match if any. */
export function unreconciledTransactions(db: LedgerDb, scope: Scope): TxnInScope[] {
  const rows = db.all(
    scoped(
      db.qb
        .selectFrom('bank_transactions as t')
        .select(BANK_TRANSACTION_COLUMNS)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('reconciliation_matches as m')
                .select('m.id')
                .whereRef('m.bank_transaction_id', '=', 't.id')
                .where('m.status', 'in', [...RECONCILED_MATCH_STATUSES]),
            ),
          ),
        ),
      scope,
    )
      .orderBy('t.date')
      .orderBy('t.seq'),
  );
  const pending = new Map<string, Match>();
  const ids = rows.map((r) => r.id);
  for (let i = 0; i < ids.length; i += 500) {
    for (const m of db.all(
      db.qb
        .selectFrom('reconciliation_matches')
        .selectAll()
        .where('status', '=', 'pending_review')
        .where('bank_transaction_id', 'in', ids.slice(i, i + 500)),
    )) {
      pending.set(m.bank_transaction_id, toMatch(m));
    }
  }
  return rows.map((r) => ({ ...toBankTransaction(r), pendingMatch: pending.get(r.id) }));
}

export interface CandidateRow {
  entryId: string;
  entryDate: string;
  memo: string | null;
  /** debits minus credits of the entry's lines on the account */
  netMinor: Minor;
  /** the accounts of the entry's other lines, one per line, in line order, space-separated ('' for none) */
  counters: string;
  liveMatch: { id: string; status: string; bankTransactionId: string } | undefined;
}

/**
 * Posted entries with a line on the account dated within [from, to] (an index range on
 * journal_lines by account and date), in date order, with their counter accounts and the live
 * match each takes part in, if any. Reversal entries (the system's voids) are never candidates.
 * A run reads every entry of the account over its statement's span (hundreds of thousands in a
 * large ledger) as it walks: the rows are streamed from one statement (grouping in the index's
 * order needs no sort), so that none is kept longer than the walk keeps it. The connection is
 * busy until the walk ends or the iterator is returned.
 */
export function* candidateEntries(db: LedgerDb, accountId: string, from: string, to: string): Generator<CandidateRow> {
  const rows = db.iterateSql<{
    entry_id: string;
    entry_date: string;
    memo: string | null;
    net: bigint;
    counters: string | null;
    match_id: string | null;
    match_status: string | null;
    match_txn: string | null;
  }>(
    `SELECT l.entry_id, l.entry_date, e.memo,
            SUM(CASE l.direction WHEN 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) AS net,
            (SELECT group_concat(c.account_id, ' ') FROM (SELECT c.account_id FROM journal_lines c WHERE c.entry_id = l.entry_id AND c.account_id != l.account_id ORDER BY c.line_no) c) AS counters,
            m.id AS match_id, m.status AS match_status, m.bank_transaction_id AS match_txn
       FROM journal_lines l
       JOIN journal_entries e ON e.id = l.entry_id
       LEFT JOIN reconciliation_matches m ON m.entry_id = e.id AND m.status IN ${LIVE_SQL}
      WHERE l.account_id = ? AND l.entry_date >= ? AND l.entry_date <= ?
        AND e.status = 'posted' AND e.reverses_entry_id IS NULL
      GROUP BY l.entry_date, l.entry_id
      ORDER BY l.entry_date, l.entry_id`,
    accountId,
    from,
    to,
  );
  for (const r of rows) {
    yield {
      entryId: r.entry_id,
      entryDate: r.entry_date,
      memo: r.memo,
      netMinor: r.net,
      counters: r.counters ?? '',
      liveMatch: r.match_id ? { id: r.match_id, status: r.match_status!, bankTransactionId: r.match_txn! } : undefined,
    };
  }
}

/** The entries ever rejected for each of these transactions. */
export function rejectedEntriesByTransaction(db: LedgerDb, txnIds: readonly string[]): Map<string, Set<string>> {
  const rejected = new Map<string, Set<string>>();
  for (let i = 0; i < txnIds.length; i += 500) {
    for (const r of db.all(
      db.qb
        .selectFrom('reconciliation_matches')
        .select(['bank_transaction_id', 'entry_id'])
        .where('status', '=', 'rejected')
        .where('bank_transaction_id', 'in', txnIds.slice(i, i + 500)),
    )) {
      const entries = rejected.get(r.bank_transaction_id) ?? new Set<string>();
      rejected.set(r.bank_transaction_id, entries.add(r.entry_id));
    }
  }
  return rejected;
}

export function insertRun(
  db: LedgerDb,
  run: {
    id: string;
    scope: Scope;
    total: number;
    autoAccepted: number;
    pendingReview: number;
    unmatched: number;
    createdAt: string;
    completedAt: string;
  },
): void {
  db.run(
    db.qb.insertInto('reconciliation_runs').values({
      id: run.id,
      statement_id: run.scope.statementId ?? null,
      account_id: run.scope.accountId ?? null,
      start_date: run.scope.startDate ?? null,
      end_date: run.scope.endDate ?? null,
      total_transactions: BigInt(run.total),
      auto_accepted: BigInt(run.autoAccepted),
      pending_review: BigInt(run.pendingReview),
      unmatched: BigInt(run.unmatched),
      created_at: run.createdAt,
      completed_at: run.completedAt,
    }),
  );
}
