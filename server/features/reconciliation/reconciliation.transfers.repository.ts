import type { LedgerDb } from '../../db/stores.ts';
import { addDays } from '../../domain/dates.ts';
import {
  BANK_TRANSACTION_COLUMNS,
  toBankTransaction,
  type BankTransactionRow,
} from '../statements/statements.queries.ts';
import type { BankTransaction } from '../statements/statements.model.ts';
import { LIVE_SQL } from './reconciliation.matches.repository.ts';

/** The lines looked at for one transfer: a day's worth of equal amounts is far below it. */
const CANDIDATE_LIMIT = 100;

export interface TransferSide extends BankTransaction {
  seq: bigint;
  accountName: string;
  currency: string;
}

/**
 * Unmatched bank lines of `amountMinor` in `currency` and of `type`, on another account than
 * `accountId`, dated within `days` of `date`: the index of amounts and dates (the transfer_matches
 * migration), one range, and each line's live match by its own index. At most CANDIDATE_LIMIT.
 */
export function transferSides(
  db: LedgerDb,
  side: { accountId: string; date: string; amountMinor: bigint; currency: string; type: 'debit' | 'credit' },
  days: number,
): TransferSide[] {
  return db
    .allSql<BankTransactionRow & { seq: bigint; account_name: string; currency: string }>(
      `SELECT ${BANK_TRANSACTION_COLUMNS.join(', ')}, t.seq, a.name AS account_name, a.currency
         FROM bank_transactions t JOIN accounts a ON a.id = t.account_id
        WHERE t.amount_minor = ? AND t.date >= ? AND t.date <= ?
          AND +t.type = ? AND +t.account_id <> ? AND a.currency = ?
          AND NOT EXISTS (SELECT 1 FROM reconciliation_matches m
                           WHERE m.bank_transaction_id = t.id AND m.status IN ${LIVE_SQL})
        LIMIT ${CANDIDATE_LIMIT}`,
      side.amountMinor,
      addDays(side.date, -days),
      addDays(side.date, days),
      side.type,
      side.accountId,
      side.currency,
    )
    .map((r) => ({ ...toBankTransaction(r), seq: r.seq, accountName: r.account_name, currency: r.currency }));
}
