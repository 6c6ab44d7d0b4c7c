import type Database from 'better-sqlite3';
import { openSqliteFile } from '../../server/db/sqlite.ts';

/**
 * The raw limits: each operation the API serves, done directly with better-sqlite3 on the same
 * ledger file (opened as the server opens it: the same pragmas), with prepared statements and no HTTP, no
 * validation, no JSON. It reads the maintained totals and indexes exactly as the app does, so the
 * gap between the two is what the API layers cost. This class: balances, reports and budgets from
 * the totals; RawPages (raw-pages.ts) adds registers and search, RawWriter (raw-writer.ts) the
 * writes, made on a copy of the file.
 */
export class RawLedger {
  readonly db: Database.Database;
  private readonly cache = new Map<string, Database.Statement>();

  constructor(file: string) {
    this.db = openSqliteFile(file);
  }

  protected st(sql: string): Database.Statement {
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
  protected sums(from: string | null, to: string, accountId?: string): Map<string, [bigint, bigint]> {
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

  protected accounts(): { id: string; name: string; type: string; currency: string }[] {
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
