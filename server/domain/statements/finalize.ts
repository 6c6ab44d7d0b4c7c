import { Decimal } from 'decimal.js';
import { formatBankAmount } from './bank-amount.ts';
import { NO_DESCRIPTION, limitDescription } from './text.ts';
import type { ParsedStatement, RawParse, SkippedRow } from './types.ts';

const ZERO_AMOUNT_REASON = 'zero amount (nothing to book)';

/**
 * Turns raw rows into transactions: rows with a skip reason (pending status …) and rows whose
 * amount is zero (Commerzbank notices, Revolut card holds, QIF opening balances) are reported in
 * `skipped` with their line; the others become a positive amount with a debit/credit type.
 * Descriptions longer than 1000 characters are cut.
 */
export function finalize(raw: RawParse): { statements: ParsedStatement[]; skipped: SkippedRow[] } {
  const skipped: SkippedRow[] = [...raw.notes];
  const statements = raw.statements.map((stmt): ParsedStatement => {
    const transactions: ParsedStatement['transactions'] = [];
    for (const row of stmt.rows) {
      if (row.skip_reason !== null) {
        skipped.push({ line: row.line, reason: row.skip_reason });
        continue;
      }
      if (row.date === null || row.amount === null) throw new Error(`row on line ${row.line} has no date or amount`);
      const amount = new Decimal(row.amount);
      if (amount.isZero()) {
        skipped.push({ line: row.line, reason: ZERO_AMOUNT_REASON });
        continue;
      }
      transactions.push({
        date: row.date,
        description: limitDescription(row.description || NO_DESCRIPTION),
        amount: formatBankAmount(amount.abs()),
        type: amount.isNegative() ? 'debit' : 'credit',
        external_id: row.external_id,
      });
    }
    return {
      account_ref: stmt.account_ref,
      currency: stmt.currency,
      start_date: stmt.start_date,
      end_date: stmt.end_date,
      opening_balance: stmt.opening_balance ?? null,
      closing_balance: stmt.closing_balance ?? null,
      transactions,
    };
  });
  skipped.sort((a, b) => a.line - b.line);
  return { statements, skipped };
}
