/**
 * What other features read of the securities, each in the caller's transaction: with the service,
 * the investments feature's one door (its repository is its own). The export's reads of the trades
 * are investments.export.ts.
 */
export { allSecurities, securityPricesUpTo } from './investments.repository.ts';
export * from './investments.export.ts';
