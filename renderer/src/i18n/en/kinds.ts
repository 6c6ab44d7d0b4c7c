/** Names of the ledger's own kinds (account types, entry states and sources), shown on several screens. */
export const kinds = {
  type: {
    ASSET: 'Asset',
    LIABILITY: 'Liability',
    EQUITY: 'Equity',
    INCOME: 'Income',
    EXPENSE: 'Expense',
  },
  types: {
    ASSET: 'Assets',
    LIABILITY: 'Liabilities',
    EQUITY: 'Equity',
    INCOME: 'Income',
    EXPENSE: 'Expenses',
  },
  status: {
    draft: 'Draft',
    posted: 'Posted',
    void: 'Void',
  },
  source: {
    manual: 'Manual',
    import: 'Import',
    system: 'System',
    reconciliation: 'Reconciliation',
    schedule: 'Schedule',
  },
} as const;
