-- Categorisation rules, statement balances, the cleared state of journal lines, the cleared totals
-- that reconciling to the bank reads, and the record of each reconciliation (CONTRACT §13, §14).

-- A rule books a bank line against an account: the first rule (priority high first, then oldest)
-- whose conditions all hold. A rule goes with its account (it can book nothing without it).
CREATE TABLE rules (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  name TEXT NOT NULL,
  description_op TEXT CHECK (description_op IN ('contains', 'equals', 'starts_with', 'regex')),
  description_value TEXT,
  type TEXT CHECK (type IN ('debit', 'credit')),
  -- exact decimal text, compared exactly with a line's amount in its own currency
  amount_min TEXT,
  amount_max TEXT,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  memo TEXT,
  priority INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((description_op IS NULL) = (description_value IS NULL))
) STRICT;
CREATE INDEX rules_in_order ON rules (priority DESC, created_at, seq);
CREATE INDEX rules_by_account ON rules (account_id);

-- The balances a bank file states, signed as the account's balance (CONTRACT §5), or set by hand.
ALTER TABLE statements ADD COLUMN opening_balance_minor INTEGER;
ALTER TABLE statements ADD COLUMN closing_balance_minor INTEGER;
ALTER TABLE statements ADD COLUMN closing_date TEXT;

-- Every line is uncleared, cleared (the bank shows it) or reconciled (part of a finished reconciliation).
ALTER TABLE journal_lines ADD COLUMN cleared TEXT NOT NULL DEFAULT 'uncleared'
  CHECK (cleared IN ('uncleared', 'cleared', 'reconciled'));

-- The lines still to reconcile, per account and date: the reconcile screen's list and the lines a
-- reconciliation marks. Reconciled lines leave it, so it holds what a person has left to tick.
CREATE INDEX journal_lines_unreconciled ON journal_lines (account_id, entry_date) WHERE cleared <> 'reconciled';

-- Lines reconciled with a bank transaction by a match already accepted are cleared.
UPDATE journal_lines SET cleared = 'cleared'
 WHERE id IN (SELECT l.id FROM reconciliation_matches m
                JOIN bank_transactions t ON t.id = m.bank_transaction_id
                JOIN journal_lines l ON l.entry_id = m.entry_id AND l.account_id = t.account_id
               WHERE m.status IN ('accepted', 'auto_accepted'));

-- Per account and day, over the lines of posted entries that reverse nothing (a voided entry and its
-- reversal cancel out and never appear on a bank statement): the cleared lines' debits and credits
-- (cleared or reconciled), and how many lines are uncleared and cleared-not-yet-reconciled. Kept by
-- triggers whatever code writes the journal or the matches; reconcile-status sums these rows, never
-- the lines. A row that falls to zero stays, as in the unmatched counts.
CREATE TABLE account_cleared_day_totals (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  day TEXT NOT NULL,
  cleared_debit_minor INTEGER NOT NULL,
  cleared_credit_minor INTEGER NOT NULL,
  uncleared_lines INTEGER NOT NULL CHECK (uncleared_lines >= 0),
  cleared_lines INTEGER NOT NULL CHECK (cleared_lines >= 0),
  PRIMARY KEY (account_id, day)
) STRICT, WITHOUT ROWID;

INSERT INTO account_cleared_day_totals (account_id, day, cleared_debit_minor, cleared_credit_minor, uncleared_lines, cleared_lines)
  SELECT l.account_id, l.entry_date,
         SUM(CASE WHEN l.cleared <> 'uncleared' AND l.direction = 'DEBIT' THEN l.amount_minor ELSE 0 END),
         SUM(CASE WHEN l.cleared <> 'uncleared' AND l.direction = 'CREDIT' THEN l.amount_minor ELSE 0 END),
         SUM(l.cleared = 'uncleared'), SUM(l.cleared = 'cleared')
    FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
   WHERE e.status = 'posted' AND e.reverses_entry_id IS NULL
   GROUP BY l.account_id, l.entry_date;

-- A line of a counted entry comes in (an entry posted as it is created).
CREATE TRIGGER cleared_totals_line_insert AFTER INSERT ON journal_lines
  WHEN EXISTS (SELECT 1 FROM journal_entries WHERE id = NEW.entry_id AND status = 'posted' AND reverses_entry_id IS NULL)
BEGIN
  INSERT INTO account_cleared_day_totals (account_id, day, cleared_debit_minor, cleared_credit_minor, uncleared_lines, cleared_lines)
    VALUES (NEW.account_id, NEW.entry_date,
            CASE WHEN NEW.cleared <> 'uncleared' AND NEW.direction = 'DEBIT' THEN NEW.amount_minor ELSE 0 END,
            CASE WHEN NEW.cleared <> 'uncleared' AND NEW.direction = 'CREDIT' THEN NEW.amount_minor ELSE 0 END,
            NEW.cleared = 'uncleared', NEW.cleared = 'cleared')
    ON CONFLICT (account_id, day) DO UPDATE SET
      cleared_debit_minor = cleared_debit_minor + excluded.cleared_debit_minor,
      cleared_credit_minor = cleared_credit_minor + excluded.cleared_credit_minor,
      uncleared_lines = uncleared_lines + excluded.uncleared_lines,
      cleared_lines = cleared_lines + excluded.cleared_lines;
END;

-- A line of a counted entry goes (never in practice: posted lines stay; an entry deleted with its
-- lines is counted out before, below, and its cascade then finds no entry here).
CREATE TRIGGER cleared_totals_line_delete AFTER DELETE ON journal_lines
  WHEN EXISTS (SELECT 1 FROM journal_entries WHERE id = OLD.entry_id AND status = 'posted' AND reverses_entry_id IS NULL)
BEGIN
  UPDATE account_cleared_day_totals SET
    cleared_debit_minor = cleared_debit_minor - CASE WHEN OLD.cleared <> 'uncleared' AND OLD.direction = 'DEBIT' THEN OLD.amount_minor ELSE 0 END,
    cleared_credit_minor = cleared_credit_minor - CASE WHEN OLD.cleared <> 'uncleared' AND OLD.direction = 'CREDIT' THEN OLD.amount_minor ELSE 0 END,
    uncleared_lines = uncleared_lines - (OLD.cleared = 'uncleared'),
    cleared_lines = cleared_lines - (OLD.cleared = 'cleared')
   WHERE account_id = OLD.account_id AND day = OLD.entry_date;
END;

-- A line's cleared state changes (0004 refuses moving a line to another entry, account or date).
CREATE TRIGGER cleared_totals_line_update AFTER UPDATE OF cleared, direction, amount_minor ON journal_lines
  WHEN EXISTS (SELECT 1 FROM journal_entries WHERE id = NEW.entry_id AND status = 'posted' AND reverses_entry_id IS NULL)
BEGIN
  UPDATE account_cleared_day_totals SET
    cleared_debit_minor = cleared_debit_minor
      - CASE WHEN OLD.cleared <> 'uncleared' AND OLD.direction = 'DEBIT' THEN OLD.amount_minor ELSE 0 END
      + CASE WHEN NEW.cleared <> 'uncleared' AND NEW.direction = 'DEBIT' THEN NEW.amount_minor ELSE 0 END,
    cleared_credit_minor = cleared_credit_minor
      - CASE WHEN OLD.cleared <> 'uncleared' AND OLD.direction = 'CREDIT' THEN OLD.amount_minor ELSE 0 END
      + CASE WHEN NEW.cleared <> 'uncleared' AND NEW.direction = 'CREDIT' THEN NEW.amount_minor ELSE 0 END,
    uncleared_lines = uncleared_lines - (OLD.cleared = 'uncleared') + (NEW.cleared = 'uncleared'),
    cleared_lines = cleared_lines - (OLD.cleared = 'cleared') + (NEW.cleared = 'cleared')
   WHERE account_id = NEW.account_id AND day = NEW.entry_date;
END;

-- An entry starts being counted (a draft posted) or stops (voided, or marked as a reversal).
CREATE TRIGGER cleared_totals_counted_in AFTER UPDATE OF status, reverses_entry_id ON journal_entries
  WHEN NOT (OLD.status = 'posted' AND OLD.reverses_entry_id IS NULL) AND (NEW.status = 'posted' AND NEW.reverses_entry_id IS NULL)
BEGIN
  INSERT INTO account_cleared_day_totals (account_id, day, cleared_debit_minor, cleared_credit_minor, uncleared_lines, cleared_lines)
    SELECT account_id, entry_date,
           SUM(CASE WHEN cleared <> 'uncleared' AND direction = 'DEBIT' THEN amount_minor ELSE 0 END),
           SUM(CASE WHEN cleared <> 'uncleared' AND direction = 'CREDIT' THEN amount_minor ELSE 0 END),
           SUM(cleared = 'uncleared'), SUM(cleared = 'cleared')
      FROM journal_lines WHERE entry_id = NEW.id GROUP BY account_id, entry_date
    ON CONFLICT (account_id, day) DO UPDATE SET
      cleared_debit_minor = cleared_debit_minor + excluded.cleared_debit_minor,
      cleared_credit_minor = cleared_credit_minor + excluded.cleared_credit_minor,
      uncleared_lines = uncleared_lines + excluded.uncleared_lines,
      cleared_lines = cleared_lines + excluded.cleared_lines;
END;

CREATE TRIGGER cleared_totals_counted_out AFTER UPDATE OF status, reverses_entry_id ON journal_entries
  WHEN (OLD.status = 'posted' AND OLD.reverses_entry_id IS NULL) AND NOT (NEW.status = 'posted' AND NEW.reverses_entry_id IS NULL)
BEGIN
  UPDATE account_cleared_day_totals SET
    cleared_debit_minor = cleared_debit_minor - (SELECT COALESCE(SUM(amount_minor), 0) FROM journal_lines
      WHERE entry_id = NEW.id AND +account_id = account_cleared_day_totals.account_id AND cleared <> 'uncleared' AND direction = 'DEBIT'),
    cleared_credit_minor = cleared_credit_minor - (SELECT COALESCE(SUM(amount_minor), 0) FROM journal_lines
      WHERE entry_id = NEW.id AND +account_id = account_cleared_day_totals.account_id AND cleared <> 'uncleared' AND direction = 'CREDIT'),
    uncleared_lines = uncleared_lines - (SELECT COUNT(*) FROM journal_lines
      WHERE entry_id = NEW.id AND +account_id = account_cleared_day_totals.account_id AND cleared = 'uncleared'),
    cleared_lines = cleared_lines - (SELECT COUNT(*) FROM journal_lines
      WHERE entry_id = NEW.id AND +account_id = account_cleared_day_totals.account_id AND cleared = 'cleared')
   WHERE day = NEW.entry_date AND account_id IN (SELECT account_id FROM journal_lines WHERE entry_id = NEW.id);
END;

CREATE TRIGGER cleared_totals_entry_delete BEFORE DELETE ON journal_entries
  WHEN OLD.status = 'posted' AND OLD.reverses_entry_id IS NULL
BEGIN
  UPDATE account_cleared_day_totals SET
    cleared_debit_minor = cleared_debit_minor - (SELECT COALESCE(SUM(amount_minor), 0) FROM journal_lines
      WHERE entry_id = OLD.id AND +account_id = account_cleared_day_totals.account_id AND cleared <> 'uncleared' AND direction = 'DEBIT'),
    cleared_credit_minor = cleared_credit_minor - (SELECT COALESCE(SUM(amount_minor), 0) FROM journal_lines
      WHERE entry_id = OLD.id AND +account_id = account_cleared_day_totals.account_id AND cleared <> 'uncleared' AND direction = 'CREDIT'),
    uncleared_lines = uncleared_lines - (SELECT COUNT(*) FROM journal_lines
      WHERE entry_id = OLD.id AND +account_id = account_cleared_day_totals.account_id AND cleared = 'uncleared'),
    cleared_lines = cleared_lines - (SELECT COUNT(*) FROM journal_lines
      WHERE entry_id = OLD.id AND +account_id = account_cleared_day_totals.account_id AND cleared = 'cleared')
   WHERE day = OLD.entry_date AND account_id IN (SELECT account_id FROM journal_lines WHERE entry_id = OLD.id);
END;

-- A match that reconciles a bank transaction with an entry clears the entry's lines on the
-- transaction's account; one that stops doing so (rejected, superseded, deleted) unclears them
-- again, unless they are reconciled already (the services refuse what would undo that).
CREATE TRIGGER cleared_by_match_insert AFTER INSERT ON reconciliation_matches
  WHEN NEW.status IN ('accepted', 'auto_accepted')
BEGIN
  UPDATE journal_lines SET cleared = 'cleared'
   WHERE entry_id = NEW.entry_id AND cleared = 'uncleared'
     AND +account_id = (SELECT account_id FROM bank_transactions WHERE id = NEW.bank_transaction_id);
END;

CREATE TRIGGER cleared_by_match_taken AFTER UPDATE OF status ON reconciliation_matches
  WHEN NEW.status IN ('accepted', 'auto_accepted') AND OLD.status NOT IN ('accepted', 'auto_accepted')
BEGIN
  UPDATE journal_lines SET cleared = 'cleared'
   WHERE entry_id = NEW.entry_id AND cleared = 'uncleared'
     AND +account_id = (SELECT account_id FROM bank_transactions WHERE id = NEW.bank_transaction_id);
END;

CREATE TRIGGER cleared_by_match_released AFTER UPDATE OF status ON reconciliation_matches
  WHEN OLD.status IN ('accepted', 'auto_accepted') AND NEW.status NOT IN ('accepted', 'auto_accepted')
BEGIN
  UPDATE journal_lines SET cleared = 'uncleared'
   WHERE entry_id = OLD.entry_id AND cleared = 'cleared'
     AND +account_id = (SELECT account_id FROM bank_transactions WHERE id = OLD.bank_transaction_id);
END;

CREATE TRIGGER cleared_by_match_delete AFTER DELETE ON reconciliation_matches
  WHEN OLD.status IN ('accepted', 'auto_accepted')
BEGIN
  UPDATE journal_lines SET cleared = 'uncleared'
   WHERE entry_id = OLD.entry_id AND cleared = 'cleared'
     AND +account_id = (SELECT account_id FROM bank_transactions WHERE id = OLD.bank_transaction_id);
END;

-- Each finished reconciliation of an account to a bank statement's balance.
CREATE TABLE bank_reconciliations (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  statement_date TEXT NOT NULL,
  statement_balance_minor INTEGER NOT NULL,
  line_count INTEGER NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX bank_reconciliations_by_account ON bank_reconciliations (account_id, seq);
