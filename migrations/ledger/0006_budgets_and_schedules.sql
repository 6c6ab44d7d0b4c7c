-- Entries booked from a schedule carry source_type 'schedule'. SQLite cannot alter a CHECK, and
-- rebuilding journal_entries would rewrite every entry and drop the triggers kept on it; widening
-- the list of allowed values changes no stored row, so the table's definition is edited in place,
-- as SQLite documents for loosening a constraint (the runner lifts defensive mode for migrations).
-- Any DDL after it bumps the schema cookie, so every connection reloads the schema.
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
   SET sql = replace(sql, '''system'', ''reconciliation'')', '''system'', ''reconciliation'', ''schedule'')')
 WHERE type = 'table' AND name = 'journal_entries';
PRAGMA writable_schema = RESET;
-- Fails the migration (json() of a sentence is malformed JSON) if the definition was not the one
-- expected, rather than leaving entries unable to say where they came from.
SELECT CASE
  WHEN (SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'journal_entries') LIKE '%''reconciliation'', ''schedule'')%'
  THEN 1
  ELSE json('journal_entries.source_type could not be widened to allow schedule')
END;

-- A month's budget: an amount per EXPENSE or INCOME account (a month without lines has no budget).
CREATE TABLE budget_lines (
  -- YYYY-MM
  month TEXT NOT NULL,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  amount_minor INTEGER NOT NULL CHECK (amount_minor >= 0),
  -- what is left (or overspent) at the month's end is carried into the next month's line
  carry_over INTEGER NOT NULL DEFAULT 0 CHECK (carry_over IN (0, 1)),
  PRIMARY KEY (month, account_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX budget_lines_by_account ON budget_lines (account_id, month);

CREATE TABLE schedules (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  name TEXT NOT NULL,
  memo TEXT,
  frequency TEXT NOT NULL CHECK (frequency IN ('daily', 'weekly', 'monthly', 'yearly')),
  interval INTEGER NOT NULL CHECK (interval >= 1),
  start_date TEXT NOT NULL,
  -- inclusive; NULL: no end
  end_date TEXT,
  auto_post INTEGER NOT NULL CHECK (auto_post IN (0, 1)),
  -- the first occurrence not yet booked (occurrences before it are booked or skipped); NULL once ended
  next_date TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX schedules_by_next_date ON schedules (next_date);

CREATE TABLE schedule_lines (
  schedule_id TEXT NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
  line_no INTEGER NOT NULL,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  direction TEXT NOT NULL CHECK (direction IN ('DEBIT', 'CREDIT')),
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  currency TEXT NOT NULL,
  PRIMARY KEY (schedule_id, line_no)
) STRICT, WITHOUT ROWID;
CREATE INDEX schedule_lines_by_account ON schedule_lines (account_id);

-- One row per occurrence that was booked or skipped. The primary key is the guarantee that an
-- occurrence becomes at most one entry, whichever connection or process books it and however often.
CREATE TABLE schedule_occurrences (
  schedule_id TEXT NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
  date TEXT NOT NULL,
  -- the entry booked for it; NULL when skipped (or when the draft it became was deleted)
  entry_id TEXT REFERENCES journal_entries (id) ON DELETE SET NULL,
  skipped INTEGER NOT NULL CHECK (skipped IN (0, 1)),
  created_at TEXT NOT NULL,
  PRIMARY KEY (schedule_id, date)
) STRICT, WITHOUT ROWID;
CREATE INDEX schedule_occurrences_by_entry ON schedule_occurrences (entry_id) WHERE entry_id IS NOT NULL;
