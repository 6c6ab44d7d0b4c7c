import type { ParsedStatement, SkippedRow, StatementFormat } from './types.ts';

/** One account a statement file speaks of: the statements of one account reference and currency, in file order. */
export interface FileAccount {
  account_ref: string | null;
  currency: string | null;
  statements: ParsedStatement[];
}

/**
 * The accounts in a file, in the order they first appear: statements with the same account
 * reference and currency are one account (camt's two `Stmt` of one IBAN, OFX's two `STMTTRNRS` of
 * one ACCTID); a checking account, a savings account and a card in one QBO are three.
 */
export function fileAccounts(statements: readonly ParsedStatement[]): FileAccount[] {
  const byKey = new Map<string, FileAccount>();
  for (const statement of statements) {
    const key = JSON.stringify([statement.account_ref, statement.currency]);
    let account = byKey.get(key);
    if (account === undefined) {
      account = { account_ref: statement.account_ref, currency: statement.currency, statements: [] };
      byKey.set(key, account);
    }
    account.statements.push(statement);
  }
  return [...byKey.values()];
}

export function transactionCount(account: FileAccount): number {
  return account.statements.reduce((n, s) => n + s.transactions.length, 0);
}

/** The latest closing balance the account's statements state, as the bank signs it. */
export function closingBalanceOf(account: FileAccount): ParsedStatement['closing_balance'] {
  let closing: ParsedStatement['closing_balance'] = null;
  for (const s of account.statements) {
    const c = s.closing_balance;
    if (c !== null && (closing === null || (c.date ?? '') >= (closing.date ?? ''))) closing = c;
  }
  return closing;
}

const WHAT_HOLDS_TRANSACTIONS: Record<StatementFormat, string> = {
  ofx: 'no <STMTTRN> transaction',
  camt053: 'no <Ntry> entry',
  qif: 'no transaction record',
  csv: 'no row that reads as a transaction',
};

/**
 * Says what a file that yields no transaction holds, for a person who expected some: its
 * accounts (reference, currency, closing balance) and, for a CSV, how many lines were skipped.
 */
export function describeNoTransactions(
  format: StatementFormat,
  accounts: readonly FileAccount[],
  skipped: readonly SkippedRow[],
): string {
  const found = accounts.map((a) => {
    const closing = closingBalanceOf(a);
    const parts = [
      a.account_ref ?? 'no account number',
      a.currency ?? 'no currency',
      closing === null ? null : `closing balance ${closing.amount}${closing.date ? ` on ${closing.date}` : ''}`,
    ].filter((p) => p !== null);
    return parts.join(', ');
  });
  const what = `${accounts.length === 1 ? 'its statement' : `its ${accounts.length} accounts`} (${found.join('; ')})`;
  const lines =
    skipped.length === 0
      ? ''
      : `; ${skipped.length} ${skipped.length === 1 ? 'line was' : 'lines were'} skipped, the first on line ${skipped[0]!.line}: ${skipped[0]!.reason}`;
  return `The file holds ${WHAT_HOLDS_TRANSACTIONS[format]}: ${what} has none${lines}. Nothing was stored.`;
}
