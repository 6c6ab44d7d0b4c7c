-- An account's register and the search over entries, each served by rows kept by triggers whatever
-- code writes the journal (the API, the journal import, a restore brings its own).

-- The lines that count in an account's balance (their entry posted or void), per account and day.
-- A register page's total, and the day its page N starts on, come from these rows (one per account
-- and day, never one per line), so a page is an index seek however deep it is.
CREATE TABLE account_day_lines (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  day TEXT NOT NULL,
  lines INTEGER NOT NULL CHECK (lines >= 0),
  PRIMARY KEY (account_id, day)
) STRICT, WITHOUT ROWID;

INSERT INTO account_day_lines (account_id, day, lines)
  SELECT l.account_id, l.entry_date, COUNT(*)
    FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
   WHERE e.status IN ('posted', 'void')
   GROUP BY l.account_id, l.entry_date;

-- A line written on an entry that counts (posted entries are written with their lines).
CREATE TRIGGER account_day_lines_line_insert AFTER INSERT ON journal_lines
  WHEN (SELECT status FROM journal_entries WHERE id = NEW.entry_id) IN ('posted', 'void')
BEGIN
  INSERT INTO account_day_lines (account_id, day, lines) VALUES (NEW.account_id, NEW.entry_date, 1)
    ON CONFLICT (account_id, day) DO UPDATE SET lines = lines + 1;
END;

-- A counted line deleted while its entry stays (an entry deleted whole is counted out below, before
-- its lines go: the cascade's line deletes then find no entry and change nothing).
CREATE TRIGGER account_day_lines_line_delete AFTER DELETE ON journal_lines
  WHEN (SELECT status FROM journal_entries WHERE id = OLD.entry_id) IN ('posted', 'void')
BEGIN
  UPDATE account_day_lines SET lines = lines - 1 WHERE account_id = OLD.account_id AND day = OLD.entry_date;
  DELETE FROM account_day_lines WHERE account_id = OLD.account_id AND day = OLD.entry_date AND lines = 0;
END;

-- A draft posted starts counting its lines (posted to void changes nothing: both count).
CREATE TRIGGER account_day_lines_status AFTER UPDATE OF status ON journal_entries
  WHEN (OLD.status IN ('posted', 'void')) IS NOT (NEW.status IN ('posted', 'void'))
BEGIN
  INSERT INTO account_day_lines (account_id, day, lines)
    SELECT account_id, entry_date, CASE WHEN NEW.status IN ('posted', 'void') THEN COUNT(*) ELSE -COUNT(*) END
      FROM journal_lines WHERE entry_id = NEW.id GROUP BY account_id, entry_date
    ON CONFLICT (account_id, day) DO UPDATE SET lines = lines + excluded.lines;
  DELETE FROM account_day_lines
   WHERE lines = 0 AND (account_id, day) IN (SELECT account_id, entry_date FROM journal_lines WHERE entry_id = NEW.id);
END;

CREATE TRIGGER account_day_lines_entry_delete BEFORE DELETE ON journal_entries
  WHEN OLD.status IN ('posted', 'void')
BEGIN
  UPDATE account_day_lines
     SET lines = lines - (SELECT COUNT(*) FROM journal_lines o
                           WHERE o.entry_id = OLD.id AND o.account_id = account_day_lines.account_id AND o.entry_date = account_day_lines.day)
   WHERE (account_id, day) IN (SELECT account_id, entry_date FROM journal_lines WHERE entry_id = OLD.id);
  DELETE FROM account_day_lines
   WHERE lines = 0 AND (account_id, day) IN (SELECT account_id, entry_date FROM journal_lines WHERE entry_id = OLD.id);
END;

-- Memo words, any order: an FTS5 index of the memos. Its rowid is the entry's place in every
-- listing, (date as YYYYMMDD) << 32 | seq, so that results come out newest first from the index
-- itself and a date range is a rowid range. Contentless (the memo stays in journal_entries only).
-- Chinese and Japanese are written without spaces: each of their characters is a word of its own
-- here, so that a search for 超市 finds 家乐福超市 as the phrase 超 市.
CREATE VIRTUAL TABLE entry_search USING fts5(
  memo,
  content = '',
  contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2'
);

-- The text indexed for each entry and its key: the one definition the triggers and the fill share.
CREATE VIEW entry_search_rows (seq, key, text) AS
  SELECT seq,
         (CAST(replace(entry_date, '-', '') AS INTEGER) << 32) | seq,
         CASE WHEN memo GLOB '*[⺀-鿿豈-﫿぀-ヿ]*' THEN (
           WITH RECURSIVE spaced (i, out) AS (
             SELECT 1, ''
             UNION ALL
             SELECT i + 1, out || CASE
               WHEN unicode(substr(memo, i, 1)) BETWEEN 11904 AND 40959   -- CJK radicals .. unified ideographs
                 OR unicode(substr(memo, i, 1)) BETWEEN 63744 AND 64255   -- compatibility ideographs
                 OR unicode(substr(memo, i, 1)) BETWEEN 12352 AND 12543   -- hiragana, katakana
               THEN ' ' || substr(memo, i, 1) || ' '
               ELSE substr(memo, i, 1) END
             FROM spaced WHERE i <= length(memo)
           )
           SELECT out FROM spaced WHERE i = length(memo) + 1)
         ELSE memo END
    FROM journal_entries
   WHERE memo IS NOT NULL AND memo <> '';

INSERT INTO entry_search (rowid, memo) SELECT key, text FROM entry_search_rows;

CREATE TRIGGER entry_search_insert AFTER INSERT ON journal_entries
  WHEN NEW.memo IS NOT NULL AND NEW.memo <> ''
BEGIN
  INSERT INTO entry_search (rowid, memo) SELECT key, text FROM entry_search_rows WHERE seq = NEW.seq;
END;

CREATE TRIGGER entry_search_update AFTER UPDATE OF memo, entry_date, seq ON journal_entries
  WHEN OLD.memo IS NOT NEW.memo OR OLD.entry_date IS NOT NEW.entry_date OR OLD.seq IS NOT NEW.seq
BEGIN
  DELETE FROM entry_search WHERE rowid = (CAST(replace(OLD.entry_date, '-', '') AS INTEGER) << 32) | OLD.seq;
  INSERT INTO entry_search (rowid, memo) SELECT key, text FROM entry_search_rows WHERE seq = NEW.seq;
END;

CREATE TRIGGER entry_search_delete AFTER DELETE ON journal_entries
BEGIN
  DELETE FROM entry_search WHERE rowid = (CAST(replace(OLD.entry_date, '-', '') AS INTEGER) << 32) | OLD.seq;
END;

-- Exact amounts (a search for 82.50): the lines with that amount, whatever their account.
CREATE INDEX journal_lines_by_amount ON journal_lines (amount_minor, currency);
