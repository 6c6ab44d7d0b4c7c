/**
 * What other features read of the exchange rates, each in the caller's transaction: with the
 * service and the rate book, the prices feature's doors (its repository is its own).
 */
export { pricesUpTo } from './prices.repository.ts';
