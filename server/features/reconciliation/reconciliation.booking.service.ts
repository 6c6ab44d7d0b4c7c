import type { LedgerDb } from '../../db/stores.ts';
import { newRowId } from '../../db/ids.ts';
import type { JournalEntryDto } from '../../contract/journal.ts';
import { currencyDigits } from '../../domain/currencies.ts';
import { DomainError, type FieldError } from '../../domain/errors.ts';
import { formatMinor } from '../../domain/money.ts';
import { scorePair, type PayeeModel, type RuleSet, type Thresholds } from '../../domain/reconciliation/index.ts';
import { accountsByIds, type Account } from '../accounts/accounts.repository.ts';
import { createEntry } from '../journal/journal.service.ts';
import { ruleSetOf } from '../rules/rules.service.ts';
import { findBankTransaction, findStatement, type BankTransaction } from '../statements/statements.repository.ts';
import { toMatchDto } from './reconciliation.dto.ts';
import { insertMatch, liveMatchOfTransaction, matchView } from './reconciliation.matches.repository.ts';
import { addPayeeExample } from './reconciliation.payees.repository.ts';
import { payeeModel, type KeptPayeeModels } from './reconciliation.payees.service.ts';
import { unmatchedTransactionsOfStatement } from './reconciliation.unmatched.repository.ts';

/**
 * Closes the loop for a bank transaction with no entry: posts an entry against the given counter
 * account (source_type reconciliation, through the journal: the one call reconciliation makes into
 * it) and records an accepted match for it, which the payee model learns. The model is the one kept
 * for the ledger (it reads the new booking from the ledger when next asked).
 */
export function createEntryForBankTransaction(
  db: LedgerDb,
  txnId: string,
  input: { account_id: string; memo?: string | undefined },
  thresholds: Thresholds,
  payeeModels: KeptPayeeModels,
) {
  return db.transaction(() => {
    const txn = findBankTransaction(db, txnId);
    if (!txn) throw new DomainError('NOT_FOUND', 'Bank transaction not found');
    const model = payeeModels.modelOf(db);
    const booked = book(db, txn, input.account_id, input.memo ?? txn.description, { model, learns: false }, thresholds);
    return { entry: booked.entry, match: toMatchDto(matchView(db, booked.matchId)!) };
  });
}

interface Booked {
  entry: JournalEntryDto;
  matchId: string;
}

/**
 * Posts the entry of one bank transaction and its accepted match. A model of this booking alone
 * (`learns`) learns the payee at once (the next line may be the same payee); a kept one reads it
 * from the ledger when next asked.
 */
function book(
  db: LedgerDb,
  txn: BankTransaction,
  accountId: string,
  memo: string,
  payees: { model: PayeeModel; learns: boolean },
  thresholds: Thresholds,
): Booked {
  const model = payees.model;
  if (liveMatchOfTransaction(db, txn.id))
    throw new DomainError('ALREADY_PROCESSED', 'This bank transaction already has a match');
  const { bank, counter } = bookingAccounts(db, txn, accountId);
  const amount = formatMinor(txn.amountMinor, bank.currency);
  const moneyOut = txn.type === 'debit';
  const entry = createEntry(
    db,
    {
      entry_date: txn.date,
      memo: memo.slice(0, 500),
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
    { digits: currencyDigits(bank.currency), payeeModel: model, thresholds },
  );
  const at = new Date().toISOString();
  const id = newRowId();
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
  addPayeeExample(db, txn.description, counter.id, 'created_entry', at, txn);
  if (payees.learns) model.learn(txn.description, counter.id, txn);
  return { entry, matchId: id };
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
      [{ field: 'account_id', message: `is in ${counter.currency}, the bank account in ${bank.currency}` }],
    );
  return { bank, counter };
}

export interface CreateEntriesInput {
  items?: { bank_transaction_id: string; account_id: string; memo?: string | undefined }[] | undefined;
  statement_id?: string | undefined;
}

/** The memo of a booking (CONTRACT §13): the one given, else the rule's, else the bank description. */
function memoOf(given: string | undefined, rules: RuleSet, txn: BankTransaction, currency: string): string {
  if (given !== undefined) return given;
  const rule = rules.firstMatch({ ...txn, digits: currencyDigits(currency) });
  return rule?.memo ?? txn.description;
}

/**
 * Books many unmatched bank transactions at once, each as `create-entry` does, in one transaction:
 * the items given (all or nothing: every bad item is named, `items.N.<field>`, and nothing is
 * booked), or every unmatched transaction of a statement that a rule matches, against the rule's
 * account (the others are answered as skipped).
 */
export function createEntries(db: LedgerDb, input: CreateEntriesInput, thresholds: Thresholds) {
  return db.transaction(() => {
    const payees = { model: payeeModel(db), learns: true };
    const rules = ruleSetOf(db);
    const created: { bank_transaction_id: string; entry_id: string; match_id: string }[] = [];
    const skipped: string[] = [];
    if (input.items) {
      const errors: (FieldError & { code: string; detail: string })[] = [];
      input.items.forEach((item, i) => {
        try {
          const txn = findBankTransaction(db, item.bank_transaction_id);
          if (!txn)
            throw new DomainError('VALIDATION_ERROR', 'Bank transaction not found', [
              { field: 'bank_transaction_id', message: 'no such bank transaction' },
            ]);
          const currency = accountsByIds(db, [txn.accountId]).get(txn.accountId)!.currency;
          const booked = book(db, txn, item.account_id, memoOf(item.memo, rules, txn, currency), payees, thresholds);
          created.push({ bank_transaction_id: txn.id, entry_id: booked.entry.id, match_id: booked.matchId });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          const field =
            error.errors?.[0]?.field ?? (error.code === 'ALREADY_PROCESSED' ? 'bank_transaction_id' : 'account_id');
          errors.push({
            field: `items.${i}.${field}`,
            message: error.errors?.[0]?.message ?? error.message,
            code: error.code,
            detail: error.message,
          });
        }
      });
      if (errors.length > 0) {
        const first = errors[0]!;
        throw new DomainError(
          first.code,
          `${first.field}: ${first.detail}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}; nothing was booked`,
          errors.map(({ field, message }) => ({ field, message })),
        );
      }
      return { created, skipped };
    }
    const statement = findStatement(db, input.statement_id!);
    if (!statement) throw new DomainError('NOT_FOUND', 'Statement not found');
    const digits = currencyDigits(statement.currency);
    for (const txn of unmatchedTransactionsOfStatement(db, statement.id)) {
      const rule = rules.firstMatch({ ...txn, digits });
      if (!rule) {
        skipped.push(txn.id);
        continue;
      }
      try {
        const booked = book(db, txn, rule.accountId, rule.memo ?? txn.description, payees, thresholds);
        created.push({ bank_transaction_id: txn.id, entry_id: booked.entry.id, match_id: booked.matchId });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        throw new DomainError(
          error.code,
          `The rule "${rule.name}" cannot book "${txn.description}" (${txn.date}): ${error.message}; nothing was booked`,
          [{ field: 'statement_id', message: `rule ${rule.id}: ${error.message}` }],
        );
      }
    }
    return { created, skipped };
  });
}
