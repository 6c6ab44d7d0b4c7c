import { describe, expect, it } from 'vitest';
import type { IncomeExpenses } from '../../api/index.ts';
import type { Translate } from '../../i18n/index.ts';
import { periodLabel, reportBlocks, withoutZeroRows, type ReportBlock, type ReportRow } from './report-model.ts';

const row = (label: string, depth: number, values: (string | null)[], kind: ReportRow['kind'] = 'account') => ({
  label,
  depth,
  kind,
  cells: values.map((value) => (value === null ? null : { value })),
});

function labels(block: ReportBlock): string[][] {
  return block.sections.map((s) => s.rows.map((r) => r.label));
}

describe('hiding zero rows', () => {
  it('when rows have only zero figures, then they go, and totals, derived rows and rows with any figure stay', () => {
    const block: ReportBlock = {
      currency: 'USD',
      columns: ['Amount', 'Previous period', 'Change'],
      sections: [
        {
          heading: 'Expense',
          rows: [
            row('Rent', 0, ['1200.00', '0.00', '1200.00']),
            row('Travel', 0, ['0.00', '0.00', '0.00']),
            row('Gifts', 0, ['0.00', '-0.00', null]),
            row('Was spent before', 0, ['0.00', '15.00', '-15.00']),
            row('Total Expense', 0, ['0.00', '0.00', '0.00'], 'total'),
          ],
        },
        { heading: null, rows: [row('Retained earnings', 0, ['0.00', '0.00', '0.00'], 'derived')] },
      ],
    };
    expect(labels(withoutZeroRows(block))).toEqual([
      ['Rent', 'Was spent before', 'Total Expense'],
      ['Retained earnings'],
    ]);
    // the block given is left as it was
    expect(block.sections[0]!.rows).toHaveLength(5);
  });

  it('when a zero account has a sub-account with a figure, then it stays above it, and a zero branch goes whole', () => {
    const block: ReportBlock = {
      currency: 'JPY',
      columns: ['Amount'],
      sections: [
        {
          heading: null,
          rows: [
            row('Food', 0, ['0']),
            row('Groceries', 1, ['0']),
            row('Market', 2, ['500']),
            row('Refunds', 2, ['-500']),
            row('Eating out', 1, ['0']),
            row('Travel', 0, ['0']),
            row('Trains', 1, ['0']),
            row('Books', 0, ['12']),
          ],
        },
      ],
    };
    expect(labels(withoutZeroRows(block))).toEqual([['Food', 'Groceries', 'Market', 'Refunds', 'Books']]);
  });
});

describe('period labels', () => {
  it('when a period is a whole month, then it is named by its month, else by its days', () => {
    expect(periodLabel('2026-02-01', '2026-02-28')).toBe('2026-02');
    expect(periodLabel('2024-02-01', '2024-02-29')).toBe('2024-02');
    expect(periodLabel('2026-02-01', '2026-02-20')).toBe('2026-02-01 – 2026-02-20');
    expect(periodLabel('2026-03-05', '2026-03-05')).toBe('2026-03-05');
  });
});

describe('the income-and-expenses table', () => {
  const t = ((key: string) => key) as Translate;
  const series = (periods: [string, string, string, string, string][], totals: [string, string, string]) =>
    ({
      start_date: periods[0]![0],
      end_date: periods.at(-1)![1],
      interval: 'month',
      currencies: [
        {
          currency: 'USD',
          periods: periods.map(([start_date, end_date, income, expenses, net]) => ({
            start_date,
            end_date,
            income,
            expenses,
            net,
          })),
          total_income: totals[0],
          total_expenses: totals[1],
          net_income: totals[2],
        },
      ],
    }) satisfies IncomeExpenses;
  const now = series(
    [
      ['2026-01-01', '2026-01-31', '3000.00', '1200.00', '1800.00'],
      ['2026-02-01', '2026-02-14', '0.00', '20.00', '-20.00'],
    ],
    ['3000.00', '1220.00', '1780.00'],
  );
  const before = series(
    [
      ['2025-11-01', '2025-11-30', '100.00', '0.00', '100.00'],
      ['2025-12-01', '2025-12-14', '0.00', '0.00', '0.00'],
    ],
    ['100.00', '0.00', '100.00'],
  );
  const periods = {
    now: { start: '2026-01-01', end: '2026-02-14' },
    before: { start: '2025-11-01', end: '2025-12-14' },
  };

  it("when it is read, then each period is a row of the API's figures under its month or days, and the totals close it", () => {
    const [block] = reportBlocks({ kind: 'income-expenses', now, before: null }, periods, false, t);
    expect(block!.labelHeading).toBe('reports.period');
    expect(block!.columns).toEqual(['types.INCOME', 'types.EXPENSE', 'reports.net']);
    expect(block!.sections[0]!.rows.map((r) => [r.label, r.kind, ...r.cells.map((c) => c?.value)])).toEqual([
      ['2026-01', 'account', '3000.00', '1200.00', '1800.00'],
      ['2026-02-01 – 2026-02-14', 'account', '0.00', '20.00', '-20.00'],
      ['reports.total', 'total', '3000.00', '1220.00', '1780.00'],
    ]);
  });

  it('when it is compared, then each period gains the net of the same period before and the change', () => {
    const [block] = reportBlocks({ kind: 'income-expenses', now, before }, periods, true, t);
    expect(block!.columns).toEqual([
      'types.INCOME',
      'types.EXPENSE',
      'reports.net',
      'reports.previousNet',
      'reports.change',
    ]);
    expect(block!.sections[0]!.rows.map((r) => r.cells.slice(2).map((c) => c?.value))).toEqual([
      ['1800.00', '100.00', '1700.00'],
      ['-20.00', '0.00', '-20.00'],
      ['1780.00', '100.00', '1680.00'],
    ]);
  });
});
