import type {
  BalanceSheet,
  CashFlow,
  IncomeExpenses,
  IncomeStatement,
  NetWorthSeries,
  TreeNode,
  TrialBalance,
} from '../../api/index.ts';
import type { Translate } from '../../i18n/index.ts';
import { subtractDecimal, sumDecimals } from '../../money.ts';
import type { Period } from './report-period.ts';

/**
 * The five reports as one shape of table, so that the screen, the CSV download and the printout
 * show the same rows: per currency a block of sections, each row a label and its figures (exact
 * decimal strings), each figure knowing the register lines behind it.
 */

export const REPORT_KINDS = [
  'balance-sheet',
  'income-statement',
  'income-expenses',
  'cash-flow',
  'net-worth',
  'trial-balance',
] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** Reports of a date (as of the period's end); the others cover the period. */
export const AS_OF_REPORTS: readonly ReportKind[] = ['balance-sheet', 'trial-balance'];

/** Where a figure leads: an account's register over a range, or the balance sheet of a day. */
export type Drill = { accountId: string; start?: string; end: string } | { asOf: string };

export interface Cell {
  value: string;
  drill?: Drill;
}

export interface ReportRow {
  label: string;
  /** indentation: an account's level in its tree */
  depth: number;
  kind: 'account' | 'total' | 'derived';
  cells: (Cell | null)[];
}

export interface ReportSection {
  heading: string | null;
  rows: ReportRow[];
}

export interface ReportBlock {
  currency: string;
  /** the heading of the rows' labels (else the accounts' "Name") */
  labelHeading?: string;
  columns: string[];
  sections: ReportSection[];
}

/** The report (and the same report of the previous period, when compared) as the server answered them. */
export type Reports =
  | { kind: 'trial-balance'; now: TrialBalance; before: TrialBalance | null }
  | { kind: 'balance-sheet'; now: BalanceSheet; before: BalanceSheet | null }
  | { kind: 'income-statement'; now: IncomeStatement; before: IncomeStatement | null }
  | { kind: 'income-expenses'; now: IncomeExpenses; before: IncomeExpenses | null }
  | { kind: 'cash-flow'; now: CashFlow; before: CashFlow | null }
  | { kind: 'net-worth'; now: NetWorthSeries; before: NetWorthSeries | null };

/** Every node of trees, depth first, with its level: in a loop, never a recursion. */
function flatten(roots: readonly TreeNode[]): { node: TreeNode; depth: number }[] {
  const out: { node: TreeNode; depth: number }[] = [];
  const stack = [...roots].reverse().map((node) => ({ node, depth: 0 }));
  for (let next = stack.pop(); next; next = stack.pop()) {
    out.push(next);
    for (let i = next.node.children.length - 1; i >= 0; i--)
      stack.push({ node: next.node.children[i]!, depth: next.depth + 1 });
  }
  return out;
}

function totalsById(roots: readonly TreeNode[] | undefined): Map<string, string> {
  return new Map((roots ? flatten(roots) : []).map(({ node }) => [node.account_id, node.total]));
}

/** Zero in the currency's digits ("0.00", "0"). */
function zero(currency: string): string {
  return sumDecimals([], currency);
}

/**
 * A figure with, when compared, the previous period's and the change; the figures of accounts
 * lead to their registers over each period.
 */
function compared(
  currency: string,
  value: string,
  previous: string | null | undefined,
  compare: boolean,
  drills: { now?: Drill | undefined; before?: Drill | undefined } = {},
): (Cell | null)[] {
  const cells: (Cell | null)[] = [{ value, ...(drills.now ? { drill: drills.now } : {}) }];
  if (!compare) return cells;
  const before = previous ?? zero(currency);
  cells.push({ value: before, ...(drills.before ? { drill: drills.before } : {}) });
  cells.push({ value: subtractDecimal(value, before, currency) });
  return cells;
}

function figureColumns(t: Translate, compare: boolean, label = t('reports.amount')): string[] {
  return compare ? [label, t('reports.previous'), t('reports.change')] : [label];
}

/** What every section of one currency's report shares: its currency, the comparison, where its accounts' figures lead. */
interface SectionContext {
  t: Translate;
  currency: string;
  compare: boolean;
  drillOf: (accountId: string, which: 'now' | 'before') => Drill;
}

function treeSection(
  ctx: SectionContext,
  heading: string,
  roots: readonly TreeNode[],
  previousRoots: readonly TreeNode[] | undefined,
  total: { label: string; now: string; before: string | undefined },
): ReportSection {
  const before = totalsById(previousRoots);
  const rows: ReportRow[] = flatten(roots).map(({ node, depth }) => ({
    label: node.name,
    depth,
    kind: 'account',
    cells: compared(ctx.currency, node.total, before.get(node.account_id), ctx.compare, {
      now: ctx.drillOf(node.account_id, 'now'),
      before: ctx.drillOf(node.account_id, 'before'),
    }),
  }));
  rows.push({
    label: total.label,
    depth: 0,
    kind: 'total',
    cells: compared(ctx.currency, total.now, total.before, ctx.compare),
  });
  return { heading, rows };
}

type AccountType = 'ASSET' | 'LIABILITY' | 'EQUITY' | 'INCOME' | 'EXPENSE';
/** The names of a report group's fields that hold account trees, and of those that hold a figure. */
type TreeKey<G> = { [K in keyof G]: G[K] extends readonly TreeNode[] ? K : never }[keyof G];
type FigureKey<G> = { [K in keyof G]: G[K] extends string ? K : never }[keyof G];

/**
 * The trees of some types of account, each a section headed by its type and closed by the server's
 * total of it: [type, the group's tree, the group's total] each.
 */
function typeSections<G>(
  ctx: SectionContext,
  now: G,
  before: G | undefined,
  parts: readonly (readonly [AccountType, TreeKey<G>, FigureKey<G>])[],
): ReportSection[] {
  return parts.map(([type, tree, total]) => {
    const name = ctx.t(`types.${type}`);
    const trees = (g: G | undefined) => g?.[tree] as readonly TreeNode[] | undefined;
    return treeSection(ctx, name, trees(now)!, trees(before), {
      label: ctx.t('reports.totalOf', { what: name }),
      now: now[total] as string,
      before: before?.[total] as string | undefined,
    });
  });
}

export interface Periods {
  now: Period;
  before: Period;
}

/** A period of a series as people name it: its month (`2026-03`) when it is a whole month, else its days. */
export function periodLabel(start: string, end: string): string {
  const month = start.slice(0, 7);
  const wholeMonth = start.endsWith('-01') && end.slice(0, 7) === month && end === lastDayOf(month);
  return wholeMonth ? month : start === end ? start : `${start} – ${end}`;
}

function lastDayOf(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

/** The report's blocks, one per currency. */
export function reportBlocks(reports: Reports, periods: Periods, compare: boolean, t: Translate): ReportBlock[] {
  const asOfDrill = (accountId: string, which: 'now' | 'before'): Drill => ({ accountId, end: periods[which].end });
  const rangeDrill = (accountId: string, which: 'now' | 'before'): Drill => ({
    accountId,
    start: periods[which].start,
    end: periods[which].end,
  });
  switch (reports.kind) {
    case 'trial-balance':
      return reports.now.currencies.map((c) => {
        const before = reports.before?.currencies.find((p) => p.currency === c.currency);
        const previous = new Map(before?.rows.map((r) => [r.account_id, r]) ?? []);
        const side = (value: string, prev: string | undefined, accountId?: string) =>
          compared(c.currency, value, prev, compare, {
            now: accountId ? asOfDrill(accountId, 'now') : undefined,
            before: accountId ? asOfDrill(accountId, 'before') : undefined,
          });
        const rows: ReportRow[] = c.rows.map((r) => ({
          label: r.name,
          depth: 0,
          kind: 'account',
          cells: [
            ...side(r.debit, previous.get(r.account_id)?.debit, r.account_id),
            ...side(r.credit, previous.get(r.account_id)?.credit, r.account_id),
          ],
        }));
        rows.push({
          label: t('reports.total'),
          depth: 0,
          kind: 'total',
          cells: [...side(c.total_debit, before?.total_debit), ...side(c.total_credit, before?.total_credit)],
        });
        return {
          currency: c.currency,
          columns: [...figureColumns(t, compare, t('entry.debit')), ...figureColumns(t, compare, t('entry.credit'))],
          sections: [{ heading: null, rows }],
        };
      });
    case 'balance-sheet':
      return reports.now.currencies.map((c) => {
        const b = reports.before?.currencies.find((p) => p.currency === c.currency);
        const ctx = { t, currency: c.currency, compare, drillOf: asOfDrill };
        // the equity section as printed: its accounts, retained earnings and (converted) the
        // unrealised gains from rates, then their sum from the server
        const [assets, liabilities, equity] = typeSections(ctx, c, b, [
          ['ASSET', 'assets', 'total_assets'],
          ['LIABILITY', 'liabilities', 'total_liabilities'],
          ['EQUITY', 'equity', 'total_equity_and_earnings'],
        ]);
        const derived: ReportRow[] = [
          {
            label: t('accounts.retainedEarnings'),
            depth: 0,
            kind: 'derived',
            cells: compared(c.currency, c.retained_earnings, b?.retained_earnings, compare),
          },
        ];
        if (c.unrealized_gains !== undefined)
          derived.push({
            label: t('currency.unrealized'),
            depth: 0,
            kind: 'derived',
            cells: compared(c.currency, c.unrealized_gains, b?.unrealized_gains, compare),
          });
        equity!.rows.splice(equity!.rows.length - 1, 0, ...derived);
        return {
          currency: c.currency,
          columns: figureColumns(t, compare),
          sections: [
            assets!,
            liabilities!,
            equity!,
            {
              heading: null,
              rows: [
                {
                  label: t('reports.totalLiabilitiesAndEquity'),
                  depth: 0,
                  kind: 'total',
                  cells: compared(c.currency, c.total_liabilities_and_equity, b?.total_liabilities_and_equity, compare),
                },
                {
                  label: t('dashboard.netWorth'),
                  depth: 0,
                  kind: 'derived',
                  cells: compared(c.currency, c.net_worth, b?.net_worth, compare),
                },
              ],
            },
          ],
        };
      });
    case 'income-statement':
      return reports.now.currencies.map((c) => {
        const b = reports.before?.currencies.find((p) => p.currency === c.currency);
        const ctx = { t, currency: c.currency, compare, drillOf: rangeDrill };
        return {
          currency: c.currency,
          columns: figureColumns(t, compare),
          sections: [
            ...typeSections(ctx, c, b, [
              ['INCOME', 'income', 'total_income'],
              ['EXPENSE', 'expenses', 'total_expenses'],
            ]),
            {
              heading: null,
              rows: [
                {
                  label: t('reports.netIncome'),
                  depth: 0,
                  kind: 'total',
                  cells: compared(c.currency, c.net_income, b?.net_income, compare),
                },
              ],
            },
          ],
        };
      });
    case 'income-expenses':
      return reports.now.currencies.map((c) => {
        const b = reports.before?.currencies.find((p) => p.currency === c.currency);
        const rows: ReportRow[] = c.periods.map((p, i) => {
          const cells: (Cell | null)[] = [{ value: p.income }, { value: p.expenses }, { value: p.net }];
          if (compare) {
            const prev = b?.periods[i];
            cells.push(
              prev ? { value: prev.net } : null,
              prev ? { value: subtractDecimal(p.net, prev.net, c.currency) } : null,
            );
          }
          return { label: periodLabel(p.start_date, p.end_date), depth: 0, kind: 'account', cells };
        });
        rows.push({
          label: t('reports.total'),
          depth: 0,
          kind: 'total',
          cells: [
            { value: c.total_income },
            { value: c.total_expenses },
            ...compared(c.currency, c.net_income, b?.net_income, compare),
          ],
        });
        return {
          currency: c.currency,
          labelHeading: t('reports.period'),
          columns: [
            t('types.INCOME'),
            t('types.EXPENSE'),
            t('reports.net'),
            ...(compare ? [t('reports.previousNet'), t('reports.change')] : []),
          ],
          sections: [{ heading: null, rows }],
        };
      });
    case 'cash-flow':
      return reports.now.currencies.map((c) => {
        const b = reports.before?.currencies.find((p) => p.currency === c.currency);
        const previousNet = new Map(b?.by_account.map((a) => [a.account_id, a.net]) ?? []);
        const rowOf = (moneyIn: string, moneyOut: string, net: string, prevNet: string | undefined, id?: string) => {
          const drill = id ? rangeDrill(id, 'now') : undefined;
          const cells: (Cell | null)[] = [
            { value: moneyIn, ...(drill ? { drill } : {}) },
            { value: moneyOut, ...(drill ? { drill } : {}) },
            { value: net, ...(drill ? { drill } : {}) },
          ];
          if (compare) {
            const prev = prevNet ?? zero(c.currency);
            const back = id ? rangeDrill(id, 'before') : undefined;
            cells.push(
              { value: prev, ...(back ? { drill: back } : {}) },
              { value: subtractDecimal(net, prev, c.currency) },
            );
          }
          return cells;
        };
        const rows: ReportRow[] = c.by_account.map((a) => ({
          label: a.name,
          depth: 0,
          kind: 'account',
          cells: rowOf(a.money_in, a.money_out, a.net, previousNet.get(a.account_id), a.account_id),
        }));
        rows.push({
          label: t('reports.total'),
          depth: 0,
          kind: 'total',
          cells: rowOf(c.total_in, c.total_out, c.net, b?.net),
        });
        return {
          currency: c.currency,
          columns: [
            t('bank.moneyIn'),
            t('bank.moneyOut'),
            t('reports.net'),
            ...(compare ? [t('reports.previousNet'), t('reports.change')] : []),
          ],
          sections: [{ heading: t('reports.byCounterAccount'), rows }],
        };
      });
    case 'net-worth':
      return reports.now.currencies.map((c) => {
        const b = reports.before?.currencies.find((p) => p.currency === c.currency);
        const rows: ReportRow[] = c.series.map((point, i) => {
          const cells: (Cell | null)[] = [
            { value: point.assets, drill: { asOf: point.date } },
            { value: point.liabilities, drill: { asOf: point.date } },
            { value: point.net_worth, drill: { asOf: point.date } },
          ];
          if (compare) {
            const prev = b?.series[i];
            cells.push(
              prev ? { value: prev.net_worth, drill: { asOf: prev.date } } : null,
              prev ? { value: subtractDecimal(point.net_worth, prev.net_worth, c.currency) } : null,
            );
          }
          return { label: point.date, depth: 0, kind: 'account', cells };
        });
        return {
          currency: c.currency,
          columns: [
            t('dashboard.assets'),
            t('dashboard.liabilities'),
            t('dashboard.netWorth'),
            ...(compare ? [t('reports.previousNetWorth'), t('reports.change')] : []),
          ],
          sections: [{ heading: null, rows }],
        };
      });
  }
}
