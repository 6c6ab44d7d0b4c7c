import { Line, LineChart } from 'recharts';
import type { NetWorthSeries } from '../api/index.ts';
import { useI18n } from '../i18n/index.ts';
import { chartValue } from '../money.ts';
import { CHART_MARGIN, ChartFrame, chartPieces, type ChartRow } from './charts.tsx';

/** Net worth drawn boldest, with its dots; assets and liabilities thinner beside it. */
const LINES = [
  { key: 'net_worth', label: 'dashboard.netWorth', color: '#275d8b', width: 2.5, dots: true },
  { key: 'assets', label: 'dashboard.assets', color: '#3c9a6a', width: 1.5, dots: false },
  { key: 'liabilities', label: 'dashboard.liabilities', color: '#c0573e', width: 1.5, dots: false },
] as const;

export type NetWorthPoint = NetWorthSeries['currencies'][number]['series'][number];

/**
 * Net worth, assets and liabilities at each point of a series (the dashboard's months, a report's
 * days, weeks or months), each point drawn at `pointLabel` of its date. Tooltips show the exact figures.
 */
export function NetWorthChart({
  series,
  currency,
  label,
  pointLabel,
}: {
  series: NetWorthPoint[];
  currency: string;
  /** the chart's accessible name */
  label: string;
  pointLabel: (date: string) => string;
}) {
  const { t, language } = useI18n();
  const rows: ChartRow[] = series.map((p) => ({
    at: pointLabel(p.date),
    net_worth: chartValue(p.net_worth),
    assets: chartValue(p.assets),
    liabilities: chartValue(p.liabilities),
    exact: { net_worth: p.net_worth, assets: p.assets, liabilities: p.liabilities },
  }));
  return (
    <ChartFrame label={label}>
      <LineChart data={rows} margin={CHART_MARGIN}>
        {chartPieces({ categoryKey: 'at', currency, language })}
        {LINES.map(({ key, label, color, width, dots }) => (
          <Line
            key={key}
            type="linear"
            dataKey={key}
            name={t(label)}
            stroke={color}
            strokeWidth={width}
            dot={dots ? { r: 2 } : false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ChartFrame>
  );
}
