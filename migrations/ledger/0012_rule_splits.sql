-- A rule may split a bank line: each part goes to its account first, a fixed amount or a percentage
-- of the line (rounded half to even to the currency's digits), in `position` order; the rule's own
-- account takes the rest, so the parts always sum to the line exactly.
CREATE TABLE rule_splits (
  rule_id TEXT NOT NULL REFERENCES rules (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  -- exactly one of: exact decimal text of the amount, or of the percentage (0 < percent < 100)
  amount TEXT,
  percent TEXT,
  PRIMARY KEY (rule_id, position),
  CHECK ((amount IS NULL) <> (percent IS NULL))
) STRICT, WITHOUT ROWID;
CREATE INDEX rule_splits_by_account ON rule_splits (account_id);

-- A rule goes with any of its accounts, as it goes with its own (0009's cascade): a split that lost
-- its account would book its part to the rule's account without a word.
CREATE TRIGGER rule_splits_account_delete BEFORE DELETE ON accounts
  WHEN EXISTS (SELECT 1 FROM rule_splits WHERE account_id = OLD.id)
BEGIN
  DELETE FROM rules WHERE id IN (SELECT rule_id FROM rule_splits WHERE account_id = OLD.id);
END;
