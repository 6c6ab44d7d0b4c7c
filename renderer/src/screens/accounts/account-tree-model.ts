import type { AccountType, AllBalances, BalanceSheet, IncomeStatement, TreeNode } from '../../api/index.ts';

export interface AccountNode {
  id: string;
  name: string;
  type: AccountType;
  currency: string;
  isActive: boolean;
  /** the account's own balance */
  balance: string;
  /** own balance plus its sub-accounts' (of the same currency) */
  total: string;
  children: AccountNode[];
}

interface TypeSection {
  type: AccountType;
  nodes: AccountNode[];
  total: string | null;
}

export interface CurrencyTree {
  currency: string;
  sections: TypeSection[];
  netWorth: string | null;
  retainedEarnings: string | null;
}

export const TYPE_ORDER: readonly AccountType[] = ['ASSET', 'LIABILITY', 'EQUITY', 'INCOME', 'EXPENSE'];

/**
 * The account trees per currency, with own and rolled-up balances from the reports (balance sheet
 * for assets, liabilities and equity; income statement from the beginning for income and
 * expenses), and the active flag from the balances list. An account the reports leave out still
 * shows, at the top of its section, with its own balance as its total.
 */
export function buildAccountTrees(balances: AllBalances, sheet: BalanceSheet, income: IncomeStatement): CurrencyTree[] {
  const rows = new Map(balances.balances.map((b) => [b.account_id, b]));
  const placed = new Set<string>();
  const convert = (node: TreeNode, currency: string): AccountNode => {
    placed.add(node.account_id);
    const row = rows.get(node.account_id);
    return {
      id: node.account_id,
      name: node.name,
      type: node.type,
      currency,
      isActive: row?.is_active ?? true,
      balance: node.balance,
      total: node.total,
      children: node.children.map((c) => convert(c, currency)),
    };
  };

  const trees = new Map<string, CurrencyTree>();
  const treeOf = (currency: string): CurrencyTree => {
    let tree = trees.get(currency);
    if (!tree) {
      tree = {
        currency,
        sections: TYPE_ORDER.map((type) => ({ type, nodes: [], total: null })),
        netWorth: null,
        retainedEarnings: null,
      };
      trees.set(currency, tree);
    }
    return tree;
  };
  const section = (tree: CurrencyTree, type: AccountType) => tree.sections.find((s) => s.type === type)!;

  for (const c of sheet.currencies) {
    const tree = treeOf(c.currency);
    section(tree, 'ASSET').nodes = c.assets.map((n) => convert(n, c.currency));
    section(tree, 'ASSET').total = c.total_assets;
    section(tree, 'LIABILITY').nodes = c.liabilities.map((n) => convert(n, c.currency));
    section(tree, 'LIABILITY').total = c.total_liabilities;
    section(tree, 'EQUITY').nodes = c.equity.map((n) => convert(n, c.currency));
    // the section's total covers the retained earnings row printed in it
    section(tree, 'EQUITY').total = c.total_equity_and_earnings;
    tree.netWorth = c.net_worth;
    tree.retainedEarnings = c.retained_earnings;
  }
  for (const c of income.currencies) {
    const tree = treeOf(c.currency);
    section(tree, 'INCOME').nodes = c.income.map((n) => convert(n, c.currency));
    section(tree, 'INCOME').total = c.total_income;
    section(tree, 'EXPENSE').nodes = c.expenses.map((n) => convert(n, c.currency));
    section(tree, 'EXPENSE').total = c.total_expenses;
  }
  for (const row of balances.balances) {
    if (placed.has(row.account_id)) continue;
    section(treeOf(row.currency), row.type).nodes.push({
      id: row.account_id,
      name: row.name,
      type: row.type,
      currency: row.currency,
      isActive: row.is_active,
      balance: row.balance,
      total: row.balance,
      children: [],
    });
  }
  return [...trees.values()]
    .filter((tree) => tree.sections.some((s) => s.nodes.length > 0))
    .sort((a, b) => a.currency.localeCompare(b.currency));
}
