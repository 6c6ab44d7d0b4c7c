import { monthOf } from '../domain/dates.ts';
import type { LedgerDb } from './stores.ts';

/**
 * Pages of a listing found from its kept counts: a day table (`day`, the count column, keys) and a
 * month table beside it whose rows are the sums of the day rows (migration month_counts). Page N's
 * days are found by walking the months newest first to the one holding its first row, then that
 * month's days (and the next ones', only as far as the page reaches): a dozen rows a year and at
 * most a month of days, however deep the page. The total is the sum of the same months.
 */
export interface CountTables {
  /** the day table: a `day` column */
  days: string;
  /** the month table: a `month` column, each row the sum of its month's day rows */
  months: string;
  /** the count column of both */
  count: string;
}

/** Conditions on the other key columns, the same in both tables (`account_id = ?`), ANDed. */
export interface CountFilter {
  sql: string[];
  params: unknown[];
}

export interface DateRange {
  start?: string | undefined;
  end?: string | undefined;
}

/** The days a page spans (newest `to`, oldest `from`), and how many rows of day `to` come before it. */
export interface PageSpan {
  from: string;
  to: string;
  skip: number;
}

type Counted = { period: string; n: bigint | number | null };

/**
 * The listing's rows per month within the range, newest first. A month the range cuts (the end's
 * and the start's) is the sum of its day rows within the range; the months between are month rows.
 */
function monthsIn(db: LedgerDb, tables: CountTables, filter: CountFilter, range: DateRange): Counted[] {
  const cond = (more: string[]) => {
    const all = [...filter.sql, ...more];
    return all.length ? `WHERE ${all.join(' AND ')}` : '';
  };
  const daySum = (from: string, to: string): Counted => {
    const [row] = db.allSql<{ n: bigint | null }>(
      `SELECT SUM(${tables.count}) AS n FROM ${tables.days} ${cond(['day >= ?', 'day <= ?'])}`,
      ...filter.params,
      from,
      to,
    );
    return { period: monthOf(from), n: row?.n ?? 0n };
  };
  const startMonth = range.start === undefined ? undefined : monthOf(range.start);
  const endMonth = range.end === undefined ? undefined : monthOf(range.end);
  const more: string[] = [];
  const params: unknown[] = [];
  if (startMonth !== undefined) {
    more.push('month > ?');
    params.push(startMonth);
  }
  if (endMonth !== undefined) {
    more.push('month < ?');
    params.push(endMonth);
  }
  const middle = db.allSql<Counted>(
    `SELECT month AS period, SUM(${tables.count}) AS n FROM ${tables.months} ${cond(more)} GROUP BY month ORDER BY month DESC`,
    ...filter.params,
    ...params,
  );
  const out: Counted[] = [];
  if (endMonth !== undefined) {
    const from = range.start !== undefined && startMonth === endMonth ? range.start : `${endMonth}-01`;
    out.push(daySum(from, range.end!));
  }
  out.push(...middle);
  if (startMonth !== undefined && startMonth !== endMonth) out.push(daySum(range.start!, `${startMonth}-31`));
  return out;
}

/** How many rows the listing has within the range. */
export function countedTotal(db: LedgerDb, tables: CountTables, filter: CountFilter, range: DateRange): number {
  return monthsIn(db, tables, filter, range).reduce((sum, m) => sum + Number(m.n ?? 0), 0);
}

/**
 * The total and the days of the page whose first row is number `offset` (0 = the newest) and which
 * holds `limit` rows; no span when the page is past the end.
 */
export function countedPage(
  db: LedgerDb,
  tables: CountTables,
  filter: CountFilter,
  range: DateRange,
  offset: number,
  limit: number,
): { total: number; span: PageSpan | undefined } {
  const months = monthsIn(db, tables, filter, range);
  const total = months.reduce((sum, m) => sum + Number(m.n ?? 0), 0);
  if (offset >= total) return { total, span: undefined };
  const where = [...filter.sql, 'day >= ?', 'day <= ?'].join(' AND ');
  let before = 0;
  let to: string | null = null;
  let skip = 0;
  let last: string | null = null;
  for (const month of months) {
    const n = Number(month.n ?? 0);
    if (n === 0) continue;
    if (to === null && before + n <= offset) {
      before += n;
      continue;
    }
    const from = range.start !== undefined && range.start > `${month.period}-01` ? range.start : `${month.period}-01`;
    const until = range.end !== undefined && range.end < `${month.period}-31` ? range.end : `${month.period}-31`;
    for (const day of db.iterateSql<Counted>(
      `SELECT day AS period, SUM(${tables.count}) AS n FROM ${tables.days} WHERE ${where} GROUP BY day ORDER BY day DESC`,
      ...filter.params,
      from,
      until,
    )) {
      const dayRows = Number(day.n ?? 0);
      if (to === null && before + dayRows > offset) {
        to = day.period;
        skip = offset - before;
      }
      before += dayRows;
      last = day.period;
      if (to !== null && before >= offset + limit) return { total, span: { from: day.period, to, skip } };
    }
  }
  return { total, span: to === null || last === null ? undefined : { from: last, to, skip } };
}
