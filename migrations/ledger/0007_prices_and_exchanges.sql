-- Exchange rates: one unit of from_currency is worth `rate` units of to_currency on `date`. The rate
-- is exact decimal text (at most 12 decimals), never a binary float.
CREATE TABLE prices (
  id TEXT PRIMARY KEY,
  date TEXT NOT NULL,
  from_currency TEXT NOT NULL,
  to_currency TEXT NOT NULL,
  rate TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (from_currency, to_currency, date),
  CHECK (from_currency <> to_currency)
) STRICT;
-- The list newest first without a filter; the pair index above serves the filtered lists and rate look-ups.
CREATE INDEX prices_by_date ON prices (date, from_currency, to_currency);
CREATE INDEX prices_by_to ON prices (to_currency, date);

-- A line may state its cost in another currency (ledger's `@@`, beancount's total price): the entry
-- then balances by cost, and automatic lines on a currency trading account per currency keep each
-- currency's own debits and credits equal (as GnuCash's trading accounts do).
ALTER TABLE journal_lines ADD COLUMN cost_minor INTEGER CHECK (cost_minor IS NULL OR cost_minor > 0);
ALTER TABLE journal_lines ADD COLUMN cost_currency TEXT;
ALTER TABLE journal_lines ADD COLUMN automatic INTEGER NOT NULL DEFAULT 0 CHECK (automatic IN (0, 1));

-- The EQUITY account that takes a currency's side of exchanges; an account deleted (it had no lines)
-- leaves its currency free for a new one.
CREATE TABLE currency_trading_accounts (
  currency TEXT PRIMARY KEY,
  account_id TEXT NOT NULL UNIQUE REFERENCES accounts (id) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;

-- The user's settings (the home currency of reports), one row per key.
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT, WITHOUT ROWID;

-- A schedule's line may state its cost as an entry's line does; its booked entries get their
-- automatic trading lines when they are made, so a schedule keeps only the lines typed.
ALTER TABLE schedule_lines ADD COLUMN cost_minor INTEGER CHECK (cost_minor IS NULL OR cost_minor > 0);
ALTER TABLE schedule_lines ADD COLUMN cost_currency TEXT;
