import type { LedgerDb } from '../../db/stores.ts';
import type { RegisterLineDto, RegisterQuery } from '../../contract/register.ts';
import { normalBalance } from '../../domain/double-entry.ts';
import { formatMinor } from '../../domain/money.ts';
import { requireAccount } from '../accounts/accounts.service.ts';
import { accountTotalsAsOf } from '../totals/totals.queries.ts';
import { counterAccounts, linePage, linesInSpan } from './register.repository.ts';

/**
 * One page of an account's register (CONTRACT §15): the lines that count in its balance, newest
 * first, each with the balance just after it. The page's days come from the month and day counts
 * (the account's months, then one month's days), its lines from one index range over those days, and the balance at its newest day from the
 * maintained totals; the lines of that day newer than the page (at most one day's) are read to
 * step back from there. So any page costs about the same, however deep.
 */
export function registerPage(db: LedgerDb, accountId: string, query: RegisterQuery) {
  return db.readSnapshot(() => {
    const account = requireAccount(db, accountId);
    const range = { start: query.start_date, end: query.end_date };
    const offset = (query.page - 1) * query.per_page;
    const { total, span } = linePage(db, accountId, range, offset, query.per_page);
    const page = { total, page: query.page, per_page: query.per_page };
    if (!span) return { items: [] as RegisterLineDto[], ...page };

    const rows = linesInSpan(db, accountId, span, span.skip + query.per_page);
    const signed = (r: (typeof rows)[number]) =>
      r.direction === 'DEBIT'
        ? normalBalance(account.type, r.amountMinor, 0n)
        : normalBalance(account.type, 0n, r.amountMinor);
    const totals = accountTotalsAsOf(db, span.to, accountId).get(accountId);
    let balance = totals ? normalBalance(account.type, totals.a, totals.b) : 0n;
    for (const row of rows.slice(0, span.skip)) balance -= signed(row);

    const shown = rows.slice(span.skip);
    const counters = counterAccounts(
      db,
      shown.map((r) => r.entryId),
      accountId,
    );
    const items: RegisterLineDto[] = shown.map((row) => {
      const amount = signed(row);
      const item = {
        entry_id: row.entryId,
        line_id: row.lineId,
        entry_date: row.entryDate,
        memo: row.memo,
        counter_accounts: counters.get(row.entryId) ?? [],
        amount: formatMinor(amount, row.currency),
        currency: row.currency,
        running_balance: formatMinor(balance, account.currency),
        cleared: row.cleared,
        status: row.status,
      };
      balance -= amount;
      return item;
    });
    return { items, ...page };
  });
}
