import { sql } from 'kysely';
import type { LedgerSchema } from '../../db/schema.ts';
import type { LedgerDb } from '../../db/stores.ts';
import type { AccountType } from '../../domain/double-entry.ts';
import type { ScoreBreakdown } from '../../domain/reconciliation/index.ts';
import type { Minor } from '../../domain/money.ts';
import type { BankTransaction } from '../statements/statements.repository.ts';

export const LIVE = ['auto_accepted', 'accepted', 'pending_review'] as const;
export const RECONCILED = ['auto_accepted', 'accepted'] as const;

export interface Match {
  id: string;
  runId: string | null;
  bankTransactionId: string;
  entryId: string;
  status: string;
  score: number;
  breakdown: ScoreBreakdown;
  version: number;
  supersededById: string | null;
  createdAt: string;
  updatedAt: string;
  acceptedAt: string | null;
  rejectedAt: string | null;
  rejectReason: string | null;
}

type MatchRow = LedgerSchema['reconciliation_matches'];

function toMatch(r: MatchRow): Match {
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

export interface TxnInScope extends BankTransaction {
  pendingMatch: Match | undefined;
}

type TxnRow = {
  id: string;
  statement_id: string;
  account_id: string;
  date: string;
  description: string;
  amount_minor: bigint;
  type: string;
  external_id: string | null;
};

function toTxn(r: TxnRow): BankTransaction {
  return {
    id: r.id,
    statementId: r.statement_id,
    accountId: r.account_id,
    date: r.date,
    description: r.description,
    amountMinor: r.amount_minor,
    type: r.type as 'debit' | 'credit',
    externalId: r.external_id,
  };
}

const TXN_COLUMNS = [
  't.id',
  't.statement_id',
  't.account_id',
  't.date',
  't.description',
  't.amount_minor',
  't.type',
  't.external_id',
] as const;

export function findBankTransaction(db: LedgerDb, id: string): BankTransaction | undefined {
  const row = db.first(db.qb.selectFrom('bank_transactions as t').select(TXN_COLUMNS).where('t.id', '=', id));
  return row && toTxn(row);
}

export interface Scope {
  statementId?: string | undefined;
  accountId?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
}

function scoped<T extends { where: Function }>(query: T, scope: Scope): T {
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
        .select(TXN_COLUMNS)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('reconciliation_matches as m')
                .select('m.id')
                .whereRef('m.bank_transaction_id', '=', 't.id')
                .where('m.status', 'in', [...RECONCILED]),
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
  return rows.map((r) => ({ ...toTxn(r), pendingMatch: pending.get(r.id) }));
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
       LEFT JOIN reconciliation_matches m ON m.entry_id = e.id AND m.status IN ('auto_accepted', 'accepted', 'pending_review')
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

/** `txnId entryId` of every pair ever rejected among these transactions. */
export function rejectedPairs(db: LedgerDb, txnIds: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < txnIds.length; i += 500) {
    for (const r of db.all(
      db.qb
        .selectFrom('reconciliation_matches')
        .select(['bank_transaction_id', 'entry_id'])
        .where('status', '=', 'rejected')
        .where('bank_transaction_id', 'in', txnIds.slice(i, i + 500)),
    )) {
      out.add(`${r.bank_transaction_id} ${r.entry_id}`);
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

/** Live matches an entry takes part in. */
export function liveMatchesOfEntry(db: LedgerDb, entryId: string): Match[] {
  return db
    .all(
      db.qb
        .selectFrom('reconciliation_matches')
        .selectAll()
        .where('entry_id', '=', entryId)
        .where('status', 'in', [...LIVE]),
    )
    .map(toMatch);
}

export function liveMatchOfTransaction(db: LedgerDb, txnId: string): Match | undefined {
  const row = db.first(
    db.qb
      .selectFrom('reconciliation_matches')
      .selectAll()
      .where('bank_transaction_id', '=', txnId)
      .where('status', 'in', [...LIVE]),
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
        .select([...TXN_COLUMNS, 'a.currency'])
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
      txn: toTxn(t),
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

export function pendingMatches(
  db: LedgerDb,
  filter: { accountId?: string | undefined; minScore: number; maxScore: number; ids?: readonly string[] | undefined },
  limit: number,
  offset: number,
): { items: MatchView[]; total: number } {
  let query = db.qb
    .selectFrom('reconciliation_matches as m')
    .innerJoin('bank_transactions as t', 't.id', 'm.bank_transaction_id')
    .where('m.status', '=', 'pending_review')
    .where('m.score', '>=', BigInt(filter.minScore))
    .where('m.score', '<=', BigInt(filter.maxScore));
  if (filter.accountId) query = query.where('t.account_id', '=', filter.accountId);
  if (filter.ids) query = query.where('m.id', 'in', filter.ids.length > 0 ? [...filter.ids] : ['']);
  const total = db.first(query.select((eb) => eb.fn.countAll<bigint>().as('n')))!.n;
  const rows = db.all(
    query.selectAll('m').orderBy('m.score', 'desc').orderBy('m.created_at').orderBy('m.id').limit(limit).offset(offset),
  );
  return { items: matchViews(db, rows), total: Number(total) };
}

export interface StatusCounts {
  accountId: string;
  accountName: string;
  total: number;
  reconciled: number;
  pending: number;
  scores: number[];
}

/** Per statement account: its bank transactions in scope and the status and score of their live matches. */
export function statusCounts(db: LedgerDb, scope: Scope): StatusCounts[] {
  const rows = db.all(
    scoped(
      db.qb
        .selectFrom('bank_transactions as t')
        .innerJoin('accounts as a', 'a.id', 't.account_id')
        .leftJoin('reconciliation_matches as m', (j) =>
          j.onRef('m.bank_transaction_id', '=', 't.id').on('m.status', 'in', [...LIVE]),
        )
        .select(['t.account_id', 'a.name', 'm.status', 'm.score']),
      scope,
    ),
  );
  const byAccount = new Map<string, StatusCounts>();
  for (const r of rows) {
    const c = byAccount.get(r.account_id) ?? {
      accountId: r.account_id,
      accountName: r.name,
      total: 0,
      reconciled: 0,
      pending: 0,
      scores: [],
    };
    c.total += 1;
    if (r.status === 'accepted' || r.status === 'auto_accepted') c.reconciled += 1;
    if (r.status === 'pending_review') c.pending += 1;
    if (r.score !== null) c.scores.push(Number(r.score));
    byAccount.set(r.account_id, c);
  }
  return [...byAccount.values()].sort((a, b) => a.accountName.localeCompare(b.accountName));
}

const LIVE_SQL = "('auto_accepted', 'accepted', 'pending_review')";

/** The days a page of the unmatched list spans (newest `to`, oldest `from`), and how many rows of day `to` come before it. */
interface UnmatchedSpan {
  from: string;
  to: string;
  skip: number;
}

/**
 * Walks the maintained unmatched counts of the statement accounts (migration 0005), newest day
 * first, to the days holding rows `offset` and `offset + limit - 1`: one row per account and day,
 * never one per transaction or entry. Also answers the exact total.
 */
function unmatchedSpan(
  db: LedgerDb,
  table: 'unmatched_transaction_day_counts' | 'unmatched_entry_day_counts',
  accountId: string | undefined,
  offset: number,
  limit: number,
): { total: number; span: UnmatchedSpan | undefined } {
  const column = table === 'unmatched_transaction_day_counts' ? 'transactions' : 'entries';
  const where = `account_id IN (SELECT account_id FROM statements)${accountId ? ' AND account_id = ?' : ''}`;
  const params = accountId ? [accountId] : [];
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

/** Bank transactions with no live match, newest first: a page read from the dates the counts give. */
export function unmatchedTransactions(
  db: LedgerDb,
  accountId: string | undefined,
  limit: number,
  offset: number,
): { items: (BankTransaction & { currency: string })[]; total: number } {
  const { total, span } = unmatchedSpan(db, 'unmatched_transaction_day_counts', accountId, offset, limit);
  if (!span) return { total, items: [] };
  const rows = db.allSql<TxnRow & { currency: string }>(
    `SELECT t.id, t.statement_id, t.account_id, t.date, t.description, t.amount_minor, t.type, t.external_id, a.currency
       FROM bank_transactions t JOIN accounts a ON a.id = t.account_id
      WHERE t.account_id IN (SELECT account_id FROM statements)${accountId ? ' AND t.account_id = ?' : ''}
        AND t.date >= ? AND t.date <= ?
        AND NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.bank_transaction_id = t.id AND m.status IN ${LIVE_SQL})
      ORDER BY t.date DESC, t.seq DESC LIMIT ? OFFSET ?`,
    ...(accountId ? [accountId] : []),
    span.from,
    span.to,
    limit,
    span.skip,
  );
  return { total, items: rows.map((r) => ({ ...toTxn(r), currency: r.currency })) };
}

/**
 * Posted entries on accounts that have statements, with no live match, newest first (an entry with
 * lines on two such accounts is listed once for each). Reversal entries are never listed.
 */
export function unmatchedEntries(
  db: LedgerDb,
  accountId: string | undefined,
  limit: number,
  offset: number,
): {
  items: { entryId: string; entryDate: string; memo: string | null; netMinor: Minor; currency: string }[];
  total: number;
} {
  const { total, span } = unmatchedSpan(db, 'unmatched_entry_day_counts', accountId, offset, limit);
  if (!span) return { total, items: [] };
  // `+e.status`: drive by the lines' (account, date) ranges, not by the status index.
  const rows = db.allSql<{ entry_id: string; entry_date: string; memo: string | null; net: bigint; currency: string }>(
    `SELECT e.id AS entry_id, e.entry_date, e.memo, l.currency,
            SUM(CASE l.direction WHEN 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) AS net
       FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
      WHERE l.account_id IN (SELECT account_id FROM statements)${accountId ? ' AND l.account_id = ?' : ''}
        AND l.entry_date >= ? AND l.entry_date <= ?
        AND +e.status = 'posted' AND e.reverses_entry_id IS NULL
        AND NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.entry_id = e.id AND m.status IN ${LIVE_SQL})
      GROUP BY e.id, l.account_id
      ORDER BY e.entry_date DESC, e.seq DESC, l.account_id
      LIMIT ? OFFSET ?`,
    ...(accountId ? [accountId] : []),
    span.from,
    span.to,
    limit,
    span.skip,
  );
  return {
    total,
    items: rows.map((r) => ({
      entryId: r.entry_id,
      entryDate: r.entry_date,
      memo: r.memo,
      netMinor: r.net,
      currency: r.currency,
    })),
  };
}

/**
 * How many entries use each account (a line on it, any status), for suggestions without history:
 * from the maintained day counts of migration 0004, one row per account and day, never every line.
 */
export function accountUsage(db: LedgerDb): Map<string, number> {
  const rows = db.allSql<{ account_id: string; n: bigint }>(
    'SELECT account_id, SUM(entries) AS n FROM account_day_counts GROUP BY account_id',
  );
  return new Map(rows.map((r) => [r.account_id, Number(r.n)]));
}
