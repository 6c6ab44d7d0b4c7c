-- Entries per day, kept by triggers whatever code writes the journal (the API, the journal import,
-- a restore). A listing's exact total, and the day its page N starts on, come from these rows
-- (one per day and kind, never one per entry), so a register page is an index seek, not a scan of
-- the account's lines: no query that serves a screen reads every line.

-- Every entry, by its date, status and source.
CREATE TABLE journal_day_counts (
  day TEXT NOT NULL,
  status TEXT NOT NULL,
  source_type TEXT NOT NULL,
  entries INTEGER NOT NULL CHECK (entries >= 0),
  PRIMARY KEY (day, status, source_type)
) STRICT, WITHOUT ROWID;

-- Entries with at least one line on the account (an entry with two lines on it counts once).
CREATE TABLE account_day_counts (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  day TEXT NOT NULL,
  status TEXT NOT NULL,
  source_type TEXT NOT NULL,
  entries INTEGER NOT NULL CHECK (entries >= 0),
  PRIMARY KEY (account_id, day, status, source_type)
) STRICT, WITHOUT ROWID;

INSERT INTO journal_day_counts (day, status, source_type, entries)
  SELECT entry_date, status, source_type, COUNT(*) FROM journal_entries GROUP BY entry_date, status, source_type;

INSERT INTO account_day_counts (account_id, day, status, source_type, entries)
  SELECT l.account_id, l.entry_date, e.status, e.source_type, COUNT(DISTINCT l.entry_id)
    FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
   GROUP BY l.account_id, l.entry_date, e.status, e.source_type;

CREATE TRIGGER journal_day_counts_insert AFTER INSERT ON journal_entries
BEGIN
  INSERT INTO journal_day_counts (day, status, source_type, entries) VALUES (NEW.entry_date, NEW.status, NEW.source_type, 1)
    ON CONFLICT (day, status, source_type) DO UPDATE SET entries = entries + 1;
END;

CREATE TRIGGER journal_day_counts_update AFTER UPDATE OF entry_date, status, source_type ON journal_entries
  WHEN OLD.entry_date IS NOT NEW.entry_date OR OLD.status IS NOT NEW.status OR OLD.source_type IS NOT NEW.source_type
BEGIN
  UPDATE journal_day_counts SET entries = entries - 1 WHERE day = OLD.entry_date AND status = OLD.status AND source_type = OLD.source_type;
  DELETE FROM journal_day_counts WHERE day = OLD.entry_date AND status = OLD.status AND source_type = OLD.source_type AND entries = 0;
  INSERT INTO journal_day_counts (day, status, source_type, entries) VALUES (NEW.entry_date, NEW.status, NEW.source_type, 1)
    ON CONFLICT (day, status, source_type) DO UPDATE SET entries = entries + 1;
END;

-- A status change moves the entry's accounts to the new status; a date change needs nothing here,
-- because a draft's lines are rewritten with its new date (and counted by the line triggers).
CREATE TRIGGER account_day_counts_status AFTER UPDATE OF status, source_type ON journal_entries
  WHEN OLD.status IS NOT NEW.status OR OLD.source_type IS NOT NEW.source_type
BEGIN
  UPDATE account_day_counts SET entries = entries - 1
   WHERE status = OLD.status AND source_type = OLD.source_type
     AND (account_id, day) IN (SELECT DISTINCT account_id, entry_date FROM journal_lines WHERE entry_id = NEW.id);
  DELETE FROM account_day_counts
   WHERE status = OLD.status AND source_type = OLD.source_type AND entries = 0
     AND (account_id, day) IN (SELECT DISTINCT account_id, entry_date FROM journal_lines WHERE entry_id = NEW.id);
  INSERT INTO account_day_counts (account_id, day, status, source_type, entries)
    SELECT DISTINCT account_id, entry_date, NEW.status, NEW.source_type, 1 FROM journal_lines WHERE entry_id = NEW.id
    ON CONFLICT (account_id, day, status, source_type) DO UPDATE SET entries = entries + 1;
END;

-- An entry deleted with its lines: counted out here, while it still exists (the cascade's line
-- deletes then find no entry and change nothing).
CREATE TRIGGER day_counts_entry_delete BEFORE DELETE ON journal_entries
BEGIN
  UPDATE journal_day_counts SET entries = entries - 1 WHERE day = OLD.entry_date AND status = OLD.status AND source_type = OLD.source_type;
  DELETE FROM journal_day_counts WHERE day = OLD.entry_date AND status = OLD.status AND source_type = OLD.source_type AND entries = 0;
  UPDATE account_day_counts SET entries = entries - 1
   WHERE status = OLD.status AND source_type = OLD.source_type
     AND (account_id, day) IN (SELECT DISTINCT account_id, entry_date FROM journal_lines WHERE entry_id = OLD.id);
  DELETE FROM account_day_counts
   WHERE status = OLD.status AND source_type = OLD.source_type AND entries = 0
     AND (account_id, day) IN (SELECT DISTINCT account_id, entry_date FROM journal_lines WHERE entry_id = OLD.id);
END;

-- The first line of an entry on an account counts the entry for that account and day. (`+account_id`:
-- look among the entry's own lines, never along the account's index, which grows with the books.)
CREATE TRIGGER account_day_counts_line_insert AFTER INSERT ON journal_lines
  WHEN NOT EXISTS (SELECT 1 FROM journal_lines WHERE entry_id = NEW.entry_id AND +account_id = NEW.account_id AND id <> NEW.id)
BEGIN
  INSERT INTO account_day_counts (account_id, day, status, source_type, entries)
    SELECT NEW.account_id, NEW.entry_date, status, source_type, 1 FROM journal_entries WHERE id = NEW.entry_id
    ON CONFLICT (account_id, day, status, source_type) DO UPDATE SET entries = entries + 1;
END;

-- The last line of an entry on an account to go counts it out (a draft's lines being rewritten).
CREATE TRIGGER account_day_counts_line_delete AFTER DELETE ON journal_lines
  WHEN NOT EXISTS (SELECT 1 FROM journal_lines WHERE entry_id = OLD.entry_id AND +account_id = OLD.account_id)
BEGIN
  UPDATE account_day_counts SET entries = entries - 1
   WHERE account_id = OLD.account_id AND day = OLD.entry_date
     AND (status, source_type) IN (SELECT status, source_type FROM journal_entries WHERE id = OLD.entry_id);
  DELETE FROM account_day_counts WHERE account_id = OLD.account_id AND day = OLD.entry_date AND entries = 0;
END;

-- Lines are never moved in place (a draft's lines are deleted and inserted again); moving one would
-- bypass the counts, so it is refused.
CREATE TRIGGER account_day_counts_line_update AFTER UPDATE OF entry_id, account_id, entry_date ON journal_lines
BEGIN
  SELECT RAISE(ABORT, 'journal lines are not updated in place; delete and insert them');
END;
