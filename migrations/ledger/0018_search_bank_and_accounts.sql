-- The entry search (CONTRACT §15) looks past the memo: at the description the bank gave each bank line
-- matched to the entry, and at the accounts the entry has lines in. Both indexes are kept by triggers
-- whatever code writes (the API, the journal import, a restore brings its own), as the memo index of
-- migration register_and_search is.
--
-- Words are cut as there: unicode61, and each Chinese or Japanese character a word of its own (spaced
-- out before it is indexed), so that a two-character word such as 餐饮 is the phrase 餐 饮 and is found
-- inside 外出餐饮 as well as on its own. (The trigram tokenizer would need three characters.)

-- 1. The entry index, rebuilt with a second column: the descriptions of the entry's bank lines, one
--    per live match (an entry matched on two bank accounts, a transfer, has two).
DROP TRIGGER entry_search_insert;
DROP TRIGGER entry_search_update;
DROP TRIGGER entry_search_delete;
DROP VIEW entry_search_rows;
DROP TABLE entry_search;

CREATE VIRTUAL TABLE entry_search USING fts5(
  memo,
  bank,
  content = '',
  contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2'
);

-- What is indexed for each entry, before spacing: its memo and its live bank lines' descriptions.
CREATE VIEW entry_search_texts (seq, id, key, memo, bank) AS
  SELECT e.seq,
         e.id,
         (CAST(replace(e.entry_date, '-', '') AS INTEGER) << 32) | e.seq,
         coalesce(e.memo, ''),
         coalesce((SELECT group_concat(t.description, ' ')
                     FROM reconciliation_matches m JOIN bank_transactions t ON t.id = m.bank_transaction_id
                    WHERE m.entry_id = e.id AND m.status IN ('auto_accepted', 'accepted', 'pending_review')), '')
    FROM journal_entries e;

-- The rows of the entry index (entries with something to index): the one definition the triggers,
-- the fill below and the tests' recount share. Both columns are spaced in one walk over their
-- characters (only when one holds a Chinese or Japanese character).
CREATE VIEW entry_search_rows (seq, id, key, memo, bank) AS
  SELECT seq, id, key,
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
         ELSE memo END,
         CASE WHEN bank GLOB '*[⺀-鿿豈-﫿぀-ヿ]*' THEN (
           WITH RECURSIVE spaced (i, out) AS (
             SELECT 1, ''
             UNION ALL
             SELECT i + 1, out || CASE
               WHEN unicode(substr(bank, i, 1)) BETWEEN 11904 AND 40959
                 OR unicode(substr(bank, i, 1)) BETWEEN 63744 AND 64255
                 OR unicode(substr(bank, i, 1)) BETWEEN 12352 AND 12543
               THEN ' ' || substr(bank, i, 1) || ' '
               ELSE substr(bank, i, 1) END
             FROM spaced WHERE i <= length(bank)
           )
           SELECT out FROM spaced WHERE i = length(bank) + 1)
         ELSE bank END
    FROM entry_search_texts
   WHERE memo <> '' OR bank <> '';

INSERT INTO entry_search (rowid, memo, bank) SELECT key, memo, bank FROM entry_search_rows;

-- A new entry has no bank line yet: only its memo.
CREATE TRIGGER entry_search_insert AFTER INSERT ON journal_entries
  WHEN NEW.memo IS NOT NULL AND NEW.memo <> ''
BEGIN
  INSERT INTO entry_search (rowid, memo, bank) SELECT key, memo, bank FROM entry_search_rows WHERE seq = NEW.seq;
END;

CREATE TRIGGER entry_search_update AFTER UPDATE OF memo, entry_date, seq ON journal_entries
  WHEN OLD.memo IS NOT NEW.memo OR OLD.entry_date IS NOT NEW.entry_date OR OLD.seq IS NOT NEW.seq
BEGIN
  DELETE FROM entry_search WHERE rowid = (CAST(replace(OLD.entry_date, '-', '') AS INTEGER) << 32) | OLD.seq;
  INSERT INTO entry_search (rowid, memo, bank) SELECT key, memo, bank FROM entry_search_rows WHERE seq = NEW.seq;
END;

CREATE TRIGGER entry_search_delete AFTER DELETE ON journal_entries
BEGIN
  DELETE FROM entry_search WHERE rowid = (CAST(replace(OLD.entry_date, '-', '') AS INTEGER) << 32) | OLD.seq;
END;

-- A match made, undone, rejected or moved: the entries on both sides are indexed again.
CREATE VIEW entry_search_keys (id, key) AS
  SELECT id, (CAST(replace(entry_date, '-', '') AS INTEGER) << 32) | seq FROM journal_entries;

CREATE TRIGGER entry_search_match_insert AFTER INSERT ON reconciliation_matches
  WHEN NEW.status IN ('auto_accepted', 'accepted', 'pending_review')
BEGIN
  DELETE FROM entry_search WHERE rowid = (SELECT key FROM entry_search_keys WHERE id = NEW.entry_id);
  INSERT INTO entry_search (rowid, memo, bank) SELECT key, memo, bank FROM entry_search_rows WHERE id = NEW.entry_id;
END;

CREATE TRIGGER entry_search_match_update AFTER UPDATE OF status, entry_id, bank_transaction_id ON reconciliation_matches
  WHEN (OLD.status IN ('auto_accepted', 'accepted', 'pending_review') OR NEW.status IN ('auto_accepted', 'accepted', 'pending_review'))
   AND ((OLD.status IN ('auto_accepted', 'accepted', 'pending_review')) IS NOT (NEW.status IN ('auto_accepted', 'accepted', 'pending_review'))
        OR OLD.entry_id IS NOT NEW.entry_id OR OLD.bank_transaction_id IS NOT NEW.bank_transaction_id)
BEGIN
  DELETE FROM entry_search WHERE rowid = (SELECT key FROM entry_search_keys WHERE id = OLD.entry_id);
  INSERT INTO entry_search (rowid, memo, bank) SELECT key, memo, bank FROM entry_search_rows WHERE id = OLD.entry_id;
  DELETE FROM entry_search WHERE rowid = (SELECT key FROM entry_search_keys WHERE id = NEW.entry_id) AND NEW.entry_id IS NOT OLD.entry_id;
  INSERT INTO entry_search (rowid, memo, bank)
    SELECT key, memo, bank FROM entry_search_rows WHERE id = NEW.entry_id AND NEW.entry_id IS NOT OLD.entry_id;
END;

-- (A bank line deleted takes its matches with it: their deletes come here.)
CREATE TRIGGER entry_search_match_delete AFTER DELETE ON reconciliation_matches
  WHEN OLD.status IN ('auto_accepted', 'accepted', 'pending_review')
BEGIN
  DELETE FROM entry_search WHERE rowid = (SELECT key FROM entry_search_keys WHERE id = OLD.entry_id);
  INSERT INTO entry_search (rowid, memo, bank) SELECT key, memo, bank FROM entry_search_rows WHERE id = OLD.entry_id;
END;

CREATE TRIGGER entry_search_bank_description AFTER UPDATE OF description ON bank_transactions
  WHEN OLD.description IS NOT NEW.description
BEGIN
  DELETE FROM entry_search WHERE rowid IN (
    SELECT k.key FROM reconciliation_matches m JOIN entry_search_keys k ON k.id = m.entry_id
     WHERE m.bank_transaction_id = NEW.id AND m.status IN ('auto_accepted', 'accepted', 'pending_review'));
  INSERT INTO entry_search (rowid, memo, bank)
    SELECT key, memo, bank FROM entry_search_rows WHERE id IN (
      SELECT entry_id FROM reconciliation_matches
       WHERE bank_transaction_id = NEW.id AND status IN ('auto_accepted', 'accepted', 'pending_review'));
END;

-- 2. The account index: each account's full path, its type's root then its ancestors' names and its
--    own ("Expenses:Bills:Utilities"), once with the root in English and once in Chinese ("支出:Bills:
--    Utilities"), so that a word of its name or of a name above it finds it, and so does the path
--    typed whole in either language. The search turns its accounts into entries through the lines'
--    account index. An account's id is kept beside the paths (unindexed): accounts are few, and only
--    a rename or a move looks a row up by it.
CREATE VIRTUAL TABLE account_search USING fts5(
  account_id UNINDEXED,
  path,
  path_zh,
  tokenize = 'unicode61 remove_diacritics 2'
);

-- An account's names from the top down (the walk up stops at 16 levels, as deep as the API allows),
-- spaced as the entry index's texts are.
CREATE VIEW account_search_names (account_id, type, names) AS
  SELECT a.id, a.type, (
    WITH RECURSIVE walk (phase, up, depth, path, i, out) AS (
      SELECT 0, a.parent_id, 0, a.name, 1, ''
      UNION ALL
      SELECT 0, p.parent_id, w.depth + 1, p.name || ':' || w.path, 1, ''
        FROM walk w JOIN accounts p ON p.id = w.up
       WHERE w.phase = 0 AND w.depth < 16
      UNION ALL
      SELECT 1, NULL, w.depth, w.path, 1, ''
        FROM walk w
       WHERE w.phase = 0 AND (w.up IS NULL OR w.depth >= 16)
      UNION ALL
      SELECT 1, NULL, w.depth, w.path, w.i + 1, w.out || CASE
               WHEN unicode(substr(w.path, w.i, 1)) BETWEEN 11904 AND 40959
                 OR unicode(substr(w.path, w.i, 1)) BETWEEN 63744 AND 64255
                 OR unicode(substr(w.path, w.i, 1)) BETWEEN 12352 AND 12543
               THEN ' ' || substr(w.path, w.i, 1) || ' '
               ELSE substr(w.path, w.i, 1) END
        FROM walk w
       WHERE w.phase = 1 AND w.i <= length(w.path)
    )
    SELECT out FROM walk WHERE phase = 1 AND i = length(path) + 1)
  FROM accounts a;

-- The rows of the account index: the one definition the triggers, the fill and the tests share.
CREATE VIEW account_search_rows (account_id, path, path_zh) AS
  SELECT account_id,
         CASE type WHEN 'ASSET' THEN 'Assets' WHEN 'LIABILITY' THEN 'Liabilities' WHEN 'EQUITY' THEN 'Equity'
                   WHEN 'INCOME' THEN 'Income' ELSE 'Expenses' END || ':' || names,
         -- the Chinese roots spaced already, as the interface names the types (资产, 负债, 权益, 收入, 支出)
         CASE type WHEN 'ASSET' THEN ' 资  产 ' WHEN 'LIABILITY' THEN ' 负  债 ' WHEN 'EQUITY' THEN ' 权  益 '
                   WHEN 'INCOME' THEN ' 收  入 ' ELSE ' 支  出 ' END || ':' || names
    FROM account_search_names;

INSERT INTO account_search (account_id, path, path_zh) SELECT account_id, path, path_zh FROM account_search_rows;

CREATE TRIGGER account_search_insert AFTER INSERT ON accounts
BEGIN
  INSERT INTO account_search (account_id, path, path_zh)
    SELECT account_id, path, path_zh FROM account_search_rows WHERE account_id = NEW.id;
END;

-- A rename or a move changes the paths of the account and of every account below it.
CREATE TRIGGER account_search_update AFTER UPDATE OF name, parent_id, type ON accounts
  WHEN OLD.name IS NOT NEW.name OR OLD.parent_id IS NOT NEW.parent_id OR OLD.type IS NOT NEW.type
BEGIN
  DELETE FROM account_search WHERE account_id IN (
    WITH RECURSIVE below (id, depth) AS (
      SELECT NEW.id, 0
      UNION ALL
      SELECT c.id, b.depth + 1 FROM below b JOIN accounts c ON c.parent_id = b.id WHERE b.depth < 16)
    SELECT id FROM below);
  INSERT INTO account_search (account_id, path, path_zh)
    SELECT account_id, path, path_zh FROM account_search_rows WHERE account_id IN (
      WITH RECURSIVE below (id, depth) AS (
        SELECT NEW.id, 0
        UNION ALL
        SELECT c.id, b.depth + 1 FROM below b JOIN accounts c ON c.parent_id = b.id WHERE b.depth < 16)
      SELECT id FROM below);
END;

CREATE TRIGGER account_search_delete AFTER DELETE ON accounts
BEGIN
  DELETE FROM account_search WHERE account_id = OLD.id;
END;
