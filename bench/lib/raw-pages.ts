import { SEARCH_COUNT_AHEAD } from '../../server/contract/journal.ts';
import { RawLedger } from './raw.ts';

/** The raw limits of registers and search: pages read from the month and day counts, as the app reads them. */
export class RawPages extends RawLedger {
  /**
   * The days of page N from the month and day counts (migration month_counts), as the app finds
   * them: the months newest first to the one holding the page's first row, then that month's
   * days, and the next ones only as far as the page reaches. `range` is of whole months here.
   */
  private countedPage(
    days: string,
    months: string,
    count: string,
    where: { sql: string[]; params: unknown[] },
    range: { start?: string; end?: string },
    offset: number,
    perPage: number,
  ): { total: number; from: string; to: string; skip: number } | null {
    const monthWhere = [...where.sql];
    const monthParams = [...where.params];
    if (range.start) {
      monthWhere.push('month >= ?');
      monthParams.push(range.start.slice(0, 7));
    }
    if (range.end) {
      monthWhere.push('month <= ?');
      monthParams.push(range.end.slice(0, 7));
    }
    const list = this.st(
      `SELECT month, SUM(${count}) n FROM ${months} ${monthWhere.length ? `WHERE ${monthWhere.join(' AND ')}` : ''} GROUP BY month ORDER BY month DESC`,
    ).all(...monthParams) as { month: string; n: bigint }[];
    const total = list.reduce((sum, m) => sum + Number(m.n), 0);
    if (offset >= total) return null;
    const dayRows = this.st(
      `SELECT day, SUM(${count}) n FROM ${days} WHERE ${[...where.sql, 'day >= ?', 'day <= ?'].join(' AND ')} GROUP BY day ORDER BY day DESC`,
    );
    let before = 0;
    let to: string | null = null;
    let skip = 0;
    let from = '';
    for (const month of list) {
      const n = Number(month.n);
      if (to === null && before + n <= offset) {
        before += n;
        continue;
      }
      for (const day of dayRows.iterate(...where.params, `${month.month}-01`, `${month.month}-31`) as IterableIterator<{
        day: string;
        n: bigint;
      }>) {
        const k = Number(day.n);
        if (to === null && before + k > offset) {
          to = day.day;
          skip = offset - before;
        }
        before += k;
        from = day.day;
        if (to !== null && before >= offset + perPage) return { total, from, to, skip };
      }
    }
    return to === null ? null : { total, from, to, skip };
  }

  /**
   * A register page as the app reads it: the exact total and the page's days from the month and
   * day counts, then an index range of the page's days, then the lines.
   */
  register(filter: { accountId?: string; start?: string; end?: string }, page: number, perPage: number): number {
    const span = filter.accountId
      ? this.countedPage(
          'account_day_counts',
          'account_month_counts',
          'entries',
          { sql: ['account_id = ?'], params: [filter.accountId] },
          filter,
          (page - 1) * perPage,
          perPage,
        )
      : this.countedPage(
          'journal_day_counts',
          'journal_month_counts',
          'entries',
          { sql: [], params: [] },
          filter,
          (page - 1) * perPage,
          perPage,
        );
    if (!span) return 0;
    const { from, to, skip } = span;
    const rows = (
      filter.accountId
        ? this.st(
            `SELECT e.* FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
              WHERE l.account_id = ? AND l.entry_date >= ? AND l.entry_date <= ?
                AND NOT EXISTS (SELECT 1 FROM journal_lines o WHERE o.entry_id = l.entry_id AND +o.account_id = l.account_id AND o.line_no < l.line_no)
              ORDER BY l.entry_date DESC, e.created_at DESC, e.seq DESC LIMIT ? OFFSET ?`,
          ).all(filter.accountId, from, to, perPage, skip)
        : this.st(
            'SELECT e.* FROM journal_entries e WHERE e.entry_date >= ? AND e.entry_date <= ? ORDER BY e.entry_date DESC, e.created_at DESC, e.seq DESC LIMIT ? OFFSET ?',
          ).all(from, to, perPage, skip)
    ) as { id: string }[];
    return this.lines(rows.map((r) => r.id));
  }

  /**
   * A page of an account's register (GET /api/accounts/{id}/register) as the app reads it: the
   * total and the page's days from the per-account line counts, the page's lines over those days,
   * the balance at its newest day from the totals, and the entries' other accounts.
   */
  accountRegister(accountId: string, page: number, perPage: number): number {
    const span = this.countedPage(
      'account_day_lines',
      'account_month_lines',
      'lines',
      { sql: ['account_id = ?'], params: [accountId] },
      {},
      (page - 1) * perPage,
      perPage,
    );
    if (!span) return 0;
    const { from, to, skip } = span;
    const rows = this.st(
      `SELECT l.id, l.entry_id, l.entry_date, e.memo, l.direction, l.amount_minor, l.currency, e.status
         FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
        WHERE l.account_id = ? AND l.entry_date >= ? AND l.entry_date <= ? AND +e.status IN ('posted', 'void')
        ORDER BY l.entry_date DESC, e.created_at DESC, e.seq DESC, l.line_no DESC LIMIT ?`,
    ).all(accountId, from, to, skip + perPage) as { entry_id: string }[];
    this.sums(null, to, accountId);
    const ids = [...new Set(rows.slice(skip).map((r) => r.entry_id))];
    if (ids.length === 0) return 0;
    return this.st(
      `SELECT l.entry_id, l.account_id, a.name FROM journal_lines l JOIN accounts a ON a.id = l.account_id
        WHERE l.entry_id IN (${ids.map(() => '?').join(', ')}) ORDER BY l.entry_id, l.line_no`,
    ).all(...ids).length;
  }

  /**
   * A page of a search for memo words (`q=` on the entry list): the FTS5 memo index, whose keys are
   * the listing's order (date, then creation), its matches counted up to 1,000 past the page and
   * the page's keys read newest first, then only the page's entries.
   */
  searchWords(match: string, perPage: number): number {
    const body = 'FROM entry_search WHERE entry_search MATCH ?';
    this.st(`SELECT COUNT(*) n FROM (SELECT 1 ${body} LIMIT ?)`).get(match, perPage + SEARCH_COUNT_AHEAD);
    const keys = this.st(`SELECT rowid & 4294967295 AS seq ${body} ORDER BY rowid DESC LIMIT ?`).all(
      match,
      perPage,
    ) as {
      seq: bigint;
    }[];
    if (keys.length === 0) return 0;
    const rows = this.st(`SELECT e.* FROM journal_entries e WHERE seq IN (${keys.map(() => '?').join(', ')})`).all(
      ...keys.map((k) => k.seq),
    ) as { id: string }[];
    return this.lines(rows.map((r) => r.id));
  }

  /**
   * A page of a search for an amount: the entries with a line of it (the amounts' index) or the
   * number in their memo (the memo index), counted up to 1,000 past the page, newest first.
   */
  searchAmount(minor: bigint, currency: string, memoPhrase: string, perPage: number): number {
    const body = `FROM journal_entries e WHERE (e.id IN (SELECT entry_id FROM journal_lines WHERE amount_minor = ? AND currency = ?)
       OR e.seq IN (SELECT rowid & 4294967295 FROM entry_search WHERE entry_search MATCH ?))`;
    this.st(`SELECT COUNT(*) n FROM (SELECT 1 ${body} LIMIT ?)`).get(
      minor,
      currency,
      memoPhrase,
      perPage + SEARCH_COUNT_AHEAD,
    );
    const rows = this.st(`SELECT e.* ${body} ORDER BY e.entry_date DESC, e.seq DESC LIMIT ?`).all(
      minor,
      currency,
      memoPhrase,
      perPage,
    ) as { id: string }[];
    return this.lines(rows.map((r) => r.id));
  }

  private lines(ids: readonly string[]): number {
    if (ids.length === 0) return 0;
    const marks = ids.map(() => '?').join(',');
    return this.st(
      `SELECT l.id, l.entry_id, l.account_id, a.name, l.direction, l.amount_minor, l.currency FROM journal_lines l JOIN accounts a ON a.id = l.account_id WHERE l.entry_id IN (${marks}) ORDER BY l.entry_id, l.line_no`,
    ).all(...ids).length;
  }
}
