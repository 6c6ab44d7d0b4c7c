-- A posted entry corrected in one step: it is voided and the corrected entry posted in the same
-- transaction, the two pointing at each other as a voided entry and its reversal do.
ALTER TABLE journal_entries ADD COLUMN corrects_entry_id TEXT REFERENCES journal_entries (id);
ALTER TABLE journal_entries ADD COLUMN corrected_by_entry_id TEXT REFERENCES journal_entries (id);
