import { sql } from 'kysely';
import type { LedgerSchema } from '../../db/schema.ts';
import type { LedgerDb } from '../../db/stores.ts';
import { sqlWords } from '../../db/sql-text.ts';
import { LIVE_MATCH_STATUSES, RECONCILED_MATCH_STATUSES } from '../../domain/reconciliation/index.ts';
import type { Minor } from '../../domain/money.ts';
import { BANK_TRANSACTION_COLUMNS, toBankTransaction } from '../statements/statements.queries.ts';
import type { BankTransaction } from '../statements/statements.model.ts';
import type { Match } from './reconciliation.model.ts';

/**
 * The match rows every part of reconciliation shares: read one, record one, move one to a new
 * status (optimistically, by version), the live matches of an entry or a bank transaction, and
 * matches as the screens show them (with their bank transaction and entry).
 */

/** The live statuses in raw SQL, as the partial indexes of migration 0002 write them. */
export const LIVE_SQL = sqlWords(LIVE_MATCH_STATUSES);
/** The reconciled statuses in raw SQL. */
export const RECONCILED_SQL = sqlWords(RECONCILED_MATCH_STATUSES);

type MatchRow = LedgerSchema['reconciliation_matches'];

export function toMatch(r: MatchRow): Match {
  return {
    id: r.id,
    runId: r.run_id,
    bankTransactionId: r.bank_transaction_id,
    entryId: r.entry_id,
    status: r.status,
    score: Number(r.score),
    breakdown: {
      amount: Number(r.score_amount),
      date: Number(r.score_date),
      description: Number(r.score_description),
      business: Number(r.score_business),
      history: Number(r.score_history),
    },
    version: Number(r.version),
    supersededById: r.superseded_by_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    acceptedAt: r.accepted_at,
    rejectedAt: r.rejected_at,
    rejectReason: r.reject_reason,
  };
}

export function findMatch(db: LedgerDb, id: string): Match | undefined {
  const row = db.first(db.qb.selectFrom('reconciliation_matches').selectAll().where('id', '=', id));
  return row && toMatch(row);
}

/** One prepared statement, not a built query: a run inserts up to one match per bank transaction. */
export function insertMatch(db: LedgerDb, m: Match): void {
  db.runSql(
    `INSERT INTO reconciliation_matches (id, run_id, bank_transaction_id, entry_id, status, score, score_amount, score_date, score_description,
       score_business, score_history, version, superseded_by_id, created_at, updated_at, accepted_at, rejected_at, reject_reason)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    m.id,
    m.runId,
    m.bankTransactionId,
    m.entryId,
    m.status,
    m.score,
    m.breakdown.amount,
    m.breakdown.date,
    m.breakdown.description,
    m.breakdown.business,
    m.breakdown.history,
    m.version,
    m.supersededById,
    m.createdAt,
    m.updatedAt,
    m.acceptedAt,
    m.rejectedAt,
    m.rejectReason,
  );
}

/** Moves a match to a new status if it is still at `version`; false when someone else got there first. */
export function decide(
  db: LedgerDb,
  id: string,
  version: number,
  fields: {
    status: string;
    at: string;
    acceptedAt?: string;
    rejectedAt?: string;
    rejectReason?: string | null;
    supersededById?: string;
  },
): boolean {
  return (
    db.run(
      db.qb
        .updateTable('reconciliation_matches')
        .set({
          status: fields.status,
          updated_at: fields.at,
          version: sql<bigint>`version + 1`,
          ...(fields.acceptedAt !== undefined ? { accepted_at: fields.acceptedAt } : {}),
          ...(fields.rejectedAt !== undefined
            ? { rejected_at: fields.rejectedAt, reject_reason: fields.rejectReason ?? null }
            : {}),
          ...(fields.supersededById !== undefined ? { superseded_by_id: fields.supersededById } : {}),
        })
        .where('id', '=', id)
        .where('version', '=', BigInt(version)),
    ) === 1
  );
}

/** Points a superseded match at the match that replaced it (which must exist by then). */
export function linkSupersededBy(db: LedgerDb, id: string, supersededById: string): void {
  db.run(db.qb.updateTable('reconciliation_matches').set({ superseded_by_id: supersededById }).where('id', '=', id));
}

/** Live matches an entry takes part in. */
export function liveMatchesOfEntry(db: LedgerDb, entryId: string): Match[] {
  return db
    .all(
      db.qb
        .selectFrom('reconciliation_matches')
        .selectAll()
        .where('entry_id', '=', entryId)
        .where('status', 'in', [...LIVE_MATCH_STATUSES]),
    )
    .map(toMatch);
}

export function liveMatchOfTransaction(db: LedgerDb, txnId: string): Match | undefined {
  const row = db.first(
    db.qb
      .selectFrom('reconciliation_matches')
      .selectAll()
      .where('bank_transaction_id', '=', txnId)
      .where('status', 'in', [...LIVE_MATCH_STATUSES]),
  );
  return row && toMatch(row);
}

export interface MatchView extends Match {
  txn: BankTransaction;
  entry: { id: string; entryDate: string; memo: string | null; netMinor: Minor };
  currency: string;
}

function matchViews(db: LedgerDb, rows: MatchRow[]): MatchView[] {
  const out: MatchView[] = [];
  for (const row of rows) {
    const m = toMatch(row);
    const t = db.first(
      db.qb
        .selectFrom('bank_transactions as t')
        .innerJoin('accounts as a', 'a.id', 't.account_id')
        .select([...BANK_TRANSACTION_COLUMNS, 'a.currency'])
        .where('t.id', '=', m.bankTransactionId),
    )!;
    const e = db.first(
      db.qb
        .selectFrom('journal_entries as e')
        .leftJoin('journal_lines as l', (j) => j.onRef('l.entry_id', '=', 'e.id').on('l.account_id', '=', t.account_id))
        .select([
          'e.id',
          'e.entry_date',
          'e.memo',
          sql<bigint | null>`SUM(CASE l.direction WHEN 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END)`.as('net'),
        ])
        .where('e.id', '=', m.entryId)
        .groupBy('e.id'),
    )!;
    out.push({
      ...m,
      txn: toBankTransaction(t),
      currency: t.currency,
      entry: { id: e.id, entryDate: e.entry_date, memo: e.memo, netMinor: e.net ?? 0n },
    });
  }
  return out;
}

export function matchView(db: LedgerDb, id: string): MatchView | undefined {
  const row = db.first(db.qb.selectFrom('reconciliation_matches').selectAll().where('id', '=', id));
  return row ? matchViews(db, [row])[0] : undefined;
}

/** Matches of a status (pending_review unless given), highest score first, with their total. */
export function pendingMatches(
  db: LedgerDb,
  filter: {
    status?: string | undefined;
    accountId?: string | undefined;
    statementId?: string | undefined;
    minScore: number;
    maxScore: number;
    ids?: readonly string[] | undefined;
  },
  limit: number,
  offset: number,
): { items: MatchView[]; total: number } {
  let query = db.qb
    .selectFrom('reconciliation_matches as m')
    .innerJoin('bank_transactions as t', 't.id', 'm.bank_transaction_id')
    .where('m.status', '=', filter.status ?? 'pending_review')
    .where('m.score', '>=', BigInt(filter.minScore))
    .where('m.score', '<=', BigInt(filter.maxScore));
  if (filter.accountId) query = query.where('t.account_id', '=', filter.accountId);
  if (filter.statementId) query = query.where('t.statement_id', '=', filter.statementId);
  if (filter.ids) query = query.where('m.id', 'in', filter.ids.length > 0 ? [...filter.ids] : ['']);
  const total = db.first(query.select((eb) => eb.fn.countAll<bigint>().as('n')))!.n;
  const rows = db.all(
    query.selectAll('m').orderBy('m.score', 'desc').orderBy('m.created_at').orderBy('m.id').limit(limit).offset(offset),
  );
  return { items: matchViews(db, rows), total: Number(total) };
}
