CREATE TABLE statements (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  name TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('json', 'csv', 'ofx', 'qif', 'camt053')),
  imported_count INTEGER NOT NULL,
  duplicate_count INTEGER NOT NULL,
  start_date TEXT,
  end_date TEXT,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX statements_by_account ON statements (account_id);

CREATE TABLE bank_transactions (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  statement_id TEXT NOT NULL REFERENCES statements (id) ON DELETE CASCADE,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  date TEXT NOT NULL,
  description TEXT NOT NULL,
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  type TEXT NOT NULL CHECK (type IN ('debit', 'credit')),
  external_id TEXT,
  -- what makes a re-import a duplicate: the external id, or date, type, amount, description and
  -- position among equal rows; unique per account
  dedupe_key TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (account_id, dedupe_key)
) STRICT;
CREATE INDEX bank_transactions_by_account_date ON bank_transactions (account_id, date);
CREATE INDEX bank_transactions_by_statement ON bank_transactions (statement_id, date, seq);

CREATE TABLE reconciliation_runs (
  id TEXT PRIMARY KEY,
  statement_id TEXT,
  account_id TEXT,
  start_date TEXT,
  end_date TEXT,
  total_transactions INTEGER NOT NULL,
  auto_accepted INTEGER NOT NULL,
  pending_review INTEGER NOT NULL,
  unmatched INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  completed_at TEXT NOT NULL
) STRICT;

CREATE TABLE reconciliation_matches (
  id TEXT PRIMARY KEY,
  run_id TEXT REFERENCES reconciliation_runs (id),
  bank_transaction_id TEXT NOT NULL REFERENCES bank_transactions (id) ON DELETE CASCADE,
  entry_id TEXT NOT NULL REFERENCES journal_entries (id),
  status TEXT NOT NULL CHECK (status IN ('pending', 'auto_accepted', 'pending_review', 'accepted', 'rejected', 'superseded')),
  score INTEGER NOT NULL CHECK (score BETWEEN 0 AND 100),
  score_amount INTEGER NOT NULL,
  score_date INTEGER NOT NULL,
  score_description INTEGER NOT NULL,
  score_business INTEGER NOT NULL,
  score_history INTEGER NOT NULL,
  version INTEGER NOT NULL DEFAULT 1,
  superseded_by_id TEXT REFERENCES reconciliation_matches (id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  accepted_at TEXT,
  rejected_at TEXT,
  reject_reason TEXT
) STRICT;
-- One live match per bank transaction and per entry, whatever the code above does.
CREATE UNIQUE INDEX reconciliation_matches_live_txn ON reconciliation_matches (bank_transaction_id)
  WHERE status IN ('auto_accepted', 'accepted', 'pending_review');
CREATE UNIQUE INDEX reconciliation_matches_live_entry ON reconciliation_matches (entry_id)
  WHERE status IN ('auto_accepted', 'accepted', 'pending_review');
CREATE INDEX reconciliation_matches_by_txn ON reconciliation_matches (bank_transaction_id, entry_id, status);
CREATE INDEX reconciliation_matches_by_entry ON reconciliation_matches (entry_id, status);
CREATE INDEX reconciliation_matches_by_status ON reconciliation_matches (status, score);

-- What the payee model learns from: a bank description and the counter account it went to.
CREATE TABLE payee_examples (
  id INTEGER PRIMARY KEY,
  description TEXT NOT NULL,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  source TEXT NOT NULL CHECK (source IN ('accepted_match', 'created_entry')),
  created_at TEXT NOT NULL
) STRICT;

-- The CSV column mapping last used for an account's imports.
CREATE TABLE csv_mappings (
  account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  mapping TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
