-- A transfer between two of the user's accounts is one entry matched to two bank lines, one on each
-- account. An entry therefore takes part in at most one live match per bank account (0002 allowed
-- one in all); a bank line still has at most one.
DROP INDEX reconciliation_matches_live_entry;

CREATE TRIGGER one_live_match_per_entry_and_account_insert BEFORE INSERT ON reconciliation_matches
  WHEN NEW.status IN ('auto_accepted', 'accepted', 'pending_review')
   AND EXISTS (SELECT 1 FROM reconciliation_matches m JOIN bank_transactions t ON t.id = m.bank_transaction_id
                WHERE m.entry_id = NEW.entry_id AND m.status IN ('auto_accepted', 'accepted', 'pending_review')
                  AND t.account_id = (SELECT account_id FROM bank_transactions WHERE id = NEW.bank_transaction_id))
BEGIN
  SELECT RAISE(ABORT, 'an entry takes part in at most one live match per bank account');
END;

CREATE TRIGGER one_live_match_per_entry_and_account_update BEFORE UPDATE OF status, entry_id, bank_transaction_id ON reconciliation_matches
  WHEN NEW.status IN ('auto_accepted', 'accepted', 'pending_review')
   AND EXISTS (SELECT 1 FROM reconciliation_matches m JOIN bank_transactions t ON t.id = m.bank_transaction_id
                WHERE m.entry_id = NEW.entry_id AND m.id <> NEW.id AND m.status IN ('auto_accepted', 'accepted', 'pending_review')
                  AND t.account_id = (SELECT account_id FROM bank_transactions WHERE id = NEW.bank_transaction_id))
BEGIN
  SELECT RAISE(ABORT, 'an entry takes part in at most one live match per bank account');
END;

-- The other side of a transfer: an unmatched bank line of the same amount, a few days apart.
CREATE INDEX bank_transactions_by_amount ON bank_transactions (amount_minor, date);
