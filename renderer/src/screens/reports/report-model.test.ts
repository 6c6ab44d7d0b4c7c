import { describe, expect, it } from 'vitest';
import type { BalanceSheet, CashFlow, IncomeExpenses, IncomeStatement, TreeNode } from '../../api/index.ts';
import type { Translate } from '../../i18n/index.ts';
import { periodLabel, reportBlocks, type ReportBlock } from './report-model.ts';

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

/** Every row of a block as [section heading, label, kind, figures…]. */
function table(block: ReportBlock | undefined): (string | null | undefined)[][] {
  return block!.sections.flatMap((s) =>
    s.rows.map((r) => [s.heading, r.label, r.kind, ...r.cells.map((c) => c?.value)]),
  );
}

const node = (id: string, name: string, total: string, children: TreeNode[] = []): TreeNode => ({
  account_id: `0000000${id}-0000-4000-8000-000000000000`,
  name,
  type: 'ASSET',
  balance: total,
  total,
  children,
});

describe('the tree reports', () => {
  const t = ((key: string, params?: { what?: string }) => (params?.what ? `${key}(${params.what})` : key)) as Translate;
  const periods = {
    now: { start: '2026-01-01', end: '2026-01-31' },
    before: { start: '2025-12-01', end: '2025-12-31' },
  };

  it("when a balance sheet is read, then each type of account is a section headed by the type and closed by the server's total, equity with its derived rows before its total", () => {
    const sheet = {
      as_of: '2026-01-31',
      currencies: [
        {
          currency: 'USD',
          assets: [node('1', 'Bank', '100.00', [node('2', 'Checking', '100.00')])],
          liabilities: [node('3', 'Card', '40.00')],
          equity: [node('4', 'Opening', '50.00')],
          retained_earnings: '10.00',
          total_assets: '100.00',
          total_liabilities: '40.00',
          total_equity: '50.00',
          total_equity_and_earnings: '60.00',
          total_liabilities_and_equity: '100.00',
          net_worth: '60.00',
        },
      ],
    } satisfies BalanceSheet;
    const [block] = reportBlocks({ kind: 'balance-sheet', now: sheet, before: null }, periods, false, t);
    expect(table(block)).toEqual([
      ['types.ASSET', 'Bank', 'account', '100.00'],
      ['types.ASSET', 'Checking', 'account', '100.00'],
      ['types.ASSET', 'reports.totalOf(types.ASSET)', 'total', '100.00'],
      ['types.LIABILITY', 'Card', 'account', '40.00'],
      ['types.LIABILITY', 'reports.totalOf(types.LIABILITY)', 'total', '40.00'],
      ['types.EQUITY', 'Opening', 'account', '50.00'],
      ['types.EQUITY', 'accounts.retainedEarnings', 'derived', '10.00'],
      ['types.EQUITY', 'reports.totalOf(types.EQUITY)', 'total', '60.00'],
      [null, 'reports.totalLiabilitiesAndEquity', 'total', '100.00'],
      [null, 'dashboard.netWorth', 'derived', '60.00'],
    ]);
    // an account's figure leads to its register up to the day of the sheet
    expect(block!.sections[0]!.rows[1]!.cells[0]!.drill).toEqual({
      accountId: node('2', '', '').account_id,
      end: '2026-01-31',
    });
  });

  it("when an income statement is compared, then each account and total gains the previous period's figure (zero for an account it lacked) and the change, and its figures lead to the period's register", () => {
    const statement = (income: TreeNode[], expenses: TreeNode[], totals: [string, string, string]) =>
      ({
        start_date: '2026-01-01',
        end_date: '2026-01-31',
        currencies: [
          {
            currency: 'USD',
            income,
            expenses,
            total_income: totals[0],
            total_expenses: totals[1],
            net_income: totals[2],
          },
        ],
      }) satisfies IncomeStatement;
    const now = statement(
      [node('5', 'Salary', '3000.00')],
      [node('6', 'Rent', '1200.00'), node('7', 'Books', '12.50')],
      ['3000.00', '1212.50', '1787.50'],
    );
    const before = statement(
      [node('5', 'Salary', '2900.00')],
      [node('6', 'Rent', '1200.00')],
      ['2900.00', '1200.00', '1700.00'],
    );
    const [block] = reportBlocks({ kind: 'income-statement', now, before }, periods, true, t);
    expect(block!.columns).toEqual(['reports.amount', 'reports.previous', 'reports.change']);
    expect(table(block)).toEqual([
      ['types.INCOME', 'Salary', 'account', '3000.00', '2900.00', '100.00'],
      ['types.INCOME', 'reports.totalOf(types.INCOME)', 'total', '3000.00', '2900.00', '100.00'],
      ['types.EXPENSE', 'Rent', 'account', '1200.00', '1200.00', '0.00'],
      ['types.EXPENSE', 'Books', 'account', '12.50', '0.00', '12.50'],
      ['types.EXPENSE', 'reports.totalOf(types.EXPENSE)', 'total', '1212.50', '1200.00', '12.50'],
      [null, 'reports.netIncome', 'total', '1787.50', '1700.00', '87.50'],
    ]);
    const salary = block!.sections[0]!.rows[0]!;
    expect(salary.cells[0]!.drill).toEqual({
      accountId: node('5', '', '').account_id,
      start: '2026-01-01',
      end: '2026-01-31',
    });
    expect(salary.cells[1]!.drill).toEqual({
      accountId: node('5', '', '').account_id,
      start: '2025-12-01',
      end: '2025-12-31',
    });
  });

  it("when a cash flow is read, then its total row is the server's totals as answered, not the sum of the rows above", () => {
    const flow = {
      start_date: '2026-01-01',
      end_date: '2026-01-31',
      interval: 'month',
      currencies: [
        {
          currency: 'USD',
          periods: [],
          by_account: [
            {
              account_id: node('5', '', '').account_id,
              name: 'Salary',
              type: 'INCOME',
              money_in: '3000.00',
              money_out: '0.00',
              net: '3000.00',
            },
            {
              account_id: node('6', '', '').account_id,
              name: 'Rent',
              type: 'EXPENSE',
              money_in: '0.00',
              money_out: '1200.00',
              net: '-1200.00',
            },
          ],
          // the server's own totals: what the screen shows, whatever the rows add up to
          total_in: '3100.00',
          total_out: '1250.00',
          net: '1850.00',
        },
      ],
    } satisfies CashFlow;
    const [block] = reportBlocks({ kind: 'cash-flow', now: flow, before: null }, periods, false, t);
    expect(table(block).at(-1)).toEqual([
      'reports.byCounterAccount',
      'reports.total',
      'total',
      '3100.00',
      '1250.00',
      '1850.00',
    ]);
  });
});
