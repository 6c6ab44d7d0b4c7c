-- What the payee model learns besides a booking's description and account: the bank line's
-- direction and amount (minor units of its account's currency). Bookings made before this
-- migration have neither; the model reads them as a line of unknown direction and amount.
ALTER TABLE payee_examples ADD COLUMN txn_type TEXT CHECK (txn_type IN ('debit', 'credit'));
ALTER TABLE payee_examples ADD COLUMN amount_minor INTEGER;
