import type { Minor } from '../../domain/money.ts';

/** A bank statement imported into an account: its file's name, dates and balances. */
export interface Statement {
  id: string;
  accountId: string;
  name: string;
  source: string;
  importedCount: number;
  duplicateCount: number;
  startDate: string | null;
  endDate: string | null;
  /** signed as the account's balance */
  openingBalanceMinor: Minor | null;
  closingBalanceMinor: Minor | null;
  closingDate: string | null;
  createdAt: string;
  /** the account's currency */
  currency: string;
}

/** One line of a bank statement. */
export interface BankTransaction {
  id: string;
  statementId: string;
  accountId: string;
  date: string;
  description: string;
  amountMinor: Minor;
  type: 'debit' | 'credit';
  externalId: string | null;
}

/** A bank line about to be stored, with the key that finds its duplicate on a re-import. */
export interface NewBankTransaction extends BankTransaction {
  dedupeKey: string;
}
