CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  -- lower-cased name: names are unique per user ignoring case
  name_key TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL CHECK (type IN ('ASSET', 'LIABILITY', 'EQUITY', 'INCOME', 'EXPENSE')),
  currency TEXT NOT NULL,
  description TEXT,
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  parent_id TEXT REFERENCES accounts (id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX accounts_parent ON accounts (parent_id);

CREATE TABLE journal_entries (
  id TEXT PRIMARY KEY,
  -- creation order, the last tie-breaker of every listing (rowids may change on VACUUM)
  seq INTEGER NOT NULL UNIQUE,
  entry_date TEXT NOT NULL,
  memo TEXT,
  status TEXT NOT NULL CHECK (status IN ('draft', 'posted', 'void')),
  source_type TEXT NOT NULL CHECK (source_type IN ('manual', 'import', 'system', 'reconciliation')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  posted_at TEXT,
  voided_at TEXT,
  void_reason TEXT,
  reversal_entry_id TEXT REFERENCES journal_entries (id),
  reverses_entry_id TEXT REFERENCES journal_entries (id)
) STRICT;
CREATE INDEX journal_entries_by_date ON journal_entries (entry_date, created_at, seq);
CREATE INDEX journal_entries_by_status ON journal_entries (status, entry_date, created_at, seq);
CREATE INDEX journal_entries_by_source ON journal_entries (source_type, entry_date, created_at, seq);

CREATE TABLE journal_lines (
  id TEXT PRIMARY KEY,
  entry_id TEXT NOT NULL REFERENCES journal_entries (id) ON DELETE CASCADE,
  line_no INTEGER NOT NULL,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  direction TEXT NOT NULL CHECK (direction IN ('DEBIT', 'CREDIT')),
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  currency TEXT NOT NULL,
  -- the entry's date, kept beside the line so one account's register is an index range
  entry_date TEXT NOT NULL,
  UNIQUE (entry_id, line_no)
) STRICT;
CREATE INDEX journal_lines_by_account ON journal_lines (account_id, entry_date, entry_id);

-- Maintained aggregates of everything ever posted (status posted or void), updated in the same
-- transaction as each posting. Balances and reports read these, never every line.
CREATE TABLE account_day_totals (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  day TEXT NOT NULL,
  debit_minor INTEGER NOT NULL,
  credit_minor INTEGER NOT NULL,
  PRIMARY KEY (account_id, day)
) STRICT, WITHOUT ROWID;
CREATE INDEX account_day_totals_by_day ON account_day_totals (day, account_id, debit_minor, credit_minor);

CREATE TABLE account_month_totals (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  month TEXT NOT NULL,
  debit_minor INTEGER NOT NULL,
  credit_minor INTEGER NOT NULL,
  PRIMARY KEY (account_id, month)
) STRICT, WITHOUT ROWID;
CREATE INDEX account_month_totals_by_month ON account_month_totals (month, account_id, debit_minor, credit_minor);

-- Money into (counter line CREDIT) and out of (counter line DEBIT) ASSET accounts, by the
-- non-asset counter account, for entries with an ASSET line in that currency.
CREATE TABLE cash_flow_day_totals (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  day TEXT NOT NULL,
  in_minor INTEGER NOT NULL,
  out_minor INTEGER NOT NULL,
  PRIMARY KEY (account_id, day)
) STRICT, WITHOUT ROWID;
CREATE INDEX cash_flow_day_totals_by_day ON cash_flow_day_totals (day, account_id, in_minor, out_minor);

CREATE TABLE cash_flow_month_totals (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  month TEXT NOT NULL,
  in_minor INTEGER NOT NULL,
  out_minor INTEGER NOT NULL,
  PRIMARY KEY (account_id, month)
) STRICT, WITHOUT ROWID;
CREATE INDEX cash_flow_month_totals_by_month ON cash_flow_month_totals (month, account_id, in_minor, out_minor);
