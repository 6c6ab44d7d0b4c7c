import type { ReactElement } from 'react';
import { CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { axisTick, groupDecimal } from '../money.ts';

/**
 * The pieces every chart of the app is drawn with (the dashboard's and the reports'): its colours,
 * its frame, its grid, axes, legend and a tooltip that shows the exact figures. A chart's data
 * rows hold numbers only to place the drawing, and beside them, in `exact`, the decimal strings
 * the API gave, which are what any text shows.
 */

export const CHART_COLORS = [
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

export const CHART_MARGIN = { top: 8, right: 16, bottom: 0, left: 8 };

/** A data row: the category it is drawn at, numbers for the drawing, and the exact figures by key. */
export interface ChartRow {
  [key: string]: string | number | Record<string, string>;
  exact: Record<string, string>;
}

/** A chart as a named image; its figures are read in the table that goes with it. */
export function ChartFrame({
  label,
  height,
  children,
}: {
  label: string;
  /** in pixels, where the chart grows with what it draws (else the style sheet's) */
  height?: number;
  children: ReactElement;
}) {
  return (
    <div className="chart" role="img" aria-label={label} style={height ? { height } : undefined}>
      <ResponsiveContainer width="100%" height="100%">
        {children}
      </ResponsiveContainer>
    </div>
  );
}

/**
 * Grid, axes, tooltip (the exact figure and its currency) and legend. `categoryKey` names the
 * field each row is drawn at; `layout: 'vertical'` lays the bars along the horizontal axis.
 */
export function chartPieces({
  categoryKey,
  currency,
  language,
  layout = 'horizontal',
  legend = true,
  legendOrder,
}: {
  categoryKey: string;
  currency: string;
  language: 'en' | 'zh';
  layout?: 'horizontal' | 'vertical';
  legend?: boolean;
  /** the series' keys in the order the legend and the tooltip name them (else by name) */
  legendOrder?: readonly string[];
}): ReactElement[] {
  const rank = (item: { dataKey?: unknown }) => legendOrder!.indexOf(String(item.dataKey));
  const tick = { fontSize: 12 };
  const values = (v: number) => axisTick(v, language);
  const pieces = [
    <CartesianGrid key="grid" strokeDasharray="3 3" stroke="#e3e7ee" />,
    layout === 'horizontal' ? (
      <XAxis key="x" dataKey={categoryKey} tick={tick} />
    ) : (
      <XAxis key="x" type="number" tick={tick} tickFormatter={values} />
    ),
    layout === 'horizontal' ? (
      <YAxis key="y" tick={tick} width={72} tickFormatter={values} />
    ) : (
      <YAxis key="y" type="category" dataKey={categoryKey} tick={tick} width={120} />
    ),
    <Tooltip
      key="tooltip"
      itemSorter={legendOrder ? rank : 'name'}
      formatter={(_value, name, item) => {
        const exact = (item.payload as ChartRow).exact[String(item.dataKey)] ?? '0';
        return [`${groupDecimal(exact)} ${currency}`, String(name)];
      }}
    />,
  ];
  if (legend)
    pieces.push(<Legend key="legend" wrapperStyle={{ fontSize: 12 }} itemSorter={legendOrder ? rank : 'value'} />);
  return pieces;
}
