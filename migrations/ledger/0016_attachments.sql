-- Receipts and other files attached to an entry or a bank line. The bytes live outside this file,
-- in the data folder's attachments/<user id>/<sha256>; a file is stored once however often it is
-- attached (attachment_files), and each attachment names its file by hash, with the name it was
-- uploaded under as metadata only.
CREATE TABLE attachment_files (
  sha256 TEXT PRIMARY KEY CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
  size_bytes INTEGER NOT NULL CHECK (size_bytes > 0),
  content_type TEXT NOT NULL CHECK (content_type IN ('application/pdf', 'image/jpeg', 'image/png', 'image/heic', 'image/heif')),
  created_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE attachments (
  id TEXT PRIMARY KEY,
  entry_id TEXT REFERENCES journal_entries (id) ON DELETE CASCADE,
  bank_transaction_id TEXT REFERENCES bank_transactions (id) ON DELETE CASCADE,
  sha256 TEXT NOT NULL REFERENCES attachment_files (sha256),
  file_name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  CHECK ((entry_id IS NULL) <> (bank_transaction_id IS NULL))
);
CREATE INDEX attachments_by_entry ON attachments (entry_id, created_at, id) WHERE entry_id IS NOT NULL;
CREATE INDEX attachments_by_bank_transaction ON attachments (bank_transaction_id, created_at, id) WHERE bank_transaction_id IS NOT NULL;
CREATE INDEX attachments_by_file ON attachments (sha256);

-- What the user's files take, kept by the triggers below: the quota is checked against it.
CREATE TABLE attachment_usage (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  files INTEGER NOT NULL,
  bytes INTEGER NOT NULL
);
INSERT INTO attachment_usage (id, files, bytes) VALUES (1, 0, 0);

CREATE TRIGGER attachment_files_counted AFTER INSERT ON attachment_files
BEGIN
  UPDATE attachment_usage SET files = files + 1, bytes = bytes + NEW.size_bytes WHERE id = 1;
END;

CREATE TRIGGER attachment_files_uncounted AFTER DELETE ON attachment_files
BEGIN
  UPDATE attachment_usage SET files = files - 1, bytes = bytes - OLD.size_bytes WHERE id = 1;
END;

-- A file nothing refers to any more leaves the ledger (a statement deleted takes its lines'
-- attachments with it); its bytes on disk are collected by the attachments feature.
CREATE TRIGGER attachment_file_released AFTER DELETE ON attachments
WHEN NOT EXISTS (SELECT 1 FROM attachments WHERE sha256 = OLD.sha256)
BEGIN
  DELETE FROM attachment_files WHERE sha256 = OLD.sha256;
END;
