import type { LedgerDb } from '../../db/stores.ts';
import { newRowId } from '../../db/ids.ts';
import type {
  BankTransactionDto,
  CreateStatementInput,
  PatchStatementInput,
  StatementDto,
  StatementResultDto,
} from '../../contract/statements.ts';
import { DomainError, type FieldError } from '../../domain/errors.ts';
import { formatMinor, parseSignedAmount, type Minor } from '../../domain/money.ts';
import { requireAccount, type AccountDeleteGuard } from '../accounts/accounts.service.ts';
import type { Account } from '../accounts/accounts.model.ts';
import { defaultStatementName } from '../../contract/names.ts';
import {
  deleteStatement,
  findStatement,
  hasStatementsOf,
  listStatements,
  listStatementTransactions,
  setClosingBalance,
  statementHasReconciled,
} from './statements.repository.ts';
import type { Statement } from './statements.model.ts';
import { toStatementDto } from './statements.dto.ts';
import {
  amountOrFail,
  NO_BALANCES,
  plan,
  statementAccount,
  store,
  type Balances,
  type IncomingTransaction,
} from './statements.intake.ts';

export function createStatement(
  db: LedgerDb,
  input: Omit<CreateStatementInput, 'transactions'> & {
    transactions: Iterable<CreateStatementInput['transactions'][number]>;
  },
): StatementResultDto {
  return db.transaction(() => {
    const account = statementAccount(db, input.account_id);
    const errors: FieldError[] = [];
    const incoming: IncomingTransaction[] = [];
    let i = 0;
    for (const t of input.transactions) {
      const minor = amountOrFail(t.amount, account.currency, `transactions.${i}.amount`, '', errors);
      if (minor !== null)
        incoming.push({
          date: t.date,
          description: t.description,
          amountMinor: minor,
          type: t.type,
          externalId: t.external_id ?? null,
        });
      i += 1;
    }
    if (errors.length > 0)
      throw new DomainError('VALIDATION_ERROR', `Invalid body: ${errors[0]!.field} ${errors[0]!.message}`, errors);
    const closing = closingBalanceOf(input.closing_balance, account);
    const id = newRowId();
    const planned = plan(db, account, incoming);
    const balances: Balances =
      closing === null
        ? NO_BALANCES
        : { openingMinor: null, closingMinor: closing, closingDate: input.closing_date ?? planned.endDate };
    return store(
      db,
      account,
      id,
      input.name ?? defaultStatementName('json', planned.startDate),
      'json',
      planned,
      balances,
    );
  });
}

/** A closing balance given in a request, in the account's minor units (VALIDATION_ERROR when it has too many decimals). */
function closingBalanceOf(text: string | null | undefined, account: Account): Minor | null {
  if (text === null || text === undefined) return null;
  const parsed = parseSignedAmount(text, account.currency);
  if ('minor' in parsed) return parsed.minor;
  const message =
    parsed.problem === 'digits' ? `has more decimal places than ${account.currency} allows` : 'is not a balance';
  throw new DomainError('VALIDATION_ERROR', `Invalid body: closing_balance ${message}`, [
    { field: 'closing_balance', message },
  ]);
}

/** Sets or clears a statement's closing balance by hand (its day: the one given, else the one it has, else its last day). */
export function patchStatement(db: LedgerDb, id: string, input: PatchStatementInput): StatementDto {
  return db.transaction(() => {
    const statement = requireStatement(db, id);
    const account = requireAccount(db, statement.accountId);
    const minor = closingBalanceOf(input.closing_balance, account);
    const date = minor === null ? null : (input.closing_date ?? statement.closingDate ?? statement.endDate);
    setClosingBalance(db, id, minor, date);
    return toStatementDto(requireStatement(db, id));
  });
}

function requireStatement(db: LedgerDb, id: string): Statement {
  const statement = findStatement(db, id);
  if (!statement) throw new DomainError('NOT_FOUND', 'Statement not found');
  return statement;
}

export function getStatement(db: LedgerDb, id: string): StatementDto {
  return toStatementDto(requireStatement(db, id));
}

export function listStatementPage(
  db: LedgerDb,
  query: { account_id?: string | undefined; page: number; per_page: number },
) {
  const { items, total } = listStatements(db, query.account_id, query.per_page, (query.page - 1) * query.per_page);
  return { items: items.map(toStatementDto), total, page: query.page, per_page: query.per_page };
}

export function listTransactionPage(db: LedgerDb, statementId: string, query: { page: number; per_page: number }) {
  const statement = requireStatement(db, statementId);
  const currency = requireAccount(db, statement.accountId).currency;
  const { items, total } = listStatementTransactions(
    db,
    statementId,
    query.per_page,
    (query.page - 1) * query.per_page,
  );
  const dtos: BankTransactionDto[] = items.map((t) => ({
    id: t.id,
    statement_id: t.statementId,
    date: t.date,
    description: t.description,
    amount: formatMinor(t.amountMinor, currency),
    type: t.type,
    external_id: t.externalId,
    reconciliation_status: (t.matchStatus ?? 'unmatched') as BankTransactionDto['reconciliation_status'],
    match_id: t.matchId,
  }));
  return { items: dtos, total, page: query.page, per_page: query.per_page };
}

export function removeStatement(db: LedgerDb, id: string): void {
  db.transaction(() => {
    const statement = requireStatement(db, id);
    if (statementHasReconciled(db, id)) {
      throw new DomainError(
        'HAS_RECONCILED',
        'Some of this statement’s transactions are reconciled with journal entries; it cannot be deleted',
      );
    }
    deleteStatement(db, statement);
  });
}

/** An account with statements is not deleted: they would point at nothing (accounts' AccountDeleteGuard). */
export const statementsKeepTheirAccount: AccountDeleteGuard = (db, accountId) =>
  hasStatementsOf(db, accountId)
    ? new DomainError('HAS_ENTRIES', 'The account has bank statements; delete them or deactivate the account instead')
    : null;
