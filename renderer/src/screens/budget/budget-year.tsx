import { budgetReport, type BudgetReportDto } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { Busy } from '../../components/busy.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { BudgetColumnHeadings, BudgetTotals } from './budget-table.tsx';
import { useLoader } from '../../hooks/use-loader.ts';
import { useMediaQuery } from '../../hooks/use-media-query.ts';
import { useI18n, type Language } from '../../i18n/index.ts';
import { isNegative, isZero } from '../../money.ts';

type Row = BudgetReportDto['rows'][number];

/** "Jan" or "1月": a month's short name in the interface's language. */
function monthName(month: string, language: Language): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en-US', { month: 'short', timeZone: 'UTC' }).format(
    new Date(Date.UTC(y, m - 1, 1)),
  );
}

/** Spent past its budget (an expense) or earned short of it (an income). */
const missed = (row: Pick<Row, 'type'>, remaining: string) =>
  row.type === 'EXPENSE' ? isNegative(remaining) : !isNegative(remaining) && !isZero(remaining);

/**
 * A year of the budget against what happened: per budgeted account the year's budgeted, actual and
 * left, then each month's actual over its budget; a month's heading opens that month. Below 1280 px
 * the months come in two tables of six, so that no column is cut off.
 */
export function BudgetYear({ year, onOpenMonth }: { year: string; onOpenMonth: (month: string) => void }) {
  const { t, language } = useI18n();
  const report = useLoader(() => budgetReport({ year }), [year]);
  const data = report.data?.start_month.startsWith(year) ? report.data : undefined;
  const months = data?.rows[0]?.months.map((m) => m.month) ?? [];
  const caption = t('budget.reportTitle', { year });
  // twelve months of figures fit a wide window; a narrower one shows the year in two halves
  const halves: [number, number][] = useMediaQuery('(max-width: 1279px)')
    ? [
        [0, 6],
        [6, 12],
      ]
    : [[0, 12]];
  return (
    <>
      <ErrorNotice error={report.error} />
      {!data && report.loading && <Busy label={t('loading')} />}
      {data && data.rows.length === 0 && <EmptyState title={t('budget.yearEmpty', { year })} />}
      {data &&
        data.rows.length > 0 &&
        halves.map(([from, to], half) => (
          <div className="table-scroll" key={from}>
            <table
              className="data-table budget-year-table"
              aria-label={
                halves.length === 1
                  ? caption
                  : `${caption} (${monthName(months[from]!, language)} – ${monthName(months[to - 1]!, language)})`
              }
            >
              <thead>
                <tr>
                  {half === 0 ? <BudgetColumnHeadings /> : <th scope="col">{t('budget.account')}</th>}
                  {months.slice(from, to).map((month) => (
                    <th key={month} scope="col" className="num">
                      <button
                        type="button"
                        className="link"
                        aria-label={t('budget.openMonth', { month })}
                        onClick={() => onOpenMonth(month)}
                      >
                        {monthName(month, language)}
                      </button>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.rows.map((row) => (
                  <tr key={row.account_id} data-testid={half === 0 ? 'budget-year-row' : undefined}>
                    <th scope="row">
                      {row.name} <span className="muted">{row.currency}</span>
                    </th>
                    {half === 0 && (
                      <>
                        <td className="num">
                          <Amount value={row.budgeted} />
                        </td>
                        <td className="num">
                          <Amount value={row.actual} />
                        </td>
                        <td className={['num', missed(row, row.remaining) ? 'budget-missed' : ''].join(' ').trim()}>
                          <Amount value={row.remaining} />
                        </td>
                      </>
                    )}
                    {row.months.slice(from, to).map((m) => (
                      <td
                        key={m.month}
                        className={['num', missed(row, m.remaining) ? 'budget-missed' : ''].join(' ').trim()}
                        title={t('budget.monthFigures', { month: m.month, actual: m.actual, budgeted: m.budgeted })}
                      >
                        {isZero(m.actual) && isZero(m.budgeted) ? (
                          <span className="muted">–</span>
                        ) : (
                          <>
                            <Amount value={m.actual} />
                            <span className="muted budget-of"> / {m.budgeted}</span>
                          </>
                        )}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
              {half === 0 && (
                <BudgetTotals totals={data.totals.map((x) => ({ ...x, left: x.remaining }))} trailing={to - from} />
              )}
            </table>
          </div>
        ))}
    </>
  );
}
