import type Database from 'better-sqlite3';
import { SEARCH_COUNT_AHEAD } from '../../server/contract/journal.ts';
import { newRowId } from '../../server/db/ids.ts';
import { openSqliteFile } from '../../server/db/sqlite.ts';

/**
 * The raw limits: each operation the API serves, done directly with better-sqlite3 on the same
 * ledger file (opened as the server opens it: the same pragmas), with prepared statements and no HTTP, no
 * validation, no JSON. It reads the maintained totals and indexes exactly as the app does, so the
 * gap between the two is what the API layers cost. Writes go to a copy of the file.
 */
export class RawLedger {
  readonly db: Database.Database;
  private readonly cache = new Map<string, Database.Statement>();

  constructor(file: string) {
    this.db = openSqliteFile(file);
  }

  private st(sql: string): Database.Statement {
    let s = this.cache.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      if (s.reader) s.safeIntegers(true);
      this.cache.set(sql, s);
    }
    return s;
  }

  close(): void {
    this.db.close();
  }

  /** Debit and credit sums per account over [from, to] from the month totals and the day totals at the edges. */
  private sums(from: string | null, to: string, accountId?: string): Map<string, [bigint, bigint]> {
    const out = new Map<string, [bigint, bigint]>();
    const add = (rows: { account_id: string; a: bigint; b: bigint }[]) => {
      for (const r of rows) {
        const p = out.get(r.account_id) ?? [0n, 0n];
        p[0] += r.a;
        p[1] += r.b;
        out.set(r.account_id, p);
      }
    };
    const filter = accountId ? ' AND account_id = ?' : '';
    const extra = accountId ? [accountId] : [];
    const months = (a: string, b: string) =>
      add(
        this.st(
          `SELECT account_id, SUM(debit_minor) a, SUM(credit_minor) b FROM account_month_totals WHERE month >= ? AND month <= ?${filter} GROUP BY account_id`,
        ).all(a, b, ...extra) as never,
      );
    const days = (a: string, b: string) =>
      add(
        this.st(
          `SELECT account_id, SUM(debit_minor) a, SUM(credit_minor) b FROM account_day_totals WHERE day >= ? AND day <= ?${filter} GROUP BY account_id`,
        ).all(a, b, ...extra) as never,
      );
    const month = to.slice(0, 7);
    const start = from ?? '0000-01-01';
    if (start.slice(0, 7) === month) {
      days(start, to);
      return out;
    }
    let firstFull = start.slice(0, 7);
    if (!start.endsWith('-01')) {
      days(start, `${start.slice(0, 7)}-31`);
      firstFull = nextMonth(firstFull);
    }
    const prev = previousMonth(month);
    if (firstFull <= prev) months(from === null ? '' : firstFull, prev);
    days(`${month}-01`, to);
    return out;
  }

  private accounts(): { id: string; name: string; type: string; currency: string }[] {
    return this.st(
      'SELECT id, name, type, currency, parent_id, is_active FROM accounts ORDER BY name_key, id',
    ).all() as never;
  }

  /** All balances as of a date: what GET /api/accounts/balances reads. */
  balances(asOf: string): number {
    const sums = this.sums(null, asOf);
    let n = 0;
    for (const a of this.accounts()) {
      const p = sums.get(a.id);
      if (p) n += Number((p[0] - p[1]) & 1n);
    }
    return n;
  }

  accountBalance(id: string, asOf: string): bigint {
    this.st('SELECT id, name, type, currency FROM accounts WHERE id = ?').get(id);
    const p = this.sums(null, asOf, id).get(id);
    return p ? p[0] - p[1] : 0n;
  }

  incomeStatement(start: string, end: string): number {
    const sums = this.sums(start, end);
    return this.accounts().filter((a) => sums.has(a.id)).length;
  }

  /** Month-end balances over a range: the opening sums and one grouped read of the month totals. */
  netWorth(start: string, end: string): number {
    const opening = this.sums(null, previousDay(start));
    const rows = this.st(
      'SELECT month, account_id, SUM(debit_minor) a, SUM(credit_minor) b FROM account_month_totals WHERE month >= ? AND month <= ? GROUP BY month, account_id',
    ).all(start.slice(0, 7), end.slice(0, 7)) as unknown[];
    this.accounts();
    return opening.size + rows.length;
  }

  /** The latest rate of a currency into `target` on or before each of `days`: its pair's prices, or the opposite pair's. */
  private ratesOn(currency: string, target: string, upTo: string): { dates: string[]; direct: boolean }[] {
    const read = (from: string, to: string) =>
      this.st(
        'SELECT date, rate FROM prices WHERE from_currency = ? AND to_currency = ? AND date <= ? ORDER BY date',
      ).all(from, to, upTo) as { date: string; rate: string }[];
    return [
      { dates: read(currency, target).map((r) => r.date), direct: true },
      { dates: read(target, currency).map((r) => r.date), direct: false },
    ];
  }

  /** All balances at as_of in one currency: the same sums, then one price look-up per currency. */
  convertedBalances(asOf: string, target: string): number {
    const sums = this.sums(null, asOf);
    const accounts = this.accounts();
    let n = 0;
    for (const currency of new Set(accounts.map((a) => a.currency))) {
      if (currency === target) continue;
      const direct = this.st(
        'SELECT rate FROM prices WHERE from_currency = ? AND to_currency = ? AND date <= ? ORDER BY date DESC LIMIT 1',
      ).get(currency, target, asOf);
      if (!direct)
        this.st(
          'SELECT rate FROM prices WHERE from_currency = ? AND to_currency = ? AND date <= ? ORDER BY date DESC LIMIT 1',
        ).get(target, currency, asOf);
      n++;
    }
    return n + sums.size;
  }

  /** A year's income statement in one currency: month sums for the target's accounts, day totals of the others, their rates. */
  convertedIncomeStatement(start: string, end: string, target: string): number {
    const sums = this.sums(start, end);
    let n = sums.size;
    const accounts = this.accounts().filter((a) => a.type === 'INCOME' || a.type === 'EXPENSE');
    for (const currency of new Set(accounts.map((a) => a.currency)))
      if (currency !== target) this.ratesOn(currency, target, end);
    for (const a of accounts) {
      if (a.currency === target) continue;
      n += (
        this.st(
          'SELECT day, debit_minor a, credit_minor b FROM account_day_totals WHERE account_id = ? AND day >= ? AND day <= ?',
        ).all(a.id, start, end) as unknown[]
      ).length;
    }
    return n;
  }

  /** Month-end balances in one currency: the series' reads, and one rate per currency and month end. */
  convertedNetWorth(start: string, end: string, target: string): number {
    const n = this.netWorth(start, end);
    const currencies = new Set(this.accounts().map((a) => a.currency));
    for (const currency of currencies) if (currency !== target) this.ratesOn(currency, target, end);
    return n;
  }

  /** One month's month totals per account (the budget's actuals). */
  private monthTotals(month: string): Map<string, [bigint, bigint]> {
    const rows = this.st(
      'SELECT account_id, debit_minor a, credit_minor b FROM account_month_totals WHERE month >= ? AND month <= ?',
    ).all(month, month) as { account_id: string; a: bigint; b: bigint }[];
    return new Map(rows.map((r) => [r.account_id, [r.a, r.b]]));
  }

  /**
   * A month's budget as GET /api/budgets/{month} reads it, in one read transaction: the accounts,
   * the month's budget lines and month totals, then the carry-over months before it a year at a
   * time (one range of budget lines and one of month totals a year) while any line's run goes on.
   */
  budgetMonth(month: string): number {
    return this.db
      .transaction(() => {
        this.accounts();
        type Line = { month: string; account_id: string; amount_minor: bigint; carry_over: bigint };
        const linesOf = (from: string, to: string) =>
          this.st(
            'SELECT month, account_id, amount_minor, carry_over FROM budget_lines WHERE month >= ? AND month <= ? ORDER BY month',
          ).all(from, to) as Line[];
        const lines = linesOf(month, month);
        this.monthTotals(month);
        const expected = new Map(lines.map((l) => [l.account_id, previousMonth(month)]));
        let carried = 0n;
        for (let end = previousMonth(month); expected.size > 0;) {
          let start = end;
          for (let i = 1; i < 12; i++) start = previousMonth(start);
          const before = new Map(linesOf(start, end).map((l) => [`${l.account_id} ${l.month}`, l]));
          const totals = this.st(
            'SELECT month, account_id, debit_minor AS a, credit_minor AS b FROM account_month_totals WHERE month >= ? AND month <= ?',
          ).all(start, end) as { month: string; account_id: string; a: bigint; b: bigint }[];
          const byKey = new Map(totals.map((t) => [`${t.account_id} ${t.month}`, t]));
          for (const [id, from] of expected) {
            let at = from;
            for (;;) {
              if (at < start) {
                expected.set(id, at);
                break;
              }
              const line = before.get(`${id} ${at}`);
              if (!line || line.carry_over !== 1n) {
                expected.delete(id);
                break;
              }
              const t = byKey.get(`${id} ${at}`);
              carried += line.amount_minor - (t ? t.a - t.b : 0n);
              at = previousMonth(at);
            }
          }
          end = previousMonth(start);
        }
        return lines.length + Number(carried & 1n);
      })
      .deferred();
  }

  /** A year's budget against actual: the year's budget lines and its month totals. */
  budgetYear(year: string): number {
    this.accounts();
    const lines = this.st(
      'SELECT month, account_id, amount_minor, carry_over FROM budget_lines WHERE month >= ? AND month <= ? ORDER BY month',
    ).all(`${year}-01`, `${year}-12`) as unknown[];
    const rows = this.st(
      'SELECT month, account_id, debit_minor AS a, credit_minor AS b FROM account_month_totals WHERE month >= ? AND month <= ?',
    ).all(`${year}-01`, `${year}-12`) as unknown[];
    return lines.length + rows.length;
  }

  /** The same month's actuals summed from the lines instead of the totals: what the totals save. */
  monthFromLines(month: string): number {
    return (
      this.st(
        `SELECT l.account_id, SUM(l.amount_minor) s FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
          WHERE l.entry_date >= ? AND l.entry_date <= ? AND e.status IN ('posted', 'void') GROUP BY l.account_id`,
      ).all(`${month}-01`, `${month}-31`) as unknown[]
    ).length;
  }

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

  protected lines(ids: readonly string[]): number {
    if (ids.length === 0) return 0;
    const marks = ids.map(() => '?').join(',');
    return this.st(
      `SELECT l.id, l.entry_id, l.account_id, a.name, l.direction, l.amount_minor, l.currency FROM journal_lines l JOIN accounts a ON a.id = l.account_id WHERE l.entry_id IN (${marks}) ORDER BY l.entry_id, l.line_no`,
    ).all(...ids).length;
  }

  /**
   * One posted entry in its own transaction, as the app writes it: the entry, its lines, and the
   * day, month and cash-flow totals. The rate of these is the floor of posting over HTTP.
   */
  postEntry(date: string, debitAccount: string, creditAccount: string, minor: bigint, currency: string): void {
    const now = new Date().toISOString();
    this.db.transaction(() => this.writeEntry(date, debitAccount, creditAccount, minor, currency, now)).immediate();
  }

  /**
   * The same entry as a savepoint of a transaction the caller holds open (BEGIN IMMEDIATE … COMMIT
   * around many of these): the bare route's group commit.
   */
  postEntryInOpenTransaction(
    date: string,
    debitAccount: string,
    creditAccount: string,
    minor: bigint,
    currency: string,
  ): void {
    if (!this.db.inTransaction) throw new Error('no transaction is open');
    const now = new Date().toISOString();
    this.db.transaction(() => this.writeEntry(date, debitAccount, creditAccount, minor, currency, now))();
  }

  /** Many such entries in one transaction: the floor of a batch of entries posted in one request. */
  postEntries(
    entries: readonly { date: string; debit: string; credit: string; minor: bigint; currency: string }[],
  ): void {
    const now = new Date().toISOString();
    this.db
      .transaction(() => {
        for (const e of entries) this.writeEntry(e.date, e.debit, e.credit, e.minor, e.currency, now);
      })
      .immediate();
  }

  private writeEntry(
    date: string,
    debitAccount: string,
    creditAccount: string,
    minor: bigint,
    currency: string,
    now: string,
  ): void {
    const id = newRowId();
    const seq = (this.st('SELECT MAX(seq) s FROM journal_entries').get() as { s: bigint | null }).s ?? 0n;
    this.st(
      `INSERT INTO journal_entries (id, seq, entry_date, memo, status, source_type, created_at, updated_at, posted_at) VALUES (?, ?, ?, ?, 'posted', 'manual', ?, ?, ?)`,
    ).run(id, seq + 1n, date, 'Raw posting', now, now, now);
    this.insertLine(id, 1n, debitAccount, 'DEBIT', minor, currency, date, seq + 1n, now);
    this.insertLine(id, 2n, creditAccount, 'CREDIT', minor, currency, date, seq + 1n, now);
    for (const [account, d, c] of [
      [debitAccount, minor, 0n],
      [creditAccount, 0n, minor],
    ] as const) {
      this.st('SELECT SUM(debit_minor), SUM(credit_minor) FROM account_month_totals WHERE account_id = ?').get(account);
      this.st(
        'INSERT INTO account_day_totals (account_id, day, debit_minor, credit_minor) VALUES (?, ?, ?, ?) ON CONFLICT (account_id, day) DO UPDATE SET debit_minor = debit_minor + excluded.debit_minor, credit_minor = credit_minor + excluded.credit_minor',
      ).run(account, date, d, c);
      this.st(
        'INSERT INTO account_month_totals (account_id, month, debit_minor, credit_minor) VALUES (?, ?, ?, ?) ON CONFLICT (account_id, month) DO UPDATE SET debit_minor = debit_minor + excluded.debit_minor, credit_minor = credit_minor + excluded.credit_minor',
      ).run(account, date.slice(0, 7), d, c);
    }
    this.st(
      'INSERT INTO cash_flow_day_totals (account_id, day, in_minor, out_minor) VALUES (?, ?, ?, ?) ON CONFLICT (account_id, day) DO UPDATE SET in_minor = in_minor + excluded.in_minor, out_minor = out_minor + excluded.out_minor',
    ).run(debitAccount, date, 0n, minor);
    this.st(
      'INSERT INTO cash_flow_month_totals (account_id, month, in_minor, out_minor) VALUES (?, ?, ?, ?) ON CONFLICT (account_id, month) DO UPDATE SET in_minor = in_minor + excluded.in_minor, out_minor = out_minor + excluded.out_minor',
    ).run(debitAccount, date.slice(0, 7), 0n, minor);
  }

  protected insertLine(
    entryId: string,
    lineNo: bigint,
    account: string,
    direction: string,
    minor: bigint,
    currency: string,
    date: string,
    _seq: bigint,
    _createdAt: string,
  ): void {
    this.st(
      'INSERT INTO journal_lines (id, entry_id, line_no, account_id, direction, amount_minor, currency, entry_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(newRowId(), entryId, lineNo, account, direction, minor, currency, date);
  }

  /** A statement and its bank transactions in one transaction, with the dedupe lookups the app makes. */
  importStatement(
    accountId: string,
    rows: readonly { date: string; description: string; amount: string; type: string; external_id: string }[],
  ): string {
    const now = new Date().toISOString();
    const statementId = newRowId();
    this.db
      .transaction(() => {
        const keys = rows.map((r) => `ext:raw-${statementId}-${r.external_id}#1`);
        for (let i = 0; i < keys.length; i += 500) {
          const chunk = keys.slice(i, i + 500);
          this.st(
            `SELECT dedupe_key FROM bank_transactions WHERE account_id = ? AND dedupe_key IN (${chunk.map(() => '?').join(',')})`,
          ).all(accountId, ...chunk);
        }
        const seq = (this.st('SELECT MAX(seq) s FROM statements').get() as { s: bigint | null }).s ?? 0n;
        this.st(
          `INSERT INTO statements (id, seq, account_id, name, source, imported_count, duplicate_count, start_date, end_date, created_at) VALUES (?, ?, ?, 'raw', 'json', ?, 0, ?, ?, ?)`,
        ).run(
          statementId,
          seq + 1n,
          accountId,
          BigInt(rows.length),
          rows[0]?.date ?? null,
          rows.at(-1)?.date ?? null,
          now,
        );
        let txnSeq = ((this.st('SELECT MAX(seq) s FROM bank_transactions').get() as { s: bigint | null }).s ?? 0n) + 1n;
        const insert = this.st(
          'INSERT INTO bank_transactions (id, seq, statement_id, account_id, date, description, amount_minor, type, external_id, dedupe_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        );
        rows.forEach((r, i) => {
          const minor = BigInt(r.amount.replace('.', ''));
          insert.run(
            newRowId(),
            txnSeq++,
            statementId,
            accountId,
            r.date,
            r.description,
            minor,
            r.type,
            r.external_id,
            keys[i]!,
            now,
          );
        });
      })
      .immediate();
    return statementId;
  }

  /**
   * The data side of a reconciliation run: the statement's unreconciled transactions, the
   * candidate entries of the account over their dates (±30 days) with their counter accounts,
   * and one match row written per transaction. The scoring itself is the app's CPU work.
   */
  reconciliationData(statementId: string, accountId: string): number {
    const runId = newRowId();
    const now = new Date().toISOString();
    let written = 0;
    this.db
      .transaction(() => {
        const txns = this.st(
          `SELECT t.id, t.date, t.amount_minor FROM bank_transactions t WHERE t.statement_id = ? AND NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.bank_transaction_id = t.id AND m.status IN ('auto_accepted', 'accepted')) ORDER BY t.date, t.seq`,
        ).all(statementId) as { id: string; date: string }[];
        if (txns.length === 0) return;
        const entries = this.st(
          `SELECT e.id, e.entry_date, e.memo, SUM(CASE l.direction WHEN 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) net
             FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
            WHERE l.account_id = ? AND l.entry_date >= ? AND l.entry_date <= ? AND e.status = 'posted' AND e.reverses_entry_id IS NULL
            GROUP BY e.id ORDER BY e.entry_date, e.seq`,
        ).all(accountId, txns[0]!.date, txns.at(-1)!.date) as { id: string }[];
        const ids = entries.map((e) => e.id);
        for (let i = 0; i < ids.length; i += 500) {
          const chunk = ids.slice(i, i + 500);
          this.st(
            `SELECT l.entry_id, a.id, a.type FROM journal_lines l JOIN accounts a ON a.id = l.account_id WHERE l.entry_id IN (${chunk.map(() => '?').join(',')}) AND l.account_id != ?`,
          ).all(...chunk, accountId);
        }
        this.st(
          `INSERT INTO reconciliation_runs (id, statement_id, account_id, total_transactions, auto_accepted, pending_review, unmatched, created_at, completed_at) VALUES (?, ?, ?, ?, 0, 0, 0, ?, ?)`,
        ).run(runId, statementId, accountId, BigInt(txns.length), now, now);
        const insert = this.st(
          `INSERT INTO reconciliation_matches (id, run_id, bank_transaction_id, entry_id, status, score, score_amount, score_date, score_description, score_business, score_history, created_at, updated_at) VALUES (?, ?, ?, ?, 'pending', 90, 40, 25, 15, 5, 5, ?, ?)`,
        );
        txns.forEach((t, i) => {
          if (i >= ids.length) return;
          insert.run(newRowId(), runId, t.id, ids[i]!, now, now);
          written += 1;
        });
      })
      .immediate();
    return written;
  }
}

function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

function previousDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}
