import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catchPrepared, offenders, planOf, readOnly, seedBooks, type Books } from './plans.ts';

let books: Books;
beforeAll(async () => {
  books = await seedBooks();
});
afterAll(() => books.t.stop());

describe('the queries behind the screens', () => {
  it('when every screen is read, then no query scans the lines, entries or bank transactions whole', async () => {
    const { t, token, bank, food, statementId } = books;
    const screens = [
      '/api/accounts',
      '/api/accounts/balances',
      '/api/accounts/balances?as_of=2026-02-15',
      `/api/accounts/${bank}/balance?as_of=2026-02-15`,
      '/api/reports/balance-sheet?as_of=2026-02-28',
      '/api/reports/income-statement?start_date=2026-01-01&end_date=2026-03-31',
      '/api/reports/net-worth?start_date=2026-01-01&end_date=2026-03-31&interval=month',
      '/api/reports/cash-flow?start_date=2026-01-01&end_date=2026-03-31&interval=month',
      '/api/reports/income-expenses?start_date=2025-12-15&end_date=2026-03-20',
      '/api/journal-entries',
      '/api/journal-entries?page=2&per_page=10',
      `/api/journal-entries?account_id=${bank}&per_page=10&page=2`,
      '/api/journal-entries?start_date=2026-02-01&end_date=2026-02-28&per_page=5&page=2',
      '/api/statements',
      `/api/statements/${statementId}/transactions?per_page=5&page=2`,
      '/api/reconciliation/pending',
      '/api/reconciliation/stats',
      '/api/reconciliation/unmatched',
      '/api/reconciliation/unmatched?page=2&per_page=1',
      `/api/reconciliation/unmatched?statement_id=${statementId}&per_page=1&page=2`,
      '/api/reconciliation/matches?status=auto_accepted',
      `/api/reconciliation/matches?status=accepted&statement_id=${statementId}`,
      `/api/statements/${statementId}`,
      '/api/rules',
      `/api/accounts/${bank}/reconcile?statement_date=2026-03-31&statement_balance=0`,
      `/api/accounts/${bank}/reconciliations`,
      `/api/accounts/${bank}/unreconciled-lines?statement_date=2026-03-31`,
      `/api/accounts/${bank}/unreconciled-lines?statement_date=2026-02-15&per_page=3&page=2`,
      `/api/accounts/${bank}/register`,
      `/api/accounts/${bank}/register?page=3&per_page=4`,
      `/api/accounts/${bank}/register?start_date=2026-02-01&end_date=2026-02-28&per_page=3&page=2`,
      `/api/accounts/${bank}/register?start_date=2026-01-15&end_date=2026-03-10&per_page=3&page=4`,
      `/api/journal-entries?account_id=${food}&status=posted&start_date=2026-01-15&end_date=2026-03-10&per_page=3&page=3`,
      '/api/journal-entries?status=posted&start_date=2026-01-15&per_page=4&page=3',
      '/api/journal-entries?q=shop&per_page=4&page=2&end_date=2026-02-20',
      '/api/journal-entries?q=shop',
      `/api/journal-entries?q=shop%2012&status=posted&account_id=${bank}&start_date=2026-01-01&end_date=2026-02-28&page=2&per_page=3`,
      '/api/journal-entries?q=5.25',
      '/api/journal-entries?amount_min=5&amount_max=6.25',
      `/api/journal-entries?amount_min=5&status=posted&account_id=${food}&start_date=2026-01-01&per_page=5&page=2`,
      '/api/journal-entries?q=shop&amount_max=12.25',
      // a bank line's description (the run matched SHOP n to Shop n), an account's name and path
      '/api/journal-entries?q=SHOP%203&status=posted',
      '/api/journal-entries?q=food',
      '/api/journal-entries?q=Expenses%3AFood&start_date=2026-02-01&end_date=2026-02-28&per_page=3&page=2',
      `/api/journal-entries?q=shop%20food%20bank&account_id=${bank}&per_page=3&page=2`,
      '/api/journal-entries?q=food%205.25&end_date=2026-03-31',
      `/api/journal-entries?q=5.25%2012.25&source_type=manual&account_id=${food}&start_date=2026-01-01&end_date=2026-03-31&per_page=5&page=2`,
      '/api/accounts/balances?as_of=2026-02-15&convert_to=USD',
      '/api/reports/trial-balance?as_of=2026-02-28&convert_to=EUR',
      '/api/reports/balance-sheet?as_of=2026-02-28&convert_to=USD',
      '/api/reports/income-statement?start_date=2026-01-01&end_date=2026-03-31&convert_to=EUR',
      '/api/reports/net-worth?start_date=2026-01-01&end_date=2026-03-31&interval=month&convert_to=USD',
      '/api/reports/cash-flow?start_date=2026-01-01&end_date=2026-03-31&interval=month&convert_to=USD',
      '/api/reports/income-expenses?start_date=2026-01-01&end_date=2026-03-31&convert_to=USD',
      '/api/prices',
      '/api/prices?from=EUR&to=USD&page=2&per_page=1',
      '/api/prices/latest',
      '/api/prices/convert?amount=10.00&from=EUR&to=USD&date=2026-02-15',
      '/api/settings',
    ];
    const { caught, stop } = catchPrepared(books.file);
    try {
      for (const screen of screens) expect((await t.api.get(screen, token)).status, screen).toBe(200);
    } finally {
      stop();
    }
    expect(caught.size).toBeGreaterThan(10);
    const read = [...caught];
    // the unmatched list looks for each line's transfer (the other side's index of amounts and dates)
    expect(read.some((sql) => /t\.amount_minor = \? AND t\.date >= \?/.test(sql))).toBe(true);
    readOnly(books.file, (db) => {
      expect(offenders(db, read)).toEqual([]);
      // a page is found from the month counts, then one month's day counts (migration month_counts):
      // an account's are a range of its own rows, never every account's
      for (const table of ['account_month_lines', 'account_month_counts', 'journal_month_counts']) {
        expect(
          read.filter((sql) => sql.includes(`FROM ${table}`)),
          table,
        ).not.toEqual([]);
      }
      const accountCounts = read.filter((sql) =>
        /FROM account_(day|month)_(lines|counts) WHERE account_id = \?/.test(sql),
      );
      expect(accountCounts.length).toBeGreaterThanOrEqual(4);
      for (const sql of accountCounts) {
        expect(
          planOf(db, sql).filter((d) => /^SCAN /.test(d)),
          sql,
        ).toEqual([]);
        expect(
          planOf(db, sql).some((d) => /^SEARCH account_\w+ USING PRIMARY KEY \(account_id=\?/.test(d)),
          sql,
        ).toBe(true);
      }
      // a word search without other filters: the memo index alone gives the page's keys and the
      // count, and only the page's entries are read, by their sequence number
      const wordsOnly = read.filter((sql) => /^SELECT .* FROM entry_search WHERE entry_search MATCH \?/s.test(sql));
      expect(wordsOnly.length).toBeGreaterThanOrEqual(1);
      const bySeq = read.filter((sql) => /FROM journal_entries WHERE seq IN \(/.test(sql));
      expect(bySeq.length).toBeGreaterThanOrEqual(1);
      for (const sql of bySeq)
        expect(planOf(db, sql).join('\n'), sql).toMatch(/^SEARCH journal_entries USING INDEX \w+ \(seq=\?\)$/m);
      // a search checks each entry it finds against its own lines, never along an index of all lines
      // an amount range alone: its lines are a range of the amount index
      const ranges = read.filter((sql) => /SELECT entry_id FROM journal_lines WHERE \(amount_minor BETWEEN/.test(sql));
      expect(ranges.length).toBeGreaterThanOrEqual(1);
      for (const sql of ranges)
        expect(planOf(db, sql).join('\n'), sql).toMatch(
          /SEARCH journal_lines USING (COVERING )?INDEX journal_lines_by_amount \(amount_minor>\? AND amount_minor<\?\)/,
        );
      // a word naming an account drives by the lines of its accounts: a range of the account index
      const byAccount = read.filter((sql) =>
        /e\.id IN \(SELECT entry_id FROM journal_lines WHERE account_id IN \(SELECT account_id FROM account_search/.test(
          sql,
        ),
      );
      expect(byAccount.length).toBeGreaterThanOrEqual(2);
      for (const sql of byAccount)
        expect(planOf(db, sql).join('\n'), sql).toMatch(
          /SEARCH journal_lines USING COVERING INDEX journal_lines_by_account \(account_id=\?( AND entry_date>\?)?( AND entry_date<\?)?\)$/m,
        );
      const perEntry = read.filter((sql) => /^SELECT.*FROM journal_lines (am|al|ar|an) WHERE/s.test(sql));
      expect(perEntry.length).toBeGreaterThan(0);
      const lookups = perEntry.flatMap((sql) => planOf(db, sql).filter((d) => /^SEARCH (am|al|ar|an)\b/.test(d)));
      expect(lookups.length).toBeGreaterThan(0);
      expect(
        lookups.filter((d) => !/\((entry_id=\?|account_id=\? AND entry_date=\? AND entry_id=\?)\)$/.test(d)),
      ).toEqual([]);
    });
  });
});
