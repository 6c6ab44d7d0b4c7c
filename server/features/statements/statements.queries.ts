/**
 * What other features read of the bank statements, each in the caller's transaction: with the
 * service, the statements feature's one door (its repository is its own). A query of another
 * feature that joins `bank_transactions` (as `t`) selects BANK_TRANSACTION_COLUMNS and reads each
 * row with toBankTransaction, so that a bank line is read one way everywhere.
 */
export {
  BANK_TRANSACTION_COLUMNS,
  findBankTransaction,
  findStatement,
  statementAccountIds,
  toBankTransaction,
  type BankTransactionRow,
} from './statements.repository.ts';
