import type { HTMLAttributes, ReactNode } from 'react';

/** A column's header: its text, right-aligned over figures, or read by screen readers only. */
export interface ColumnHead {
  header: string;
  /** figures: header and cells aligned right */
  numeric?: boolean;
  /** a column of buttons or marks: the header is for screen readers only */
  hiddenHeader?: boolean;
}

export interface Column<Row> extends ColumnHead {
  cell: (row: Row) => ReactNode;
  /** an extra class of the body cells ('nowrap') */
  cellClassName?: string;
}

/** The header row of a table, from its columns. */
export function TableHead({ columns }: { columns: readonly ColumnHead[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, index) => (
          <th key={index} scope="col" className={column.numeric ? 'num' : undefined}>
            {column.hiddenHeader ? <span className="visually-hidden">{column.header}</span> : column.header}
          </th>
        ))}
      </tr>
    </thead>
  );
}

function cellClass(column: Pick<Column<unknown>, 'numeric' | 'cellClassName'>): string | undefined {
  return [column.numeric ? 'num' : '', column.cellClassName ?? ''].filter(Boolean).join(' ') || undefined;
}

/**
 * A table of rows under a header row, each column's cells drawn by its `cell`; with `empty`, that
 * is shown instead when there are no rows.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  rowProps,
  label,
  caption,
  className,
  scroll = false,
  empty,
}: {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string;
  /** a row's own attributes: a class ('selected'), a click handler */
  rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement>;
  /** the table's accessible name */
  label?: string;
  /** a caption for screen readers only */
  caption?: string;
  /** classes beside `data-table` ('compact') */
  className?: string;
  /** in a box that scrolls sideways on narrow windows; a string adds that class to the box */
  scroll?: boolean | string;
  empty?: ReactNode;
}) {
  if (empty !== undefined && rows.length === 0) return <>{empty}</>;
  const table = (
    <table className={className ? `data-table ${className}` : 'data-table'} aria-label={label}>
      {caption !== undefined && <caption className="visually-hidden">{caption}</caption>}
      <TableHead columns={columns} />
      <tbody>
        {rows.map((row, index) => (
          <tr key={rowKey(row, index)} {...rowProps?.(row)}>
            {columns.map((column, columnIndex) => (
              <td key={columnIndex} className={cellClass(column)}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
  if (scroll === false) return table;
  return <div className={typeof scroll === 'string' ? `table-scroll ${scroll}` : 'table-scroll'}>{table}</div>;
}
