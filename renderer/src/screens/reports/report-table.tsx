import { Amount } from '../../components/amount.tsx';
import { useI18n } from '../../i18n/index.ts';
import { accountLabel } from '../../names.ts';
import { groupDecimal } from '../../money.ts';
import { registerPath } from '../../router.ts';
import type { Cell, Drill, ReportBlock } from './report-model.ts';

/** A figure: a link to the register lines behind it (or to the balance sheet of its day), else plain. */
function Figure({ cell, label, onDrill }: { cell: Cell; label: string; onDrill: (drill: Drill) => void }) {
  const { t } = useI18n();
  if (!cell.drill) return <Amount value={cell.value} />;
  const drill = cell.drill;
  const href =
    'asOf' in drill
      ? '/reports'
      : registerPath(drill.accountId, { ...(drill.start ? { start: drill.start } : {}), end: drill.end });
  return (
    <a
      className="figure-link"
      href={href}
      aria-label={t('reports.drill', { what: label, value: groupDecimal(cell.value) })}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
        e.preventDefault();
        onDrill(drill);
      }}
    >
      <Amount value={cell.value} />
    </a>
  );
}

/** One currency's block of a report: its sections, each account indented under its parent. */
export function ReportTable({
  block,
  title,
  id,
  onDrill,
}: {
  block: ReportBlock;
  title: string;
  /** the table's id, by which a chart of the same figures names it */
  id: string;
  onDrill: (drill: Drill) => void;
}) {
  const { t } = useI18n();
  const width = block.columns.length + 1;
  return (
    <article className="panel report-block">
      <div className="table-scroll">
        <table
          id={id}
          className="data-table report-table"
          aria-label={t('reports.tableLabel', { title, currency: block.currency })}
        >
          <caption>{t('reports.inCurrency', { currency: block.currency })}</caption>
          <thead>
            <tr>
              <th scope="col">{block.labelHeading ?? t('accounts.name')}</th>
              {block.columns.map((column, i) => (
                <th key={i} scope="col" className="num">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          {block.sections.map((section, s) => (
            <tbody key={s}>
              {section.heading && (
                <tr className="section-row">
                  <th scope="rowgroup" colSpan={width}>
                    {section.heading}
                  </th>
                </tr>
              )}
              {section.rows.map((row, r) => (
                <tr
                  key={r}
                  className={row.kind === 'total' ? 'total-row' : row.kind === 'derived' ? 'derived-row' : undefined}
                >
                  <th scope="row" className="report-label">
                    <span style={{ paddingInlineStart: `${row.depth * 1.25}rem` }}>
                      {row.kind === 'account' ? accountLabel(row.label, t) : row.label}
                    </span>
                  </th>
                  {row.cells.map((cell, c) => (
                    <td key={c} className="num">
                      {cell && (
                        <Figure cell={cell} label={`${row.label}, ${block.columns[c] ?? ''}`} onDrill={onDrill} />
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          ))}
        </table>
      </div>
    </article>
  );
}
