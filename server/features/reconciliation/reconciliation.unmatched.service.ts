import type { LedgerDb } from '../../db/stores.ts';
import type { UnmatchedItemDto } from '../../contract/reconciliation.ts';
import { formatMinor } from '../../domain/money.ts';
import { currencyDigits } from '../../domain/currencies.ts';
import { suggestCounterAccounts } from '../../domain/reconciliation/index.ts';
import { allAccounts } from '../accounts/accounts.queries.ts';
import { RULE_WORK_ON_SERVER_THREAD, ruleSetOf } from '../rules/rules.service.ts';
import { findStatement, statementAccountIds } from '../statements/statements.queries.ts';
import { ruleSplitOf } from './reconciliation.booking.service.ts';
import type { KeptPayeeModels } from './reconciliation.payees.service.ts';
import { transferCandidate } from './reconciliation.transfers.service.ts';
import {
  unmatchedEntries,
  unmatchedTransactions,
  unmatchedTransactionsOfStatementPage,
} from './reconciliation.unmatched.repository.ts';

/**
 * What is left to reconcile on the accounts with statements: bank transactions with no live match,
 * each with suggested counter accounts to book it against (or the parts its rule splits it into),
 * and the other side of a transfer where one is found, then posted entries with none. A page runs
 * on from the bank transactions into the entries.
 */
export function listUnmatched(
  db: LedgerDb,
  query: {
    account_id?: string | undefined;
    statement_id?: string | undefined;
    type?: 'bank_transaction' | 'journal_entry' | undefined;
    page: number;
    per_page: number;
  },
  payeeModels: KeptPayeeModels,
) {
  const offset = (query.page - 1) * query.per_page;
  const accountIds = statementAccountIds(db).filter((id) => query.account_id === undefined || id === query.account_id);
  const bankLines = () =>
    query.statement_id === undefined
      ? unmatchedTransactions(db, accountIds, query.per_page, offset)
      : statementLines(db, query.statement_id, query.account_id, query.per_page, offset);
  const bank =
    query.type === 'journal_entry' ? { items: [], total: 0 } : bankTransactionItems(db, bankLines(), payeeModels);
  // entries belong to no statement: a statement's list holds its bank lines only
  const entries =
    query.type === 'bank_transaction' || query.statement_id !== undefined
      ? { items: [], total: 0 }
      : entryItems(db, accountIds, query.per_page - bank.items.length, Math.max(0, offset - bank.total));
  return {
    items: [...bank.items, ...entries.items],
    total: bank.total + entries.total,
    page: query.page,
    per_page: query.per_page,
  };
}

/** A page of one statement's unmatched lines; none when there is no such statement on the account asked for. */
function statementLines(
  db: LedgerDb,
  statementId: string,
  accountId: string | undefined,
  limit: number,
  offset: number,
): ReturnType<typeof unmatchedTransactions> {
  const statement = findStatement(db, statementId);
  if (!statement || (accountId !== undefined && statement.accountId !== accountId)) return { items: [], total: 0 };
  return unmatchedTransactionsOfStatementPage(db, statementId, limit, offset);
}

/** A page of the unmatched bank transactions, each with its suggested counter accounts. */
function bankTransactionItems(
  db: LedgerDb,
  txns: ReturnType<typeof unmatchedTransactions>,
  payeeModels: KeptPayeeModels,
): { items: UnmatchedItemDto[]; total: number } {
  if (txns.items.length === 0) return { items: [], total: txns.total };
  const model = payeeModels.modelOf(db);
  const accounts = new Map(allAccounts(db).map((a) => [a.id, a]));
  // a page is answered on the server's thread: its rule matching has a budget (its lines past it suggest without rules)
  const rules = ruleSetOf(db, RULE_WORK_ON_SERVER_THREAD);
  const items = txns.items.map((t): UnmatchedItemDto => {
    const rule = rules.firstMatch({ ...t, digits: currencyDigits(t.currency) });
    const { suggested, preselected } = suggestCounterAccounts(model, accounts, t, rule);
    const other = transferCandidate(db, t);
    return {
      type: 'bank_transaction',
      transaction: {
        id: t.id,
        account_id: t.accountId,
        date: t.date,
        description: t.description,
        amount: formatMinor(t.amountMinor, t.currency),
        currency: t.currency,
        type: t.type,
      },
      account_name: accounts.get(t.accountId)?.name ?? '',
      suggested_action: 'create_entry',
      suggested_accounts: suggested,
      // a line that looks like a transfer is offered as one, never preselected for booking alone
      preselected_account_id: other ? null : preselected,
      preselected_splits: other ? null : ruleSplitOf(rule, t, t.currency),
      transfer: other && {
        transaction: {
          id: other.id,
          account_id: other.accountId,
          date: other.date,
          description: other.description,
          amount: formatMinor(other.amountMinor, other.currency),
          currency: other.currency,
          type: other.type,
        },
        account_name: other.accountName,
      },
    };
  });
  return { items, total: txns.total };
}

/** A page of the unmatched entries (`limit` 0 or less: only their total), as the bank would see them. */
function entryItems(
  db: LedgerDb,
  accountIds: readonly string[],
  limit: number,
  offset: number,
): { items: UnmatchedItemDto[]; total: number } {
  const entries = unmatchedEntries(db, accountIds, Math.max(limit, 0), offset);
  if (limit <= 0) return { items: [], total: entries.total };
  const names = new Map(allAccounts(db).map((a) => [a.id, a.name]));
  const items = entries.items.map((e): UnmatchedItemDto => ({
    type: 'journal_entry',
    // seen from the bank: money into the account is the bank's credit
    transaction: {
      id: e.entryId,
      account_id: e.accountId,
      date: e.entryDate,
      description: e.memo ?? '',
      amount: formatMinor(e.netMinor < 0n ? -e.netMinor : e.netMinor, e.currency),
      currency: e.currency,
      type: e.netMinor >= 0n ? 'credit' : 'debit',
    },
    account_name: names.get(e.accountId) ?? '',
    suggested_action: 'find_bank_transaction',
    suggested_accounts: [],
    preselected_account_id: null,
    preselected_splits: null,
    transfer: null,
  }));
  return { items, total: entries.total };
}
