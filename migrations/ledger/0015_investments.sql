-- Investments (docs/investments.md): securities held in units beside cash, each purchase a lot, each
-- sale reducing lots by the account's booking method. The journal keeps the money side at cost in the
-- security's price currency; these tables keep the units, the lots and the gains. Units are integer
-- atoms of 10^-8 unit; money is integer minor units; prices are exact decimal text.

CREATE TABLE securities (
  id TEXT PRIMARY KEY,
  symbol TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  currency TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;

-- How an account books its sales and where their gains go; an account without a row books FIFO and
-- must be given its gains accounts before its first sale.
CREATE TABLE investment_accounts (
  account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  booking_method TEXT NOT NULL CHECK (booking_method IN ('FIFO', 'LIFO', 'AVERAGE')),
  short_term_account_id TEXT REFERENCES accounts (id),
  long_term_account_id TEXT REFERENCES accounts (id),
  long_term_days INTEGER NOT NULL CHECK (long_term_days BETWEEN 0 AND 36600)
) STRICT, WITHOUT ROWID;

-- One trade: a buy, a sell, a dividend (cash or reinvested) or a split. units_delta_atoms and
-- basis_delta_minor are what it changed in the holding, so a holding as of a date is a range sum.
CREATE TABLE trades (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  entry_id TEXT REFERENCES journal_entries (id),
  account_id TEXT NOT NULL REFERENCES accounts (id),
  security_id TEXT NOT NULL REFERENCES securities (id),
  kind TEXT NOT NULL CHECK (kind IN ('buy', 'sell', 'dividend', 'split')),
  trade_date TEXT NOT NULL,
  units_atoms INTEGER NOT NULL,
  price TEXT,
  amount_minor INTEGER NOT NULL,
  fees_minor INTEGER NOT NULL,
  units_delta_atoms INTEGER NOT NULL,
  basis_delta_minor INTEGER NOT NULL,
  proceeds_minor INTEGER NOT NULL,
  cost_minor INTEGER NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX trades_by_holding ON trades (account_id, security_id, trade_date, seq);
CREATE INDEX trades_by_entry ON trades (entry_id) WHERE entry_id IS NOT NULL;

-- A purchase's lot; units_atoms and basis_minor are what is left of it.
CREATE TABLE lots (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  trade_id TEXT NOT NULL REFERENCES trades (id),
  account_id TEXT NOT NULL REFERENCES accounts (id),
  security_id TEXT NOT NULL REFERENCES securities (id),
  buy_date TEXT NOT NULL,
  units_bought_atoms INTEGER NOT NULL CHECK (units_bought_atoms > 0),
  basis_bought_minor INTEGER NOT NULL CHECK (basis_bought_minor >= 0),
  units_atoms INTEGER NOT NULL CHECK (units_atoms >= 0),
  basis_minor INTEGER NOT NULL CHECK (basis_minor >= 0)
) STRICT;
CREATE INDEX lots_open ON lots (account_id, security_id, buy_date, seq) WHERE units_atoms > 0;

-- What a sale took from each lot, and the gain on it.
CREATE TABLE lot_reductions (
  trade_id TEXT NOT NULL REFERENCES trades (id),
  lot_id TEXT NOT NULL REFERENCES lots (id),
  security_id TEXT NOT NULL REFERENCES securities (id),
  sale_date TEXT NOT NULL,
  units_atoms INTEGER NOT NULL CHECK (units_atoms > 0),
  basis_minor INTEGER NOT NULL,
  proceeds_minor INTEGER NOT NULL,
  gain_minor INTEGER NOT NULL,
  long_term INTEGER NOT NULL CHECK (long_term IN (0, 1)),
  PRIMARY KEY (trade_id, lot_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX lot_reductions_by_date ON lot_reductions (sale_date, security_id);

-- The maintained totals of each account's holding of a security, kept by the service with each trade.
CREATE TABLE holdings (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  security_id TEXT NOT NULL REFERENCES securities (id),
  units_atoms INTEGER NOT NULL CHECK (units_atoms >= 0),
  basis_minor INTEGER NOT NULL CHECK (basis_minor >= 0),
  realized_minor INTEGER NOT NULL,
  PRIMARY KEY (account_id, security_id)
) STRICT, WITHOUT ROWID;

-- A security's price in its currency on a date: entered, imported, or kept from a trade.
CREATE TABLE security_prices (
  security_id TEXT NOT NULL REFERENCES securities (id) ON DELETE CASCADE,
  date TEXT NOT NULL,
  price TEXT NOT NULL,
  PRIMARY KEY (security_id, date)
) STRICT, WITHOUT ROWID;
