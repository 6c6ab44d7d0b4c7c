import type { Generated } from 'kysely';

/** Row types of the SQLite files, for the query builder. Integers read back as bigint. */

export interface IdentitySchema {
  users: {
    id: string;
    email: string;
    name: string;
    password_hash: string;
    created_at: string;
    password_changed_at: string | null;
  };
  sessions: {
    id: string;
    user_id: string;
    created_at: string;
    expires_at: string;
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
    corrects_entry_id: Generated<string | null>;
    corrected_by_entry_id: Generated<string | null>;
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
    /** 'uncleared' | 'cleared' | 'reconciled' */
    cleared: Generated<string>;
    cost_minor: bigint | null;
    cost_currency: string | null;
    automatic: bigint;
  };
  securities: { id: string; symbol: string; name: string; currency: string; created_at: string };
  investment_accounts: {
    account_id: string;
    booking_method: string;
    short_term_account_id: string | null;
    long_term_account_id: string | null;
    long_term_days: bigint;
  };
  trades: {
    id: string;
    seq: bigint;
    entry_id: string | null;
    account_id: string;
    security_id: string;
    kind: string;
    trade_date: string;
    units_atoms: bigint;
    price: string | null;
    amount_minor: bigint;
    fees_minor: bigint;
    units_delta_atoms: bigint;
    basis_delta_minor: bigint;
    proceeds_minor: bigint;
    cost_minor: bigint;
    created_at: string;
  };
  lots: {
    id: string;
    seq: bigint;
    trade_id: string;
    account_id: string;
    security_id: string;
    buy_date: string;
    units_bought_atoms: bigint;
    basis_bought_minor: bigint;
    units_atoms: bigint;
    basis_minor: bigint;
  };
  lot_reductions: {
    trade_id: string;
    lot_id: string;
    security_id: string;
    sale_date: string;
    units_atoms: bigint;
    basis_minor: bigint;
    proceeds_minor: bigint;
    gain_minor: bigint;
    long_term: bigint;
  };
  holdings: {
    account_id: string;
    security_id: string;
    units_atoms: bigint;
    basis_minor: bigint;
    realized_minor: bigint;
  };
  security_prices: { security_id: string; date: string; price: string };
  account_day_totals: { account_id: string; day: string; debit_minor: bigint; credit_minor: bigint };
  account_month_totals: { account_id: string; month: string; debit_minor: bigint; credit_minor: bigint };
  cash_flow_day_totals: { account_id: string; day: string; in_minor: bigint; out_minor: bigint };
  cash_flow_month_totals: { account_id: string; month: string; in_minor: bigint; out_minor: bigint };
  statements: {
    id: string;
    seq: bigint;
    account_id: string;
    name: string;
    source: string;
    imported_count: bigint;
    duplicate_count: bigint;
    start_date: string | null;
    end_date: string | null;
    created_at: string;
    opening_balance_minor: bigint | null;
    closing_balance_minor: bigint | null;
    closing_date: string | null;
  };
  bank_transactions: {
    id: string;
    seq: bigint;
    statement_id: string;
    account_id: string;
    date: string;
    description: string;
    amount_minor: bigint;
    type: string;
    external_id: string | null;
    dedupe_key: string;
    created_at: string;
  };
  reconciliation_runs: {
    id: string;
    statement_id: string | null;
    account_id: string | null;
    start_date: string | null;
    end_date: string | null;
    total_transactions: bigint;
    auto_accepted: bigint;
    pending_review: bigint;
    unmatched: bigint;
    created_at: string;
    completed_at: string;
  };
  reconciliation_matches: {
    id: string;
    run_id: string | null;
    bank_transaction_id: string;
    entry_id: string;
    status: string;
    score: bigint;
    score_amount: bigint;
    score_date: bigint;
    score_description: bigint;
    score_business: bigint;
    score_history: bigint;
    version: bigint;
    superseded_by_id: string | null;
    created_at: string;
    updated_at: string;
    accepted_at: string | null;
    rejected_at: string | null;
    reject_reason: string | null;
  };
  payee_examples: {
    id: Generated<bigint>;
    description: string;
    account_id: string;
    source: string;
    created_at: string;
    txn_type: string | null;
    amount_minor: bigint | null;
  };
  rules: {
    id: string;
    seq: bigint;
    name: string;
    description_op: string | null;
    description_value: string | null;
    type: string | null;
    amount_min: string | null;
    amount_max: string | null;
    account_id: string;
    memo: string | null;
    priority: bigint;
    created_at: string;
    updated_at: string;
  };
  rule_splits: {
    rule_id: string;
    position: bigint;
    account_id: string;
    amount: string | null;
    percent: string | null;
  };
  account_cleared_day_totals: {
    account_id: string;
    day: string;
    cleared_debit_minor: bigint;
    cleared_credit_minor: bigint;
    uncleared_lines: bigint;
    cleared_lines: bigint;
  };
  bank_reconciliations: {
    id: string;
    seq: bigint;
    account_id: string;
    statement_date: string;
    statement_balance_minor: bigint;
    line_count: bigint;
    created_at: string;
  };
  attachment_files: { sha256: string; size_bytes: bigint; content_type: string; created_at: string };
  attachments: {
    id: string;
    entry_id: string | null;
    bank_transaction_id: string | null;
    sha256: string;
    file_name: string;
    created_at: string;
  };
  attachment_usage: { id: bigint; files: bigint; bytes: bigint };
  /** a stored file's chunks of 512 KiB (migration 0020): each one change message, its bytes read from the file when sent */
  attachment_chunks: { sha256: string; chunk: bigint; chunks: bigint; size_bytes: bigint };
  csv_mappings: { account_id: string; mapping: string; updated_at: string };
  chat_sessions: { id: string; title: string; status: string; created_at: string; updated_at: string };
  chat_messages: { id: string; seq: bigint; session_id: string; role: string; content: string; created_at: string };
}
