import { Bar, BarChart } from 'recharts';
import type { IncomeStatement } from '../../api/index.ts';
import { CHART_COLORS, CHART_MARGIN, ChartFrame, chartPieces, type ChartRow } from '../../components/charts.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { monthOf } from '../../dates.ts';
import { useI18n } from '../../i18n/index.ts';
import { chartValue, isZero } from '../../money.ts';
import type { Route } from '../../router.ts';

/**
 * Spending per expense account (top-level accounts, their sub-accounts rolled in) and month, from
 * one income statement per month, so spending paid by card counts as much as spending paid from
 * the bank. Drawn as stacked bars; tooltips show the exact figures.
 */
export function SpendingChart({
  months,
  currency,
  onNavigate,
}: {
  months: IncomeStatement[];
  currency: string;
  onNavigate: (route: Route) => void;
}) {
  const { t, language } = useI18n();
  const accounts = new Map<string, string>();
  const rows = months.map((statement) => {
    const row: ChartRow = { month: monthOf(statement.start_date), exact: {} };
    const expenses = statement.currencies.find((c) => c.currency === currency)?.expenses ?? [];
    for (const node of expenses) {
      if (isZero(node.total)) continue;
      accounts.set(node.account_id, node.name);
      row[node.account_id] = chartValue(node.total);
      row.exact[node.account_id] = node.total;
    }
    return row;
  });
  if (accounts.size === 0) {
    return (
      <EmptyState
        title={t('dashboard.noSpending')}
        action={
          <button type="button" onClick={() => onNavigate('/journal')}>
            {t('dashboard.recordEntry')}
          </button>
        }
      >
        {t('dashboard.noSpendingHint')}
      </EmptyState>
    );
  }
  return (
    <ChartFrame label={t('dashboard.spendingChartLabel', { currency, count: accounts.size })}>
      <BarChart data={rows} margin={CHART_MARGIN}>
        {chartPieces({ categoryKey: 'month', currency, language })}
        {[...accounts].map(([id, name], index) => (
          <Bar
            key={id}
            dataKey={id}
            name={name}
            stackId="spending"
            fill={CHART_COLORS[index % CHART_COLORS.length]}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ChartFrame>
  );
}
