import { Bar, BarChart } from 'recharts';
import type { IncomeExpenses, IncomeStatement, NetWorthSeries } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { CHART_COLORS, CHART_MARGIN, ChartFrame, chartPieces, type ChartRow } from '../../components/charts.tsx';
import { NetWorthChart } from '../../components/net-worth-chart.tsx';
import { useI18n } from '../../i18n/index.ts';
import { accountLabel } from '../../names.ts';
import { chartValue, groupDecimal, isZero } from '../../money.ts';
import { periodLabel } from './report-model.ts';

/**
 * The charts of the Reports screen, one per currency block: income and expenses by period (bars),
 * net worth over time (lines), spending by category over the period (bars). Each is a named image;
 * its figures, the exact strings the API gave, are in the table beside it, which is also what a
 * screen reader reads.
 */

type IncomeExpensesGroup = IncomeExpenses['currencies'][number];
type IncomeStatementGroup = IncomeStatement['currencies'][number];
type NetWorthGroup = NetWorthSeries['currencies'][number];

/** The id of a currency block's report table, which a chart names as its figures. */
export function reportTableId(currency: string): string {
  return `report-table-${currency}`;
}

export function IncomeExpensesChart({ group }: { group: IncomeExpensesGroup }) {
  const { t, language } = useI18n();
  const currency = group.currency;
  const rows: ChartRow[] = group.periods.map((p) => ({
    at: periodLabel(p.start_date, p.end_date),
    income: chartValue(p.income),
    expenses: chartValue(p.expenses),
    exact: { income: p.income, expenses: p.expenses },
  }));
  const label = t('reports.chart.incomeExpensesLabel', {
    currency,
    count: group.periods.length,
    income: groupDecimal(group.total_income),
    expenses: groupDecimal(group.total_expenses),
  });
  return (
    <figure className="panel report-chart" aria-describedby={reportTableId(currency)}>
      <figcaption>{t('reports.chart.incomeExpenses', { currency })}</figcaption>
      <ChartFrame label={label}>
        <BarChart data={rows} margin={CHART_MARGIN}>
          {chartPieces({ categoryKey: 'at', currency, language, legendOrder: ['income', 'expenses'] })}
          <Bar dataKey="income" name={t('types.INCOME')} fill="#3c9a6a" isAnimationActive={false} />
          <Bar dataKey="expenses" name={t('types.EXPENSE')} fill="#c0573e" isAnimationActive={false} />
        </BarChart>
      </ChartFrame>
    </figure>
  );
}

export function NetWorthReportChart({ group }: { group: NetWorthGroup }) {
  const { t } = useI18n();
  const currency = group.currency;
  const last = group.series[group.series.length - 1];
  const label = t('reports.chart.netWorthLabel', {
    currency,
    count: group.series.length,
    value: groupDecimal(last?.net_worth ?? '0'),
    date: last?.date ?? '',
  });
  return (
    <figure className="panel report-chart" aria-describedby={reportTableId(currency)}>
      <figcaption>{t('reports.chart.netWorth', { currency })}</figcaption>
      <NetWorthChart series={group.series} currency={currency} label={label} pointLabel={(date) => date} />
    </figure>
  );
}

/**
 * Spending by category over the report's period: each top-level expense account with its
 * sub-accounts rolled in, as bars, and beside them the same figures as a table.
 */
export function SpendingByCategory({ group, hideZero }: { group: IncomeStatementGroup; hideZero: boolean }) {
  const { t, language } = useI18n();
  const currency = group.currency;
  const categories = group.expenses.map((node) => ({ ...node, label: accountLabel(node.name, t) }));
  const drawn = categories.filter((c) => !isZero(c.total));
  const rows: ChartRow[] = drawn.map((c) => ({
    category: c.label,
    spent: chartValue(c.total),
    exact: { spent: c.total },
  }));
  const tableId = `spending-table-${currency}`;
  const title = t('reports.chart.spending', { currency });
  const label = t('reports.chart.spendingLabel', {
    currency,
    count: drawn.length,
    total: groupDecimal(group.total_expenses),
  });
  return (
    <figure className="panel report-chart with-table" aria-describedby={tableId}>
      <figcaption>{title}</figcaption>
      {drawn.length === 0 ? (
        <p className="muted chart-none">{t('reports.chart.noSpending')}</p>
      ) : (
        // a category a row: 32 px each besides the axis, never lower than the other charts
        <ChartFrame label={label} height={Math.max(260, 32 * drawn.length + 48)}>
          <BarChart data={rows} layout="vertical" margin={CHART_MARGIN}>
            {chartPieces({ categoryKey: 'category', currency, language, layout: 'vertical', legend: false })}
            <Bar
              dataKey="spent"
              name={t('types.EXPENSE')}
              fill={CHART_COLORS[0]}
              maxBarSize={28}
              isAnimationActive={false}
            />
          </BarChart>
        </ChartFrame>
      )}
      <div className="table-scroll">
        <table id={tableId} className="data-table chart-table" aria-label={title}>
          <thead>
            <tr>
              <th scope="col">{t('reports.chart.category')}</th>
              <th scope="col" className="num">
                {t('reports.amount')}
              </th>
            </tr>
          </thead>
          <tbody>
            {categories
              .filter((c) => !hideZero || !isZero(c.total))
              .map((c) => (
                <tr key={c.account_id}>
                  <th scope="row">{c.label}</th>
                  <td className="num">
                    <Amount value={c.total} />
                  </td>
                </tr>
              ))}
            <tr className="total-row">
              <th scope="row">{t('reports.totalOf', { what: t('types.EXPENSE') })}</th>
              <td className="num">
                <Amount value={group.total_expenses} />
              </td>
            </tr>
          </tbody>
        </table>
      </div>
    </figure>
  );
}
