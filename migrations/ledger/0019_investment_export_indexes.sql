-- The export pages through the trades (docs/investments.md "Interop"): it walks the trades of its
-- range in date order beside the entries, and reads each trade's lot or reductions as it comes to
-- it, so that it holds a day's trades at a time, not every trade, lot and reduction of the books.
CREATE INDEX trades_by_date ON trades (trade_date, seq);
CREATE INDEX lots_by_trade ON lots (trade_id);
