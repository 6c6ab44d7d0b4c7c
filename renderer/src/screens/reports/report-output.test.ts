import { describe, expect, it } from 'vitest';
import { withoutZeroRows } from './report-output.ts';
import type { ReportBlock, ReportRow } from './report-model.ts';

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
