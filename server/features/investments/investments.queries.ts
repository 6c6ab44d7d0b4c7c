/**
 * What other features read of the securities, each in the caller's transaction: with the service,
 * the investments feature's one door (its repository is its own).
 */
export { allSecurities, securityPricesUpTo } from './investments.repository.ts';
