-- Statements, bank lines, reconciliation runs, matches and bank reconciliations join the change log
-- (docs/sync.md, "What syncs"): each row its own message, marked by the triggers below in 0017's form.
-- A bank line is its own row, not a child of its statement: a line is matched, booked and merged by
-- its bank id on its own, and a statement of 10,000 lines as one value would pass the relay's 1 MiB
-- envelope. The payee examples stay on each device (the payee model's own learning, rebuilt from what
-- each device accepts; docs/sync.md).

-- A received reconciliation is put in its account's order by when it was finished (created_at, then
-- id), not by when it arrived: the later one is the account's last reconciliation on every device.
CREATE INDEX bank_reconciliations_by_account_time ON bank_reconciliations (account_id, created_at, id);

-- Statements likewise, in the order they were imported, wherever they arrive (their lines with them).
CREATE INDEX statements_by_time ON statements (created_at, id);

-- Two imports of the same bank file on two devices: the apply finds a line's twin by its bank id.
-- (bank_transactions' UNIQUE (account_id, dedupe_key) is that index already.)

CREATE TRIGGER statements_changed_insert AFTER INSERT ON statements
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'statements', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'statements' AND row_id = NEW.id);
END;

CREATE TRIGGER statements_changed_update AFTER UPDATE ON statements
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'statements', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'statements' AND row_id = NEW.id);
END;

CREATE TRIGGER statements_changed_delete AFTER DELETE ON statements
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'statements', OLD.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'statements' AND row_id = OLD.id);
END;

CREATE TRIGGER bank_transactions_changed_insert AFTER INSERT ON bank_transactions
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'bank_transactions', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'bank_transactions' AND row_id = NEW.id);
END;

CREATE TRIGGER bank_transactions_changed_update AFTER UPDATE ON bank_transactions
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'bank_transactions', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'bank_transactions' AND row_id = NEW.id);
END;

CREATE TRIGGER bank_transactions_changed_delete AFTER DELETE ON bank_transactions
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'bank_transactions', OLD.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'bank_transactions' AND row_id = OLD.id);
END;

CREATE TRIGGER reconciliation_runs_changed_insert AFTER INSERT ON reconciliation_runs
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'reconciliation_runs', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'reconciliation_runs' AND row_id = NEW.id);
END;

CREATE TRIGGER reconciliation_runs_changed_update AFTER UPDATE ON reconciliation_runs
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'reconciliation_runs', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'reconciliation_runs' AND row_id = NEW.id);
END;

CREATE TRIGGER reconciliation_runs_changed_delete AFTER DELETE ON reconciliation_runs
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'reconciliation_runs', OLD.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'reconciliation_runs' AND row_id = OLD.id);
END;

CREATE TRIGGER reconciliation_matches_changed_insert AFTER INSERT ON reconciliation_matches
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'reconciliation_matches', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'reconciliation_matches' AND row_id = NEW.id);
END;

CREATE TRIGGER reconciliation_matches_changed_update AFTER UPDATE ON reconciliation_matches
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'reconciliation_matches', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'reconciliation_matches' AND row_id = NEW.id);
END;

CREATE TRIGGER reconciliation_matches_changed_delete AFTER DELETE ON reconciliation_matches
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'reconciliation_matches', OLD.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'reconciliation_matches' AND row_id = OLD.id);
END;

CREATE TRIGGER bank_reconciliations_changed_insert AFTER INSERT ON bank_reconciliations
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'bank_reconciliations', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'bank_reconciliations' AND row_id = NEW.id);
END;

CREATE TRIGGER bank_reconciliations_changed_update AFTER UPDATE ON bank_reconciliations
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'bank_reconciliations', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'bank_reconciliations' AND row_id = NEW.id);
END;

CREATE TRIGGER bank_reconciliations_changed_delete AFTER DELETE ON bank_reconciliations
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'bank_reconciliations', OLD.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'bank_reconciliations' AND row_id = OLD.id);
END;
