-- The change log: every change to the rows the user owns, one message per row and change, with
-- its hybrid logical clock timestamp (server/sync/clock.ts). It is the books' history (History,
-- Undo) and what the sync sends (docs/sync.md). A write marks the rows it touches in change_dirty
-- (the triggers below, in the write's own transaction, whichever connection writes); the write path
-- turns the marks into messages before it commits (server/db/change-log.ts), and the few a job's
-- connection leaves are turned into messages by the next write or read of the log.
CREATE TABLE change_log (
  timestamp TEXT PRIMARY KEY,
  -- the device that made the change: the timestamp's node
  node TEXT NOT NULL,
  dataset TEXT NOT NULL,
  row_id TEXT NOT NULL,
  -- the row as JSON (an entry with its lines, a rule with its splits), null when deleted
  value TEXT,
  -- which message of a row wins: the highest rank, then the latest (an entry's status: posted and
  -- void outrank a draft, so that no merge takes a posted entry back to a draft)
  rank INTEGER NOT NULL DEFAULT 0,
  -- kept on this device only: the first timestamp of the write that made it (a write's changes
  -- are undone together), whether an Undo made it, and when it was undone
  write_ts TEXT,
  undo INTEGER NOT NULL DEFAULT 0 CHECK (undo IN (0, 1)),
  undone_at TEXT
) STRICT;
CREATE INDEX change_log_by_row ON change_log (dataset, row_id, rank, timestamp);
CREATE INDEX change_log_by_node ON change_log (node, timestamp);
CREATE INDEX change_log_by_write ON change_log (write_ts) WHERE write_ts IS NOT NULL;

-- The rows written since the change log last took them, in the order first marked. The triggers
-- test before they insert rather than INSERT OR IGNORE: an upsert's conflict clause would override
-- theirs and make a second mark of a row fail.
CREATE TABLE change_dirty (
  dataset TEXT NOT NULL,
  row_id TEXT NOT NULL,
  UNIQUE (dataset, row_id)
) STRICT;

-- Received rows that wait for a row they name (an entry for an account whose change has not come
-- yet: changes arrive in the order of their clocks, not of their causes); applied once it is here.
CREATE TABLE change_parked (
  dataset TEXT NOT NULL,
  row_id TEXT NOT NULL,
  PRIMARY KEY (dataset, row_id)
) STRICT, WITHOUT ROWID;

-- This device's node id and clock for these books, and the sync group they are in (if any).
CREATE TABLE sync_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  node TEXT NOT NULL,
  -- the merkle trie of the log's timestamps up to trie_through (JSON); later ones are added on load
  trie TEXT NOT NULL,
  trie_through TEXT NOT NULL,
  -- the group: JSON of the relay, its account's token, the group id, key id, key and key test
  sync_group TEXT,
  -- the next sync's since, and the last sync's outcome
  since TEXT,
  last_sync_at TEXT,
  last_error TEXT
) STRICT;

CREATE TRIGGER accounts_changed_insert AFTER INSERT ON accounts
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'accounts', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'accounts' AND row_id = NEW.id);
END;

CREATE TRIGGER accounts_changed_update AFTER UPDATE ON accounts
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'accounts', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'accounts' AND row_id = NEW.id);
END;

CREATE TRIGGER accounts_changed_delete AFTER DELETE ON accounts
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'accounts', OLD.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'accounts' AND row_id = OLD.id);
END;

CREATE TRIGGER journal_entries_changed_insert AFTER INSERT ON journal_entries
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'journal_entries', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'journal_entries' AND row_id = NEW.id);
END;

CREATE TRIGGER journal_entries_changed_update AFTER UPDATE ON journal_entries
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'journal_entries', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'journal_entries' AND row_id = NEW.id);
END;

CREATE TRIGGER journal_entries_changed_delete AFTER DELETE ON journal_entries
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'journal_entries', OLD.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'journal_entries' AND row_id = OLD.id);
END;

CREATE TRIGGER journal_lines_changed_insert AFTER INSERT ON journal_lines
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'journal_entries', NEW.entry_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'journal_entries' AND row_id = NEW.entry_id);
END;

CREATE TRIGGER journal_lines_changed_update AFTER UPDATE ON journal_lines
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'journal_entries', NEW.entry_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'journal_entries' AND row_id = NEW.entry_id);
END;

CREATE TRIGGER journal_lines_changed_delete AFTER DELETE ON journal_lines
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'journal_entries', OLD.entry_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'journal_entries' AND row_id = OLD.entry_id);
END;

CREATE TRIGGER rules_changed_insert AFTER INSERT ON rules
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'rules', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'rules' AND row_id = NEW.id);
END;

CREATE TRIGGER rules_changed_update AFTER UPDATE ON rules
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'rules', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'rules' AND row_id = NEW.id);
END;

CREATE TRIGGER rules_changed_delete AFTER DELETE ON rules
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'rules', OLD.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'rules' AND row_id = OLD.id);
END;

CREATE TRIGGER rule_splits_changed_insert AFTER INSERT ON rule_splits
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'rules', NEW.rule_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'rules' AND row_id = NEW.rule_id);
END;

CREATE TRIGGER rule_splits_changed_update AFTER UPDATE ON rule_splits
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'rules', NEW.rule_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'rules' AND row_id = NEW.rule_id);
END;

CREATE TRIGGER rule_splits_changed_delete AFTER DELETE ON rule_splits
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'rules', OLD.rule_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'rules' AND row_id = OLD.rule_id);
END;

CREATE TRIGGER budget_lines_changed_insert AFTER INSERT ON budget_lines
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'budget_lines', NEW.month || ' ' || NEW.account_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'budget_lines' AND row_id = NEW.month || ' ' || NEW.account_id);
END;

CREATE TRIGGER budget_lines_changed_update AFTER UPDATE ON budget_lines
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'budget_lines', NEW.month || ' ' || NEW.account_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'budget_lines' AND row_id = NEW.month || ' ' || NEW.account_id);
END;

CREATE TRIGGER budget_lines_changed_delete AFTER DELETE ON budget_lines
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'budget_lines', OLD.month || ' ' || OLD.account_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'budget_lines' AND row_id = OLD.month || ' ' || OLD.account_id);
END;

CREATE TRIGGER schedules_changed_insert AFTER INSERT ON schedules
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'schedules', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'schedules' AND row_id = NEW.id);
END;

CREATE TRIGGER schedules_changed_update AFTER UPDATE ON schedules
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'schedules', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'schedules' AND row_id = NEW.id);
END;

CREATE TRIGGER schedules_changed_delete AFTER DELETE ON schedules
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'schedules', OLD.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'schedules' AND row_id = OLD.id);
END;

CREATE TRIGGER schedule_lines_changed_insert AFTER INSERT ON schedule_lines
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'schedules', NEW.schedule_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'schedules' AND row_id = NEW.schedule_id);
END;

CREATE TRIGGER schedule_lines_changed_update AFTER UPDATE ON schedule_lines
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'schedules', NEW.schedule_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'schedules' AND row_id = NEW.schedule_id);
END;

CREATE TRIGGER schedule_lines_changed_delete AFTER DELETE ON schedule_lines
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'schedules', OLD.schedule_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'schedules' AND row_id = OLD.schedule_id);
END;

CREATE TRIGGER schedule_occurrences_changed_insert AFTER INSERT ON schedule_occurrences
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'schedule_occurrences', NEW.schedule_id || ' ' || NEW.date
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'schedule_occurrences' AND row_id = NEW.schedule_id || ' ' || NEW.date);
END;

CREATE TRIGGER schedule_occurrences_changed_update AFTER UPDATE ON schedule_occurrences
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'schedule_occurrences', NEW.schedule_id || ' ' || NEW.date
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'schedule_occurrences' AND row_id = NEW.schedule_id || ' ' || NEW.date);
END;

CREATE TRIGGER schedule_occurrences_changed_delete AFTER DELETE ON schedule_occurrences
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'schedule_occurrences', OLD.schedule_id || ' ' || OLD.date
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'schedule_occurrences' AND row_id = OLD.schedule_id || ' ' || OLD.date);
END;

CREATE TRIGGER prices_changed_insert AFTER INSERT ON prices
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'prices', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'prices' AND row_id = NEW.id);
END;

CREATE TRIGGER prices_changed_update AFTER UPDATE ON prices
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'prices', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'prices' AND row_id = NEW.id);
END;

CREATE TRIGGER prices_changed_delete AFTER DELETE ON prices
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'prices', OLD.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'prices' AND row_id = OLD.id);
END;

CREATE TRIGGER settings_changed_insert AFTER INSERT ON settings
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'settings', NEW.key
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'settings' AND row_id = NEW.key);
END;

CREATE TRIGGER settings_changed_update AFTER UPDATE ON settings
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'settings', NEW.key
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'settings' AND row_id = NEW.key);
END;

CREATE TRIGGER settings_changed_delete AFTER DELETE ON settings
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'settings', OLD.key
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'settings' AND row_id = OLD.key);
END;

CREATE TRIGGER csv_mappings_changed_insert AFTER INSERT ON csv_mappings
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'csv_mappings', NEW.account_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'csv_mappings' AND row_id = NEW.account_id);
END;

CREATE TRIGGER csv_mappings_changed_update AFTER UPDATE ON csv_mappings
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'csv_mappings', NEW.account_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'csv_mappings' AND row_id = NEW.account_id);
END;

CREATE TRIGGER csv_mappings_changed_delete AFTER DELETE ON csv_mappings
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'csv_mappings', OLD.account_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'csv_mappings' AND row_id = OLD.account_id);
END;

CREATE TRIGGER currency_trading_accounts_changed_insert AFTER INSERT ON currency_trading_accounts
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'currency_trading_accounts', NEW.currency
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'currency_trading_accounts' AND row_id = NEW.currency);
END;

CREATE TRIGGER currency_trading_accounts_changed_update AFTER UPDATE ON currency_trading_accounts
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'currency_trading_accounts', NEW.currency
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'currency_trading_accounts' AND row_id = NEW.currency);
END;

CREATE TRIGGER currency_trading_accounts_changed_delete AFTER DELETE ON currency_trading_accounts
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'currency_trading_accounts', OLD.currency
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'currency_trading_accounts' AND row_id = OLD.currency);
END;
