import crypto from 'node:crypto';
import type { LedgerDb } from '../../db/stores.ts';
import { currencyDigits } from '../../domain/currencies.ts';
import { DomainError } from '../../domain/errors.ts';
import { formatMinor } from '../../domain/money.ts';
import { scorePair, type Thresholds } from '../../domain/reconciliation/index.ts';
import { accountsByIds, type Account } from '../accounts/accounts.repository.ts';
import { createEntry } from '../journal/journal.service.ts';
import { findBankTransaction, type BankTransaction } from '../statements/statements.repository.ts';
import { toMatchDto } from './reconciliation.dto.ts';
import { insertMatch, liveMatchOfTransaction, matchView } from './reconciliation.matches.repository.ts';
import { addPayeeExample } from './reconciliation.payees.repository.ts';
import { payeeModel } from './reconciliation.payees.service.ts';

/**
 * Closes the loop for a bank transaction with no entry: posts an entry against the given counter
 * account (source_type reconciliation, through the journal: the one call reconciliation makes into
 * it) and records an accepted match for it, which the payee model learns.
 */
export function createEntryForBankTransaction(
  db: LedgerDb,
  txnId: string,
  input: { account_id: string; memo?: string | undefined },
  thresholds: Thresholds,
) {
  return db.transaction(() => {
    const txn = findBankTransaction(db, txnId);
    if (!txn) throw new DomainError('NOT_FOUND', 'Bank transaction not found');
    if (liveMatchOfTransaction(db, txnId))
      throw new DomainError('ALREADY_PROCESSED', 'This bank transaction already has a match');
    const { bank, counter } = bookingAccounts(db, txn, input.account_id);
    const amount = formatMinor(txn.amountMinor, bank.currency);
    const moneyOut = txn.type === 'debit';
    const entry = createEntry(
      db,
      {
        entry_date: txn.date,
        memo: input.memo ?? txn.description.slice(0, 500),
        auto_post: true,
        lines: [
          { account_id: counter.id, direction: moneyOut ? 'DEBIT' : 'CREDIT', amount },
          { account_id: bank.id, direction: moneyOut ? 'CREDIT' : 'DEBIT', amount },
        ],
      },
      'reconciliation',
    );
    const scored = scorePair(
      { id: txn.id, date: txn.date, description: txn.description, amountMinor: txn.amountMinor, type: txn.type },
      {
        id: entry.id,
        entryDate: entry.entry_date,
        memo: entry.memo,
        accountLine: { direction: moneyOut ? 'CREDIT' : 'DEBIT', amountMinor: txn.amountMinor },
        counterAccounts: [{ id: counter.id, type: counter.type }],
      },
      { digits: currencyDigits(bank.currency), payeeModel: payeeModel(db), thresholds },
    );
    const at = new Date().toISOString();
    const id = crypto.randomUUID();
    insertMatch(db, {
      id,
      runId: null,
      bankTransactionId: txn.id,
      entryId: entry.id,
      status: 'accepted',
      score: scored.total,
      breakdown: scored.breakdown,
      version: 1,
      supersededById: null,
      createdAt: at,
      updatedAt: at,
      acceptedAt: at,
      rejectedAt: null,
      rejectReason: null,
    });
    addPayeeExample(db, txn.description, counter.id, 'created_entry', at);
    return { entry, match: toMatchDto(matchView(db, id)!) };
  });
}

/** The transaction's bank account and the counter account to book it against: another account, in the same currency. */
function bookingAccounts(db: LedgerDb, txn: BankTransaction, counterId: string): { bank: Account; counter: Account } {
  const accounts = accountsByIds(db, [txn.accountId, counterId]);
  const bank = accounts.get(txn.accountId)!;
  const counter = accounts.get(counterId);
  if (!counter)
    throw new DomainError('INVALID_ACCOUNT', 'The account does not exist', [
      { field: 'account_id', message: 'no such account' },
    ]);
  if (counter.id === bank.id)
    throw new DomainError('VALIDATION_ERROR', 'The counter account must differ from the bank account', [
      { field: 'account_id', message: 'is the bank account itself' },
    ]);
  if (counter.currency !== bank.currency)
    throw new DomainError(
      'CURRENCY_MISMATCH',
      `The account ${counter.name} is in ${counter.currency}, the bank account in ${bank.currency}`,
    );
  return { bank, counter };
}
