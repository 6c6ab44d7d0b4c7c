import type { LedgerDb } from '../../db/stores.ts';
import type { Pair } from '../totals/totals.model.ts';
import type { BudgetLine } from './budgets.model.ts';

type Row = { month: string; account_id: string; amount_minor: bigint; carry_over: bigint };

const toLine = (r: Row): BudgetLine => ({
  month: r.month,
  accountId: r.account_id,
  amountMinor: r.amount_minor,
  carryOver: r.carry_over === 1n,
});

/** The budget lines of the months [from, to] (YYYY-MM): a range of the primary key. */
export function budgetLinesBetween(db: LedgerDb, from: string, to: string): BudgetLine[] {
  return db
    .allSql<Row>(
      'SELECT month, account_id, amount_minor, carry_over FROM budget_lines WHERE month >= ? AND month <= ? ORDER BY month',
      from,
      to,
    )
    .map(toLine);
}

export function replaceMonth(db: LedgerDb, month: string, lines: readonly BudgetLine[]): void {
  db.runSql('DELETE FROM budget_lines WHERE month = ?', month);
  for (const line of lines) {
    db.runSql(
      'INSERT INTO budget_lines (month, account_id, amount_minor, carry_over) VALUES (?, ?, ?, ?)',
      month,
      line.accountId,
      line.amountMinor,
      line.carryOver ? 1 : 0,
    );
  }
}

/** Debits and credits per account posted in the months [from, to], per month: the maintained month totals. */
export function monthTotalsBetween(db: LedgerDb, from: string, to: string): Map<string, Map<string, Pair>> {
  const out = new Map<string, Map<string, Pair>>();
  const rows = db.allSql<{ month: string; account_id: string; a: bigint; b: bigint }>(
    `SELECT month, account_id, debit_minor AS a, credit_minor AS b FROM account_month_totals
      WHERE month >= ? AND month <= ?`,
    from,
    to,
  );
  for (const row of rows) {
    let byAccount = out.get(row.month);
    if (!byAccount) out.set(row.month, (byAccount = new Map()));
    byAccount.set(row.account_id, { a: row.a, b: row.b });
  }
  return out;
}
