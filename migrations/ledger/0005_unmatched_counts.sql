-- What the unmatched list counts, per account and day, kept by triggers whatever code writes the
-- journal, the statements or the matches (as the day counts of 0004 are). The list's exact total,
-- and the day its page N starts on, come from these rows, so a deep page is an index range, not a
-- count of every unmatched entry. A match is live in status auto_accepted, accepted or pending_review.
-- A row that falls to zero stays (a later count there reuses it): one statement less in every trigger,
-- which matters for a reconciliation run writing thousands of matches.

-- Bank transactions with no live match.
CREATE TABLE unmatched_transaction_day_counts (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  day TEXT NOT NULL,
  transactions INTEGER NOT NULL CHECK (transactions >= 0),
  PRIMARY KEY (account_id, day)
) STRICT, WITHOUT ROWID;

-- Posted entries that reverse nothing and have no live match, once per account they have a line on
-- (every account: the list shows those of accounts with statements, which may come later).
CREATE TABLE unmatched_entry_day_counts (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  day TEXT NOT NULL,
  entries INTEGER NOT NULL CHECK (entries >= 0),
  PRIMARY KEY (account_id, day)
) STRICT, WITHOUT ROWID;

INSERT INTO unmatched_transaction_day_counts (account_id, day, transactions)
  SELECT t.account_id, t.date, COUNT(*) FROM bank_transactions t
   WHERE NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.bank_transaction_id = t.id AND m.status IN ('auto_accepted', 'accepted', 'pending_review'))
   GROUP BY t.account_id, t.date;

INSERT INTO unmatched_entry_day_counts (account_id, day, entries)
  SELECT l.account_id, l.entry_date, COUNT(DISTINCT l.entry_id) FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
   WHERE e.status = 'posted' AND e.reverses_entry_id IS NULL
     AND NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.entry_id = e.id AND m.status IN ('auto_accepted', 'accepted', 'pending_review'))
   GROUP BY l.account_id, l.entry_date;

-- Bank transactions: a new one has no match yet; one deleted is counted out while its matches still
-- exist (their cascade then finds no transaction and changes nothing here).
CREATE TRIGGER unmatched_transaction_insert AFTER INSERT ON bank_transactions
BEGIN
  INSERT INTO unmatched_transaction_day_counts (account_id, day, transactions) VALUES (NEW.account_id, NEW.date, 1)
    ON CONFLICT (account_id, day) DO UPDATE SET transactions = transactions + 1;
END;

CREATE TRIGGER unmatched_transaction_delete BEFORE DELETE ON bank_transactions
  WHEN NOT EXISTS (SELECT 1 FROM reconciliation_matches WHERE bank_transaction_id = OLD.id AND status IN ('auto_accepted', 'accepted', 'pending_review'))
BEGIN
  UPDATE unmatched_transaction_day_counts SET transactions = transactions - 1 WHERE account_id = OLD.account_id AND day = OLD.date;
END;

CREATE TRIGGER unmatched_transaction_move AFTER UPDATE OF account_id, date ON bank_transactions
  WHEN (OLD.account_id IS NOT NEW.account_id OR OLD.date IS NOT NEW.date)
   AND NOT EXISTS (SELECT 1 FROM reconciliation_matches WHERE bank_transaction_id = NEW.id AND status IN ('auto_accepted', 'accepted', 'pending_review'))
BEGIN
  UPDATE unmatched_transaction_day_counts SET transactions = transactions - 1 WHERE account_id = OLD.account_id AND day = OLD.date;
  INSERT INTO unmatched_transaction_day_counts (account_id, day, transactions) VALUES (NEW.account_id, NEW.date, 1)
    ON CONFLICT (account_id, day) DO UPDATE SET transactions = transactions + 1;
END;

-- Lines: the first line of a counted entry on an account counts it there; the last to go counts it
-- out. Lines are never moved in place (0004 refuses it). An entry deleted with its lines is counted
-- out before, while it still exists (the cascade's line deletes then find no entry).
CREATE TRIGGER unmatched_entry_line_insert AFTER INSERT ON journal_lines
  WHEN NOT EXISTS (SELECT 1 FROM journal_lines WHERE entry_id = NEW.entry_id AND +account_id = NEW.account_id AND id <> NEW.id)
BEGIN
  INSERT INTO unmatched_entry_day_counts (account_id, day, entries)
    SELECT NEW.account_id, NEW.entry_date, 1 FROM journal_entries e
     WHERE e.id = NEW.entry_id AND e.status = 'posted' AND e.reverses_entry_id IS NULL
       AND NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.entry_id = e.id AND m.status IN ('auto_accepted', 'accepted', 'pending_review'))
    ON CONFLICT (account_id, day) DO UPDATE SET entries = entries + 1;
END;

CREATE TRIGGER unmatched_entry_line_delete AFTER DELETE ON journal_lines
  WHEN NOT EXISTS (SELECT 1 FROM journal_lines WHERE entry_id = OLD.entry_id AND +account_id = OLD.account_id)
   AND EXISTS (SELECT 1 FROM journal_entries e WHERE e.id = OLD.entry_id AND e.status = 'posted' AND e.reverses_entry_id IS NULL
                 AND NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.entry_id = e.id AND m.status IN ('auto_accepted', 'accepted', 'pending_review')))
BEGIN
  UPDATE unmatched_entry_day_counts SET entries = entries - 1 WHERE account_id = OLD.account_id AND day = OLD.entry_date;
END;

CREATE TRIGGER unmatched_entry_delete BEFORE DELETE ON journal_entries
  WHEN OLD.status = 'posted' AND OLD.reverses_entry_id IS NULL
   AND NOT EXISTS (SELECT 1 FROM reconciliation_matches WHERE entry_id = OLD.id AND status IN ('auto_accepted', 'accepted', 'pending_review'))
BEGIN
  UPDATE unmatched_entry_day_counts SET entries = entries - 1
   WHERE day = OLD.entry_date AND account_id IN (SELECT account_id FROM journal_lines WHERE entry_id = OLD.id);
END;

-- Entries: posting counts an entry in; voiding it, or marking it as a reversal, counts it out.
CREATE TRIGGER unmatched_entry_counted_in AFTER UPDATE OF status, reverses_entry_id ON journal_entries
  WHEN NOT (OLD.status = 'posted' AND OLD.reverses_entry_id IS NULL) AND (NEW.status = 'posted' AND NEW.reverses_entry_id IS NULL)
   AND NOT EXISTS (SELECT 1 FROM reconciliation_matches WHERE entry_id = NEW.id AND status IN ('auto_accepted', 'accepted', 'pending_review'))
BEGIN
  INSERT INTO unmatched_entry_day_counts (account_id, day, entries)
    SELECT DISTINCT account_id, entry_date, 1 FROM journal_lines WHERE entry_id = NEW.id
    ON CONFLICT (account_id, day) DO UPDATE SET entries = entries + 1;
END;

CREATE TRIGGER unmatched_entry_counted_out AFTER UPDATE OF status, reverses_entry_id ON journal_entries
  WHEN (OLD.status = 'posted' AND OLD.reverses_entry_id IS NULL) AND NOT (NEW.status = 'posted' AND NEW.reverses_entry_id IS NULL)
   AND NOT EXISTS (SELECT 1 FROM reconciliation_matches WHERE entry_id = NEW.id AND status IN ('auto_accepted', 'accepted', 'pending_review'))
BEGIN
  UPDATE unmatched_entry_day_counts SET entries = entries - 1
   WHERE day = NEW.entry_date AND account_id IN (SELECT account_id FROM journal_lines WHERE entry_id = NEW.id);
END;

-- Matches: a match becoming live takes its transaction and its entry out of the counts; one that
-- stops being live (rejected, superseded, deleted) gives back whichever is left with no live match.
-- (At most one match per transaction and per entry is live: 0002's unique indexes.)
CREATE TRIGGER unmatched_match_insert AFTER INSERT ON reconciliation_matches
  WHEN NEW.status IN ('auto_accepted', 'accepted', 'pending_review')
BEGIN
  UPDATE unmatched_transaction_day_counts SET transactions = transactions - 1
   WHERE (account_id, day) = (SELECT account_id, date FROM bank_transactions WHERE id = NEW.bank_transaction_id)
     AND NOT EXISTS (SELECT 1 FROM reconciliation_matches WHERE bank_transaction_id = NEW.bank_transaction_id AND status IN ('auto_accepted', 'accepted', 'pending_review') AND id <> NEW.id);
  UPDATE unmatched_entry_day_counts SET entries = entries - 1
   WHERE day = (SELECT entry_date FROM journal_entries WHERE id = NEW.entry_id AND status = 'posted' AND reverses_entry_id IS NULL)
     AND account_id IN (SELECT account_id FROM journal_lines WHERE entry_id = NEW.entry_id)
     AND NOT EXISTS (SELECT 1 FROM reconciliation_matches WHERE entry_id = NEW.entry_id AND status IN ('auto_accepted', 'accepted', 'pending_review') AND id <> NEW.id);
END;

CREATE TRIGGER unmatched_match_taken AFTER UPDATE OF status, bank_transaction_id, entry_id ON reconciliation_matches
  WHEN NEW.status IN ('auto_accepted', 'accepted', 'pending_review')
   AND (OLD.status NOT IN ('auto_accepted', 'accepted', 'pending_review') OR OLD.bank_transaction_id IS NOT NEW.bank_transaction_id OR OLD.entry_id IS NOT NEW.entry_id)
BEGIN
  UPDATE unmatched_transaction_day_counts SET transactions = transactions - 1
   WHERE (account_id, day) = (SELECT account_id, date FROM bank_transactions WHERE id = NEW.bank_transaction_id)
     AND NOT EXISTS (SELECT 1 FROM reconciliation_matches WHERE bank_transaction_id = NEW.bank_transaction_id AND status IN ('auto_accepted', 'accepted', 'pending_review') AND id <> NEW.id);
  UPDATE unmatched_entry_day_counts SET entries = entries - 1
   WHERE day = (SELECT entry_date FROM journal_entries WHERE id = NEW.entry_id AND status = 'posted' AND reverses_entry_id IS NULL)
     AND account_id IN (SELECT account_id FROM journal_lines WHERE entry_id = NEW.entry_id)
     AND NOT EXISTS (SELECT 1 FROM reconciliation_matches WHERE entry_id = NEW.entry_id AND status IN ('auto_accepted', 'accepted', 'pending_review') AND id <> NEW.id);
END;

CREATE TRIGGER unmatched_match_released AFTER UPDATE OF status, bank_transaction_id, entry_id ON reconciliation_matches
  WHEN OLD.status IN ('auto_accepted', 'accepted', 'pending_review')
   AND (NEW.status NOT IN ('auto_accepted', 'accepted', 'pending_review') OR OLD.bank_transaction_id IS NOT NEW.bank_transaction_id OR OLD.entry_id IS NOT NEW.entry_id)
BEGIN
  INSERT INTO unmatched_transaction_day_counts (account_id, day, transactions)
    SELECT account_id, date, 1 FROM bank_transactions WHERE id = OLD.bank_transaction_id
       AND NOT EXISTS (SELECT 1 FROM reconciliation_matches WHERE bank_transaction_id = OLD.bank_transaction_id AND status IN ('auto_accepted', 'accepted', 'pending_review'))
    ON CONFLICT (account_id, day) DO UPDATE SET transactions = transactions + 1;
  INSERT INTO unmatched_entry_day_counts (account_id, day, entries)
    SELECT DISTINCT l.account_id, e.entry_date, 1 FROM journal_entries e JOIN journal_lines l ON l.entry_id = e.id
     WHERE e.id = OLD.entry_id AND e.status = 'posted' AND e.reverses_entry_id IS NULL
       AND NOT EXISTS (SELECT 1 FROM reconciliation_matches WHERE entry_id = OLD.entry_id AND status IN ('auto_accepted', 'accepted', 'pending_review'))
    ON CONFLICT (account_id, day) DO UPDATE SET entries = entries + 1;
END;

CREATE TRIGGER unmatched_match_delete AFTER DELETE ON reconciliation_matches
  WHEN OLD.status IN ('auto_accepted', 'accepted', 'pending_review')
BEGIN
  INSERT INTO unmatched_transaction_day_counts (account_id, day, transactions)
    SELECT account_id, date, 1 FROM bank_transactions WHERE id = OLD.bank_transaction_id
       AND NOT EXISTS (SELECT 1 FROM reconciliation_matches WHERE bank_transaction_id = OLD.bank_transaction_id AND status IN ('auto_accepted', 'accepted', 'pending_review'))
    ON CONFLICT (account_id, day) DO UPDATE SET transactions = transactions + 1;
  INSERT INTO unmatched_entry_day_counts (account_id, day, entries)
    SELECT DISTINCT l.account_id, e.entry_date, 1 FROM journal_entries e JOIN journal_lines l ON l.entry_id = e.id
     WHERE e.id = OLD.entry_id AND e.status = 'posted' AND e.reverses_entry_id IS NULL
       AND NOT EXISTS (SELECT 1 FROM reconciliation_matches WHERE entry_id = OLD.entry_id AND status IN ('auto_accepted', 'accepted', 'pending_review'))
    ON CONFLICT (account_id, day) DO UPDATE SET entries = entries + 1;
END;
