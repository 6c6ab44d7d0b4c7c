import type { LedgerSchema } from '../../db/schema.ts';
import type { LedgerDb } from '../../db/stores.ts';
import type { Minor } from '../../domain/money.ts';
import { LIVE_MATCH_STATUSES, RECONCILED_MATCH_STATUSES } from '../../domain/reconciliation/index.ts';
import type { BankTransaction, NewBankTransaction, Statement } from './statements.model.ts';

/** The columns a `BankTransaction` is read from, with `bank_transactions` as `t`. */
export const BANK_TRANSACTION_COLUMNS = [
  't.id',
  't.statement_id',
  't.account_id',
  't.date',
  't.description',
  't.amount_minor',
  't.type',
  't.external_id',
] as const;

export type BankTransactionRow = Pick<
  LedgerSchema['bank_transactions'],
  'id' | 'statement_id' | 'account_id' | 'date' | 'description' | 'amount_minor' | 'type' | 'external_id'
>;

export function toBankTransaction(r: BankTransactionRow): BankTransaction {
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

type StatementRow = Omit<LedgerSchema['statements'], 'seq'> & { currency: string };

function toStatement(row: StatementRow): Statement {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    source: row.source,
    importedCount: Number(row.imported_count),
    duplicateCount: Number(row.duplicate_count),
    startDate: row.start_date,
    endDate: row.end_date,
    openingBalanceMinor: row.opening_balance_minor,
    closingBalanceMinor: row.closing_balance_minor,
    closingDate: row.closing_date,
    createdAt: row.created_at,
    currency: row.currency,
  };
}

/** A statement's columns, as `s`, with its account's currency (from `a`). */
const STATEMENT_COLUMNS = [
  's.id',
  's.account_id',
  's.name',
  's.source',
  's.imported_count',
  's.duplicate_count',
  's.start_date',
  's.end_date',
  's.opening_balance_minor',
  's.closing_balance_minor',
  's.closing_date',
  's.created_at',
  'a.currency',
] as const;

function nextSeq(db: LedgerDb, table: 'statements' | 'bank_transactions'): bigint {
  return (db.first(db.qb.selectFrom(table).select((eb) => eb.fn.max<bigint | null>('seq').as('s')))!.s ?? 0n) + 1n;
}

export function insertStatement(db: LedgerDb, s: Statement): void {
  db.run(
    db.qb.insertInto('statements').values({
      id: s.id,
      seq: nextSeq(db, 'statements'),
      account_id: s.accountId,
      name: s.name,
      source: s.source,
      imported_count: BigInt(s.importedCount),
      duplicate_count: BigInt(s.duplicateCount),
      start_date: s.startDate,
      end_date: s.endDate,
      opening_balance_minor: s.openingBalanceMinor,
      closing_balance_minor: s.closingBalanceMinor,
      closing_date: s.closingDate,
      created_at: s.createdAt,
    }),
  );
}

/** Sets a statement's closing balance and its day (null: none). */
export function setClosingBalance(db: LedgerDb, id: string, minor: Minor | null, date: string | null): void {
  db.run(
    db.qb.updateTable('statements').set({ closing_balance_minor: minor, closing_date: date }).where('id', '=', id),
  );
}

/** Which of these dedupe keys the account already has. */
export function existingDedupeKeys(db: LedgerDb, accountId: string, keys: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += 500) {
    const rows = db.all(
      db.qb
        .selectFrom('bank_transactions')
        .select('dedupe_key')
        .where('account_id', '=', accountId)
        .where('dedupe_key', 'in', keys.slice(i, i + 500)),
    );
    for (const row of rows) found.add(row.dedupe_key);
  }
  return found;
}

/** One prepared statement, not a built query per row: a statement may hold 100,000 transactions. */
export function insertBankTransactions(db: LedgerDb, rows: Iterable<NewBankTransaction>, createdAt: string): void {
  let seq = nextSeq(db, 'bank_transactions');
  for (const t of rows) {
    db.runSql(
      `INSERT INTO bank_transactions (id, seq, statement_id, account_id, date, description, amount_minor, type, external_id, dedupe_key, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      t.id,
      seq++,
      t.statementId,
      t.accountId,
      t.date,
      t.description,
      t.amountMinor,
      t.type,
      t.externalId,
      t.dedupeKey,
      createdAt,
    );
  }
}

function statementsWithCurrency(db: LedgerDb) {
  return db.qb.selectFrom('statements as s').innerJoin('accounts as a', 'a.id', 's.account_id');
}

export function findStatement(db: LedgerDb, id: string): Statement | undefined {
  const row = db.first(statementsWithCurrency(db).select(STATEMENT_COLUMNS).where('s.id', '=', id));
  return row && toStatement(row);
}

/** The accounts that have a statement, each once (from the index of statements by account). */
export function statementAccountIds(db: LedgerDb): string[] {
  return db
    .all(db.qb.selectFrom('statements').select('account_id').distinct().orderBy('account_id'))
    .map((r) => r.account_id);
}

export function findBankTransaction(db: LedgerDb, id: string): BankTransaction | undefined {
  const row = db.first(
    db.qb.selectFrom('bank_transactions as t').select(BANK_TRANSACTION_COLUMNS).where('t.id', '=', id),
  );
  return row && toBankTransaction(row);
}

export function listStatements(
  db: LedgerDb,
  accountId: string | undefined,
  limit: number,
  offset: number,
): { items: Statement[]; total: number } {
  let query = statementsWithCurrency(db);
  if (accountId) query = query.where('s.account_id', '=', accountId);
  const total = db.first(query.select((eb) => eb.fn.countAll<bigint>().as('n')))!.n;
  const rows = db.all(query.select(STATEMENT_COLUMNS).orderBy('s.seq', 'desc').limit(limit).offset(offset));
  return { items: rows.map(toStatement), total: Number(total) };
}

export interface TransactionWithStatus extends BankTransaction {
  matchId: string | null;
  matchStatus: string | null;
}

/** A statement's transactions by date, each with its live match if it has one. */
export function listStatementTransactions(
  db: LedgerDb,
  statementId: string,
  limit: number,
  offset: number,
): { items: TransactionWithStatus[]; total: number } {
  const total = db.first(
    db.qb
      .selectFrom('bank_transactions')
      .select((eb) => eb.fn.countAll<bigint>().as('n'))
      .where('statement_id', '=', statementId),
  )!.n;
  const rows = db.all(
    db.qb
      .selectFrom('bank_transactions as t')
      .leftJoin('reconciliation_matches as m', (join) =>
        join.onRef('m.bank_transaction_id', '=', 't.id').on('m.status', 'in', [...LIVE_MATCH_STATUSES]),
      )
      .select([...BANK_TRANSACTION_COLUMNS, 'm.id as match_id', 'm.status as match_status'])
      .where('t.statement_id', '=', statementId)
      .orderBy('t.date')
      .orderBy('t.seq')
      .limit(limit)
      .offset(offset),
  );
  return {
    total: Number(total),
    items: rows.map((r) => ({ ...toBankTransaction(r), matchId: r.match_id, matchStatus: r.match_status })),
  };
}

export function statementHasReconciled(db: LedgerDb, statementId: string): boolean {
  return (
    db.first(
      db.qb
        .selectFrom('bank_transactions as t')
        .innerJoin('reconciliation_matches as m', 'm.bank_transaction_id', 't.id')
        .select('m.id')
        .where('t.statement_id', '=', statementId)
        .where('m.status', 'in', [...RECONCILED_MATCH_STATUSES])
        .limit(1),
    ) !== undefined
  );
}

/**
 * Deletes a statement (its transactions go with it), and the unmatched day counts of its account
 * that this leaves at zero: kept, they would hold the account (a reference) when it is deleted.
 */
export function deleteStatement(db: LedgerDb, statement: { id: string; accountId: string }): void {
  db.run(db.qb.deleteFrom('statements').where('id', '=', statement.id));
  db.runSql(
    'DELETE FROM unmatched_transaction_day_counts WHERE account_id = ? AND transactions = 0',
    statement.accountId,
  );
}

export function loadCsvMapping(db: LedgerDb, accountId: string): unknown {
  const row = db.first(db.qb.selectFrom('csv_mappings').select('mapping').where('account_id', '=', accountId));
  return row ? JSON.parse(row.mapping) : undefined;
}

/** Remembers an account's CSV mapping; the same mapping again changes nothing (not even updated_at). */
export function saveCsvMapping(db: LedgerDb, accountId: string, mapping: unknown, at: string): void {
  const json = JSON.stringify(mapping);
  db.run(
    db.qb
      .insertInto('csv_mappings')
      .values({ account_id: accountId, mapping: json, updated_at: at })
      .onConflict((oc) =>
        oc
          .column('account_id')
          .doUpdateSet({ mapping: json, updated_at: at })
          .where('csv_mappings.mapping', '!=', json),
      ),
  );
}

/** Whether any statement is of the account. */
export function hasStatementsOf(db: LedgerDb, accountId: string): boolean {
  return db.existsSql('SELECT 1 FROM statements WHERE account_id = ? LIMIT 1', accountId);
}
