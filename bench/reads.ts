/**
 * The reads of balances and reports, each beside the raw reads of the maintained totals on the
 * same file: all balances (today and past dates), one account's, a year's income statement, a
 * five-year net-worth series, the same three in USD, and budgets against actuals.
 *
 *   node bench/reads.ts [--size 10k|100k|1m] [--data DIR] (the harness's options, bench/README.md)
 */
import { runAlone, type Area, type Bench } from './lib/harness.ts';
import { Random } from './lib/random.ts';
import { BALANCES_TARGET, measureReads, pastDates, REPORT_TARGET, type RowsOf } from './lib/read-rows.ts';
import { rawTimed } from './lib/stats.ts';

const YEARS = ['2021', '2022', '2023', '2024', '2025'];
const MONTHS_2025 = Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, '0')}`);

/** All balances (today, past dates) and one account's, beside the raw query on the same file. */
function balanceRows(bench: Bench): RowsOf {
  const { counts, ids } = bench;
  const dates = pastDates(bench.manifest, 50);
  const today = new Date().toISOString().slice(0, 10);
  const random = new Random('accounts');
  const picks = Array.from({ length: counts.read + 5 }, () => ({
    id: random.pick(ids.all).id,
    asOf: random.chance(0.3) ? today : random.pick(dates),
  }));
  const totals = 'month + day totals';
  return (raw) => [
    {
      id: 'balances_today',
      label: 'all balances, today',
      n: counts.read,
      path: () => '/api/accounts/balances',
      raw: { label: totals, read: () => raw.balances(today) },
      target: BALANCES_TARGET,
    },
    {
      id: 'balances_past',
      label: 'all balances, as of a past date',
      n: counts.read,
      path: (i) => `/api/accounts/balances?as_of=${dates[i % dates.length]}`,
      raw: { label: totals, read: (i) => raw.balances(dates[i % dates.length]!) },
      target: BALANCES_TARGET,
    },
    {
      id: 'account_balance',
      label: "one account's balance, any date",
      n: counts.read,
      path: (i) => `/api/accounts/${picks[i]!.id}/balance?as_of=${picks[i]!.asOf}`,
      raw: { label: "the account's totals", read: (i) => raw.accountBalance(picks[i]!.id, picks[i]!.asOf) },
      target: { text: 'p50 ≤ 2 ms', stat: 'p50', atMost: 2 },
    },
  ];
}

/** A year's income statement and a five-year net-worth series, beside the raw reads of month totals. */
function reportRows(bench: Bench): RowsOf {
  const n = bench.counts.report;
  return (raw) => [
    {
      id: 'income_statement',
      label: "a year's income statement",
      n,
      path: (i) => `/api/reports/income-statement?start_date=${YEARS[i % 5]}-01-01&end_date=${YEARS[i % 5]}-12-31`,
      raw: {
        label: 'month totals of the year',
        read: (i) => raw.incomeStatement(`${YEARS[i % 5]}-01-01`, `${YEARS[i % 5]}-12-31`),
      },
      target: REPORT_TARGET,
    },
    {
      id: 'net_worth',
      label: '5-year monthly net-worth series',
      n,
      path: () => `/api/reports/net-worth?start_date=2021-01-01&end_date=2025-12-31&interval=month`,
      raw: { label: 'one grouped read of month totals', read: () => raw.netWorth('2021-01-01', '2025-12-31') },
      target: REPORT_TARGET,
    },
  ];
}

/**
 * The same reads converted into USD (CONTRACT §16), beside the raw reads of the totals and rates.
 * Every request asks something new (another date or range), so that none is served from the
 * response cache: these rows measure the conversion itself.
 */
function convertedRows(bench: Bench): RowsOf {
  const { counts, manifest } = bench;
  const firstMs = Date.parse(`${manifest.firstDay}T00:00:00Z`);
  const days = Array.from({ length: counts.read + 10 }, (_, i) =>
    new Date(firstMs + (30 + i * 10) * 86_400_000).toISOString().slice(0, 10),
  );
  const yearOf = (n: number) => 2021 + (n % 5);
  const yearEnd = (n: number) => `${yearOf(n)}-12-${String(31 - (Math.floor(n / 5) % 28)).padStart(2, '0')}`;
  const seriesEnd = (n: number) =>
    `2025-${String(1 + (n % 12)).padStart(2, '0')}-${String(1 + (Math.floor(n / 12) % 28)).padStart(2, '0')}`;
  return (raw) => [
    {
      id: 'balances_converted',
      label: 'all balances in USD, as of a past date (none cached)',
      n: counts.read,
      distinct: true,
      path: (k) => `/api/accounts/balances?as_of=${days[k]}&convert_to=USD`,
      raw: { label: 'month + day totals, one rate per currency', read: (i) => raw.convertedBalances(days[i]!, 'USD') },
      target: BALANCES_TARGET,
    },
    {
      id: 'income_statement_converted',
      label: "a year's income statement in USD (none cached)",
      n: counts.report,
      distinct: true,
      path: (k) => `/api/reports/income-statement?start_date=${yearOf(k)}-01-01&end_date=${yearEnd(k)}&convert_to=USD`,
      raw: {
        label: 'month totals, day totals of EUR/JPY accounts, the rates',
        read: (i) => raw.convertedIncomeStatement(`${yearOf(i)}-01-01`, yearEnd(i), 'USD'),
      },
      target: REPORT_TARGET,
    },
    {
      id: 'net_worth_converted',
      label: '5-year monthly net-worth series in USD (none cached)',
      n: counts.report,
      distinct: true,
      path: (k) =>
        `/api/reports/net-worth?start_date=2021-01-01&end_date=${seriesEnd(k)}&interval=month&convert_to=USD`,
      raw: {
        label: 'the series read, the rates',
        read: (i) => raw.convertedNetWorth('2021-01-01', seriesEnd(i), 'USD'),
      },
      target: REPORT_TARGET,
    },
  ];
}

/**
 * Budgets of every EXPENSE and INCOME account for each month of 2025, expenses carried over, so
 * that a month's read walks back through the year; written once a run. Returns the lines.
 */
export function budgetsOf2025(bench: Bench): Promise<readonly unknown[]> {
  return bench.once('budgets of 2025', async () => {
    const lines = bench.ids.all
      .filter((a) => a.type === 'EXPENSE' || a.type === 'INCOME')
      .map((a) => ({
        account_id: a.id,
        amount: a.currency === 'JPY' ? '20000' : '250.00',
        carry_over: a.type === 'EXPENSE',
      }));
    for (const month of MONTHS_2025) await bench.client.ok('PUT', `/api/budgets/${month}`, { lines });
    return lines;
  });
}

/** A month's budget against actual and a year's report, each read uncached, beside the raw reads. */
function budgetRows(bench: Bench, lines: readonly unknown[]): RowsOf {
  const n = bench.counts.report;
  return (raw) => [
    {
      id: 'budget_month',
      label: "a month's budget vs actual (carry-over through the year), uncached",
      n,
      uncached: lines,
      path: (i) => `/api/budgets/${MONTHS_2025[i % 12]}`,
      raw: {
        label: 'budget lines, month totals and the carry-over months',
        read: (i) => raw.budgetMonth(MONTHS_2025[i % 12]!),
      },
      note: () => {
        const scan = rawTimed(5, () => raw.monthFromLines('2025-06'));
        return `${lines.length} lines a month; the month's actuals summed from the lines instead: ${scan.p50.toFixed(1)} ms`;
      },
    },
    {
      id: 'budget_year',
      label: "a year's budget vs actual report, uncached",
      n,
      uncached: lines,
      path: () => '/api/reports/budget-vs-actual?year=2025',
      raw: { label: "the year's budget lines and month totals", read: () => raw.budgetYear('2025') },
    },
  ];
}

export const reads: Area = {
  name: 'reads',
  run: async (bench) => {
    bench.phase('reads');
    await measureReads(bench, balanceRows(bench));
    await measureReads(bench, reportRows(bench));
    await measureReads(bench, convertedRows(bench));
    await measureReads(bench, budgetRows(bench, await budgetsOf2025(bench)));
  },
};

runAlone(import.meta, [reads]);
