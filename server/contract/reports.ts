import { z } from 'zod';
import { accountType } from './accounts.ts';
import { currencyCode, dateRange, inOrder, isoDate, resourceId } from './common.ts';
import { missingRate } from './prices.ts';

const convertedRange = {
  ...dateRange,
  /** CONTRACT §16: adds `converted` (every figure in this currency) and `missing_rates` */
  convert_to: currencyCode.optional(),
};

/** How a series or a cash flow is cut: by day, week or month. */
const interval = z.enum(['day', 'week', 'month']);

export const asOfReportQuery = z.strictObject({ as_of: isoDate.optional(), convert_to: currencyCode.optional() });
export const rangeQuery = inOrder(z.strictObject(convertedRange));
export const seriesQuery = inOrder(z.strictObject({ ...convertedRange, interval: interval.default('month') }));

export interface TreeNode {
  account_id: string;
  name: string;
  type: z.infer<typeof accountType>;
  balance: string;
  total: string;
  children: TreeNode[];
}

export const treeNode: z.ZodType<TreeNode> = z
  .object({
    account_id: resourceId,
    name: z.string(),
    type: accountType,
    /** the account's own balance */
    balance: z.string(),
    /** own balance plus all sub-accounts' */
    total: z.string(),
    get children() {
      return z.array(treeNode);
    },
  })
  .meta({ id: 'AccountTreeNode' });

const trialBalanceGroup = z.object({
  currency: z.string(),
  rows: z.array(
    z.object({
      account_id: resourceId,
      name: z.string(),
      type: accountType,
      debit: z.string(),
      credit: z.string(),
    }),
  ),
  total_debit: z.string(),
  total_credit: z.string(),
});

export const trialBalance = z.object({
  as_of: isoDate,
  currencies: z.array(trialBalanceGroup),
  converted: trialBalanceGroup.optional(),
  missing_rates: z.array(missingRate).optional(),
});

const balanceSheetGroup = z.object({
  currency: z.string(),
  assets: z.array(treeNode),
  liabilities: z.array(treeNode),
  equity: z.array(treeNode),
  retained_earnings: z.string(),
  /**
   * converted: what foreign balances bought by exchanges and securities held are worth at as_of less
   * what they cost; per currency (only where securities are held): the securities' market value less cost
   */
  unrealized_gains: z.string().optional(),
  total_assets: z.string(),
  total_liabilities: z.string(),
  /** the equity accounts' total (the rows of `equity`) */
  total_equity: z.string(),
  /** the equity section as printed: total_equity + retained_earnings (+ unrealized_gains) */
  total_equity_and_earnings: z.string(),
  /** total_liabilities + total_equity_and_earnings: always equal to total_assets */
  total_liabilities_and_equity: z.string(),
  net_worth: z.string(),
});

export const balanceSheet = z.object({
  as_of: isoDate,
  currencies: z.array(balanceSheetGroup),
  converted: balanceSheetGroup.optional(),
  missing_rates: z.array(missingRate).optional(),
});

const incomeStatementGroup = z.object({
  currency: z.string(),
  income: z.array(treeNode),
  expenses: z.array(treeNode),
  total_income: z.string(),
  total_expenses: z.string(),
  net_income: z.string(),
});

export const incomeStatement = z.object({
  start_date: isoDate,
  end_date: isoDate,
  currencies: z.array(incomeStatementGroup),
  converted: incomeStatementGroup.optional(),
  missing_rates: z.array(missingRate).optional(),
});

const netWorthSeriesGroup = z.object({
  currency: z.string(),
  series: z.array(z.object({ date: isoDate, assets: z.string(), liabilities: z.string(), net_worth: z.string() })),
});

export const netWorthSeries = z.object({
  start_date: isoDate,
  end_date: isoDate,
  interval,
  currencies: z.array(netWorthSeriesGroup),
  converted: netWorthSeriesGroup.optional(),
  missing_rates: z.array(missingRate).optional(),
});

const cashFlowAccount = z.object({
  account_id: resourceId,
  name: z.string(),
  type: accountType,
  money_in: z.string(),
  money_out: z.string(),
});

const cashFlowGroup = z.object({
  currency: z.string(),
  periods: z.array(
    z.object({
      start_date: isoDate,
      end_date: isoDate,
      money_in: z.string(),
      money_out: z.string(),
      net: z.string(),
      by_account: z.array(cashFlowAccount),
    }),
  ),
  /** each counter account over the whole range: the sums of its figures in `periods` */
  by_account: z.array(cashFlowAccount.extend({ net: z.string() })),
  total_in: z.string(),
  total_out: z.string(),
  net: z.string(),
});

export const cashFlow = z.object({
  start_date: isoDate,
  end_date: isoDate,
  interval,
  currencies: z.array(cashFlowGroup),
  converted: cashFlowGroup.optional(),
  missing_rates: z.array(missingRate).optional(),
});
