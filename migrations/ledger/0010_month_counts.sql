-- Per-month counts beside the per-day counts of the registers and the entry list (migrations 0004
-- and register_and_search), so that page N of a listing is found by walking months (a dozen a
-- year) and then the days of one month, never every day back to the page. Each month row is the
-- sum of its day rows, kept by triggers on those day rows: whatever code changes a day row (the
-- API, the journal import, a batch, a void, a draft deleted) changes its month the same way.

-- An account's lines that count in its balance, per month (the sum of account_day_lines).
CREATE TABLE account_month_lines (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  month TEXT NOT NULL,
  lines INTEGER NOT NULL CHECK (lines >= 0),
  PRIMARY KEY (account_id, month)
) STRICT, WITHOUT ROWID;

-- Entries with a line on the account, per month, status and source (the sum of account_day_counts).
CREATE TABLE account_month_counts (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  month TEXT NOT NULL,
  status TEXT NOT NULL,
  source_type TEXT NOT NULL,
  entries INTEGER NOT NULL CHECK (entries >= 0),
  PRIMARY KEY (account_id, month, status, source_type)
) STRICT, WITHOUT ROWID;

-- Every entry, per month, status and source (the sum of journal_day_counts).
CREATE TABLE journal_month_counts (
  month TEXT NOT NULL,
  status TEXT NOT NULL,
  source_type TEXT NOT NULL,
  entries INTEGER NOT NULL CHECK (entries >= 0),
  PRIMARY KEY (month, status, source_type)
) STRICT, WITHOUT ROWID;

INSERT INTO account_month_lines (account_id, month, lines)
  SELECT account_id, substr(day, 1, 7), SUM(lines) FROM account_day_lines GROUP BY account_id, substr(day, 1, 7);

INSERT INTO account_month_counts (account_id, month, status, source_type, entries)
  SELECT account_id, substr(day, 1, 7), status, source_type, SUM(entries)
    FROM account_day_counts GROUP BY account_id, substr(day, 1, 7), status, source_type;

INSERT INTO journal_month_counts (month, status, source_type, entries)
  SELECT substr(day, 1, 7), status, source_type, SUM(entries) FROM journal_day_counts GROUP BY substr(day, 1, 7), status, source_type;

-- Each table's day row inserted, changed (an upsert's DO UPDATE is an update) or deleted moves its
-- month by the difference; a month row at zero goes, as a day row at zero does.

CREATE TRIGGER account_month_lines_day_insert AFTER INSERT ON account_day_lines
BEGIN
  INSERT INTO account_month_lines (account_id, month, lines) VALUES (NEW.account_id, substr(NEW.day, 1, 7), NEW.lines)
    ON CONFLICT (account_id, month) DO UPDATE SET lines = lines + excluded.lines;
END;

CREATE TRIGGER account_month_lines_day_update AFTER UPDATE ON account_day_lines
BEGIN
  UPDATE account_month_lines SET lines = lines - OLD.lines WHERE account_id = OLD.account_id AND month = substr(OLD.day, 1, 7);
  INSERT INTO account_month_lines (account_id, month, lines) VALUES (NEW.account_id, substr(NEW.day, 1, 7), NEW.lines)
    ON CONFLICT (account_id, month) DO UPDATE SET lines = lines + excluded.lines;
  DELETE FROM account_month_lines WHERE account_id = OLD.account_id AND month = substr(OLD.day, 1, 7) AND lines = 0;
END;

CREATE TRIGGER account_month_lines_day_delete AFTER DELETE ON account_day_lines
BEGIN
  UPDATE account_month_lines SET lines = lines - OLD.lines WHERE account_id = OLD.account_id AND month = substr(OLD.day, 1, 7);
  DELETE FROM account_month_lines WHERE account_id = OLD.account_id AND month = substr(OLD.day, 1, 7) AND lines = 0;
END;

CREATE TRIGGER account_month_counts_day_insert AFTER INSERT ON account_day_counts
BEGIN
  INSERT INTO account_month_counts (account_id, month, status, source_type, entries)
    VALUES (NEW.account_id, substr(NEW.day, 1, 7), NEW.status, NEW.source_type, NEW.entries)
    ON CONFLICT (account_id, month, status, source_type) DO UPDATE SET entries = entries + excluded.entries;
END;

CREATE TRIGGER account_month_counts_day_update AFTER UPDATE ON account_day_counts
BEGIN
  UPDATE account_month_counts SET entries = entries - OLD.entries
   WHERE account_id = OLD.account_id AND month = substr(OLD.day, 1, 7) AND status = OLD.status AND source_type = OLD.source_type;
  INSERT INTO account_month_counts (account_id, month, status, source_type, entries)
    VALUES (NEW.account_id, substr(NEW.day, 1, 7), NEW.status, NEW.source_type, NEW.entries)
    ON CONFLICT (account_id, month, status, source_type) DO UPDATE SET entries = entries + excluded.entries;
  DELETE FROM account_month_counts
   WHERE account_id = OLD.account_id AND month = substr(OLD.day, 1, 7) AND status = OLD.status AND source_type = OLD.source_type
     AND entries = 0;
END;

CREATE TRIGGER account_month_counts_day_delete AFTER DELETE ON account_day_counts
BEGIN
  UPDATE account_month_counts SET entries = entries - OLD.entries
   WHERE account_id = OLD.account_id AND month = substr(OLD.day, 1, 7) AND status = OLD.status AND source_type = OLD.source_type;
  DELETE FROM account_month_counts
   WHERE account_id = OLD.account_id AND month = substr(OLD.day, 1, 7) AND status = OLD.status AND source_type = OLD.source_type
     AND entries = 0;
END;

CREATE TRIGGER journal_month_counts_day_insert AFTER INSERT ON journal_day_counts
BEGIN
  INSERT INTO journal_month_counts (month, status, source_type, entries)
    VALUES (substr(NEW.day, 1, 7), NEW.status, NEW.source_type, NEW.entries)
    ON CONFLICT (month, status, source_type) DO UPDATE SET entries = entries + excluded.entries;
END;

CREATE TRIGGER journal_month_counts_day_update AFTER UPDATE ON journal_day_counts
BEGIN
  UPDATE journal_month_counts SET entries = entries - OLD.entries
   WHERE month = substr(OLD.day, 1, 7) AND status = OLD.status AND source_type = OLD.source_type;
  INSERT INTO journal_month_counts (month, status, source_type, entries)
    VALUES (substr(NEW.day, 1, 7), NEW.status, NEW.source_type, NEW.entries)
    ON CONFLICT (month, status, source_type) DO UPDATE SET entries = entries + excluded.entries;
  DELETE FROM journal_month_counts
   WHERE month = substr(OLD.day, 1, 7) AND status = OLD.status AND source_type = OLD.source_type AND entries = 0;
END;

CREATE TRIGGER journal_month_counts_day_delete AFTER DELETE ON journal_day_counts
BEGIN
  UPDATE journal_month_counts SET entries = entries - OLD.entries
   WHERE month = substr(OLD.day, 1, 7) AND status = OLD.status AND source_type = OLD.source_type;
  DELETE FROM journal_month_counts
   WHERE month = substr(OLD.day, 1, 7) AND status = OLD.status AND source_type = OLD.source_type AND entries = 0;
END;
