-- Investments and receipts sync (docs/sync.md): the rows the user owns of securities, their
-- prices, each investment account's settings, trades, and attachments, marked in change_dirty as
-- 0017's triggers mark theirs. A trade's lot and its sale's reductions travel inside the trade's
-- value (their inserts mark the trade); the lots' remaining units and the holdings are kept by the
-- apply step (server/features/sync/sync-apply-investments.ts), never sent. An attachment's bytes
-- travel as chunks of 512 KiB: attachment_chunks names them, made with the file's row; the change log
-- keeps only their names, the bytes are read from the data folder when sent. The triggers below the
-- chunks' are those scripts/change-log-triggers.ts writes.

-- A holding's lots whole (open or not) and a trade's lot, for the rebuild of a holding on apply; the
-- reductions of a lot, for a trade taken back (Undo) with the sales that took from its lot.
CREATE INDEX lots_by_holding ON lots (account_id, security_id);
CREATE INDEX lots_by_trade ON lots (trade_id, id);
CREATE INDEX lot_reductions_by_lot ON lot_reductions (lot_id);

-- A stored file's chunks, one row per 512 KiB of it (at most 64; 20 MiB is 40), made and taken with
-- the file's row: each is one change message, whose value names the chunk (the bytes are not here).
CREATE TABLE attachment_chunks (
  sha256 TEXT NOT NULL REFERENCES attachment_files (sha256) ON DELETE CASCADE,
  chunk INTEGER NOT NULL CHECK (chunk BETWEEN 0 AND 63),
  chunks INTEGER NOT NULL,
  size_bytes INTEGER NOT NULL,
  PRIMARY KEY (sha256, chunk)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER attachment_files_chunks_made AFTER INSERT ON attachment_files
BEGIN
  INSERT INTO attachment_chunks (sha256, chunk, chunks, size_bytes)
    WITH RECURSIVE n(chunk) AS (SELECT 0 UNION ALL SELECT chunk + 1 FROM n WHERE chunk < 63)
    SELECT NEW.sha256, n.chunk, (NEW.size_bytes + 524287) / 524288, NEW.size_bytes FROM n
     WHERE n.chunk * 524288 < NEW.size_bytes
    ON CONFLICT (sha256, chunk) DO NOTHING;
END;

-- the chunks of the files stored before this migration
INSERT INTO attachment_chunks (sha256, chunk, chunks, size_bytes)
  WITH RECURSIVE n(chunk) AS (SELECT 0 UNION ALL SELECT chunk + 1 FROM n WHERE chunk < 63)
  SELECT f.sha256, n.chunk, (f.size_bytes + 524287) / 524288, f.size_bytes FROM attachment_files f JOIN n
   WHERE n.chunk * 524288 < f.size_bytes;

CREATE TRIGGER securities_changed_insert AFTER INSERT ON securities
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'securities', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'securities' AND row_id = NEW.id);
END;

CREATE TRIGGER securities_changed_update AFTER UPDATE ON securities
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'securities', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'securities' AND row_id = NEW.id);
END;

CREATE TRIGGER securities_changed_delete AFTER DELETE ON securities
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'securities', OLD.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'securities' AND row_id = OLD.id);
END;

CREATE TRIGGER investment_accounts_changed_insert AFTER INSERT ON investment_accounts
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'investment_accounts', NEW.account_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'investment_accounts' AND row_id = NEW.account_id);
END;

CREATE TRIGGER investment_accounts_changed_update AFTER UPDATE ON investment_accounts
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'investment_accounts', NEW.account_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'investment_accounts' AND row_id = NEW.account_id);
END;

CREATE TRIGGER investment_accounts_changed_delete AFTER DELETE ON investment_accounts
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'investment_accounts', OLD.account_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'investment_accounts' AND row_id = OLD.account_id);
END;

CREATE TRIGGER security_prices_changed_insert AFTER INSERT ON security_prices
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'security_prices', NEW.security_id || ' ' || NEW.date
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'security_prices' AND row_id = NEW.security_id || ' ' || NEW.date);
END;

CREATE TRIGGER security_prices_changed_update AFTER UPDATE ON security_prices
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'security_prices', NEW.security_id || ' ' || NEW.date
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'security_prices' AND row_id = NEW.security_id || ' ' || NEW.date);
END;

CREATE TRIGGER security_prices_changed_delete AFTER DELETE ON security_prices
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'security_prices', OLD.security_id || ' ' || OLD.date
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'security_prices' AND row_id = OLD.security_id || ' ' || OLD.date);
END;

CREATE TRIGGER trades_changed_insert AFTER INSERT ON trades
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'trades', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'trades' AND row_id = NEW.id);
END;

CREATE TRIGGER trades_changed_update AFTER UPDATE ON trades
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'trades', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'trades' AND row_id = NEW.id);
END;

CREATE TRIGGER trades_changed_delete AFTER DELETE ON trades
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'trades', OLD.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'trades' AND row_id = OLD.id);
END;

CREATE TRIGGER lots_changed_insert AFTER INSERT ON lots
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'trades', NEW.trade_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'trades' AND row_id = NEW.trade_id);
END;

CREATE TRIGGER lots_changed_update AFTER UPDATE ON lots
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'trades', NEW.trade_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'trades' AND row_id = NEW.trade_id);
END;

CREATE TRIGGER lots_changed_delete AFTER DELETE ON lots
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'trades', OLD.trade_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'trades' AND row_id = OLD.trade_id);
END;

CREATE TRIGGER lot_reductions_changed_insert AFTER INSERT ON lot_reductions
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'trades', NEW.trade_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'trades' AND row_id = NEW.trade_id);
END;

CREATE TRIGGER lot_reductions_changed_update AFTER UPDATE ON lot_reductions
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'trades', NEW.trade_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'trades' AND row_id = NEW.trade_id);
END;

CREATE TRIGGER lot_reductions_changed_delete AFTER DELETE ON lot_reductions
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'trades', OLD.trade_id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'trades' AND row_id = OLD.trade_id);
END;

CREATE TRIGGER attachment_files_changed_insert AFTER INSERT ON attachment_files
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'attachment_files', NEW.sha256
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'attachment_files' AND row_id = NEW.sha256);
END;

CREATE TRIGGER attachment_files_changed_update AFTER UPDATE ON attachment_files
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'attachment_files', NEW.sha256
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'attachment_files' AND row_id = NEW.sha256);
END;

CREATE TRIGGER attachment_files_changed_delete AFTER DELETE ON attachment_files
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'attachment_files', OLD.sha256
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'attachment_files' AND row_id = OLD.sha256);
END;

CREATE TRIGGER attachment_chunks_changed_insert AFTER INSERT ON attachment_chunks
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'attachment_chunks', NEW.sha256 || ' ' || NEW.chunk
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'attachment_chunks' AND row_id = NEW.sha256 || ' ' || NEW.chunk);
END;

CREATE TRIGGER attachment_chunks_changed_update AFTER UPDATE ON attachment_chunks
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'attachment_chunks', NEW.sha256 || ' ' || NEW.chunk
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'attachment_chunks' AND row_id = NEW.sha256 || ' ' || NEW.chunk);
END;

CREATE TRIGGER attachment_chunks_changed_delete AFTER DELETE ON attachment_chunks
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'attachment_chunks', OLD.sha256 || ' ' || OLD.chunk
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'attachment_chunks' AND row_id = OLD.sha256 || ' ' || OLD.chunk);
END;

CREATE TRIGGER attachments_changed_insert AFTER INSERT ON attachments
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'attachments', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'attachments' AND row_id = NEW.id);
END;

CREATE TRIGGER attachments_changed_update AFTER UPDATE ON attachments
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'attachments', NEW.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'attachments' AND row_id = NEW.id);
END;

CREATE TRIGGER attachments_changed_delete AFTER DELETE ON attachments
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT 'attachments', OLD.id
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = 'attachments' AND row_id = OLD.id);
END;

-- Books already in a sync group before this migration send what they hold of these now.
INSERT INTO change_dirty (dataset, row_id)
  SELECT 'securities', id FROM securities WHERE EXISTS (SELECT 1 FROM sync_state WHERE sync_group IS NOT NULL)
  ON CONFLICT (dataset, row_id) DO NOTHING;
INSERT INTO change_dirty (dataset, row_id)
  SELECT 'investment_accounts', account_id FROM investment_accounts WHERE EXISTS (SELECT 1 FROM sync_state WHERE sync_group IS NOT NULL)
  ON CONFLICT (dataset, row_id) DO NOTHING;
INSERT INTO change_dirty (dataset, row_id)
  SELECT 'security_prices', security_id || ' ' || date FROM security_prices WHERE EXISTS (SELECT 1 FROM sync_state WHERE sync_group IS NOT NULL)
  ON CONFLICT (dataset, row_id) DO NOTHING;
INSERT INTO change_dirty (dataset, row_id)
  SELECT 'trades', id FROM (SELECT id FROM trades ORDER BY seq) WHERE EXISTS (SELECT 1 FROM sync_state WHERE sync_group IS NOT NULL)
  ON CONFLICT (dataset, row_id) DO NOTHING;
INSERT INTO change_dirty (dataset, row_id)
  SELECT 'attachment_files', sha256 FROM attachment_files WHERE EXISTS (SELECT 1 FROM sync_state WHERE sync_group IS NOT NULL)
  ON CONFLICT (dataset, row_id) DO NOTHING;
INSERT INTO change_dirty (dataset, row_id)
  SELECT 'attachment_chunks', sha256 || ' ' || chunk FROM attachment_chunks WHERE EXISTS (SELECT 1 FROM sync_state WHERE sync_group IS NOT NULL)
  ON CONFLICT (dataset, row_id) DO NOTHING;
INSERT INTO change_dirty (dataset, row_id)
  SELECT 'attachments', id FROM attachments WHERE EXISTS (SELECT 1 FROM sync_state WHERE sync_group IS NOT NULL)
  ON CONFLICT (dataset, row_id) DO NOTHING;
