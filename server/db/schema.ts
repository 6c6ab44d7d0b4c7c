/** Row types of the SQLite files, for the query builder. Integers read back as bigint. */

export interface IdentitySchema {
  users: {
    id: string;
    email: string;
    name: string;
    password_hash: string;
    created_at: string;
  };
}

export interface LedgerSchema {
  accounts: {
    id: string;
    name: string;
    name_key: string;
    type: string;
    currency: string;
    description: string | null;
    is_active: bigint;
    parent_id: string | null;
    created_at: string;
    updated_at: string;
  };
  journal_entries: {
    id: string;
    seq: bigint;
    entry_date: string;
    memo: string | null;
    status: string;
    source_type: string;
    created_at: string;
    updated_at: string;
    posted_at: string | null;
    voided_at: string | null;
    void_reason: string | null;
    reversal_entry_id: string | null;
    reverses_entry_id: string | null;
  };
  journal_lines: {
    id: string;
    entry_id: string;
    line_no: bigint;
    account_id: string;
    direction: string;
    amount_minor: bigint;
    currency: string;
    entry_date: string;
  };
  account_day_totals: { account_id: string; day: string; debit_minor: bigint; credit_minor: bigint };
  account_month_totals: { account_id: string; month: string; debit_minor: bigint; credit_minor: bigint };
  cash_flow_day_totals: { account_id: string; day: string; in_minor: bigint; out_minor: bigint };
  cash_flow_month_totals: { account_id: string; month: string; in_minor: bigint; out_minor: bigint };
}
