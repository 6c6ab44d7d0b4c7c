-- The export pages through the trades (docs/investments.md "Interop"): it walks the trades of its
-- range in date order beside the entries, and reads each trade's lot or reductions as it comes to
-- it, so that it holds a day's trades at a time, not every trade, lot and reduction of the books
-- (a trade's lot by `lots_by_trade`, which 0020_sync_investments made).
CREATE INDEX trades_by_date ON trades (trade_date, seq);

-- The holdings as of a date sum each holding's trades up to it: this index carries what they add,
-- so each holding is one range of the index alone, never a lookup of each trade's row.
CREATE INDEX trades_holding_sums ON trades (account_id, security_id, trade_date, units_delta_atoms, basis_delta_minor, proceeds_minor, cost_minor);
DROP INDEX trades_by_holding;
