import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { NetWorthSeries } from '../../api/index.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { monthOf } from '../../dates.ts';
import { useI18n } from '../../i18n/index.ts';
import { axisTick, chartValue, groupDecimal, isZero } from '../../money.ts';

type Point = NetWorthSeries['currencies'][number]['series'][number];

/** Net worth, assets and liabilities at each month's end. Tooltips show the exact figures. */
export function NetWorthChart({ series, currency }: { series: Point[]; currency: string }) {
  const { t, language } = useI18n();
  if (series.every((p) => isZero(p.assets) && isZero(p.liabilities))) {
    return <EmptyState title={t('dashboard.noHistory')}>{t('dashboard.noHistoryHint')}</EmptyState>;
  }
  const rows = series.map((p) => ({
    month: monthOf(p.date),
    net_worth: chartValue(p.net_worth),
    assets: chartValue(p.assets),
    liabilities: chartValue(p.liabilities),
    exact: p,
  }));
  const names: Record<string, string> = {
    net_worth: t('dashboard.netWorth'),
    assets: t('dashboard.assets'),
    liabilities: t('dashboard.liabilities'),
  };
  const last = series[series.length - 1];
  return (
    <div
      className="chart"
      role="img"
      aria-label={t('dashboard.netWorthChartLabel', { currency, value: last ? groupDecimal(last.net_worth) : '0' })}
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e3e7ee" />
          <XAxis dataKey="month" tick={{ fontSize: 12 }} />
          <YAxis tick={{ fontSize: 12 }} width={72} tickFormatter={(v: number) => axisTick(v, language)} />
          <Tooltip
            formatter={(_value, name, item) => {
              const key = String(item.dataKey) as 'net_worth' | 'assets' | 'liabilities';
              const exact = (item.payload as { exact: Point }).exact[key];
              return [`${groupDecimal(exact)} ${currency}`, names[key] ?? String(name)];
            }}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Line
            type="linear"
            dataKey="net_worth"
            name={names.net_worth}
            stroke="#275d8b"
            strokeWidth={2.5}
            dot={{ r: 2 }}
            isAnimationActive={false}
          />
          <Line
            type="linear"
            dataKey="assets"
            name={names.assets}
            stroke="#3c9a6a"
            strokeWidth={1.5}
            dot={false}
            isAnimationActive={false}
          />
          <Line
            type="linear"
            dataKey="liabilities"
            name={names.liabilities}
            stroke="#c0573e"
            strokeWidth={1.5}
            dot={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
