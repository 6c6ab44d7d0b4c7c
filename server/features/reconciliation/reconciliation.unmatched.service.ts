import type { LedgerDb } from '../../db/stores.ts';
import type { UnmatchedItemDto } from '../../contract/reconciliation.ts';
import { formatMinor } from '../../domain/money.ts';
import { PayeeModel, suggestCounterAccounts } from '../../domain/reconciliation/index.ts';
import { allAccounts } from '../accounts/accounts.repository.ts';
import { statementAccountIds } from '../statements/statements.repository.ts';
import type { KeptPayeeModels } from './reconciliation.payees.service.ts';
import { accountUsage, unmatchedEntries, unmatchedTransactions } from './reconciliation.unmatched.repository.ts';

/**
 * What is left to reconcile on the accounts with statements: bank transactions with no live match,
 * each with suggested counter accounts to book it against, then posted entries with none.
 */
export function listUnmatched(
  db: LedgerDb,
  query: {
    account_id?: string | undefined;
    type?: 'bank_transaction' | 'journal_entry' | undefined;
    page: number;
    per_page: number;
  },
  payeeModels: KeptPayeeModels,
) {
  const offset = (query.page - 1) * query.per_page;
  const accountIds = statementAccountIds(db).filter((id) => query.account_id === undefined || id === query.account_id);
  const items: UnmatchedItemDto[] = [];
  let total = 0;
  if (query.type !== 'journal_entry') {
    const txns = unmatchedTransactions(db, accountIds, query.per_page, offset);
    total += txns.total;
    // Suggestions only for a page that holds bank lines (the entries' pages need none).
    const model = txns.items.length > 0 ? payeeModels.modelOf(db) : PayeeModel.fromExamples([]);
    const accounts = new Map(allAccounts(db).map((a) => [a.id, a]));
    const usage = txns.items.length > 0 ? accountUsage(db) : new Map<string, number>();
    for (const t of txns.items) {
      items.push({
        type: 'bank_transaction',
        transaction: {
          id: t.id,
          date: t.date,
          description: t.description,
          amount: formatMinor(t.amountMinor, t.currency),
          currency: t.currency,
          type: t.type,
        },
        suggested_action: 'create_entry',
        suggested_accounts: suggestCounterAccounts(model, accounts, usage, t),
      });
    }
  }
  if (query.type !== 'bank_transaction') {
    const bankTotal = total;
    const entryOffset = Math.max(0, offset - bankTotal);
    const room = query.per_page - items.length;
    const entries = unmatchedEntries(db, accountIds, Math.max(room, 0), entryOffset);
    total += entries.total;
    if (room > 0) {
      for (const e of entries.items) {
        items.push({
          type: 'journal_entry',
          // seen from the bank: money into the account is the bank's credit
          transaction: {
            id: e.entryId,
            date: e.entryDate,
            description: e.memo ?? '',
            amount: formatMinor(e.netMinor < 0n ? -e.netMinor : e.netMinor, e.currency),
            currency: e.currency,
            type: e.netMinor >= 0n ? 'credit' : 'debit',
          },
          suggested_action: 'find_bank_transaction',
          suggested_accounts: [],
        });
      }
    }
  }
  return { items, total, page: query.page, per_page: query.per_page };
}
