import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { IncomeStatement } from '../../api/index.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { monthOf } from '../../dates.ts';
import { useI18n } from '../../i18n/index.ts';
import { axisTick, chartValue, groupDecimal, isZero } from '../../money.ts';
import type { Route } from '../../router.ts';

const COLORS = [
  '#275d8b',
  '#e08a2c',
  '#3c9a6a',
  '#a04f9c',
  '#c0573e',
  '#5b8fc7',
  '#8a7d2b',
  '#2f8f8f',
  '#7a5c3e',
  '#6b6fd6',
];

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
    const row: Record<string, number | string> = { month: monthOf(statement.start_date) };
    const expenses = statement.currencies.find((c) => c.currency === currency)?.expenses ?? [];
    for (const node of expenses) {
      if (isZero(node.total)) continue;
      accounts.set(node.account_id, node.name);
      row[node.account_id] = chartValue(node.total);
      row[`${node.account_id}:exact`] = node.total;
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
    <div
      className="chart"
      role="img"
      aria-label={t('dashboard.spendingChartLabel', { currency, count: accounts.size })}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e3e7ee" />
          <XAxis dataKey="month" tick={{ fontSize: 12 }} />
          <YAxis tick={{ fontSize: 12 }} width={72} tickFormatter={(v: number) => axisTick(v, language)} />
          <Tooltip
            formatter={(_value, name, item) => {
              const exact = (item.payload as Record<string, string>)[`${String(item.dataKey)}:exact`] ?? '0';
              return [`${groupDecimal(exact)} ${currency}`, String(name)];
            }}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {[...accounts].map(([id, name], index) => (
            <Bar
              key={id}
              dataKey={id}
              name={name}
              stackId="spending"
              fill={COLORS[index % COLORS.length]}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
