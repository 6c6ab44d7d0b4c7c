/**
 * What other features read of the chart of accounts, each in the caller's transaction: with the
 * service, the accounts feature's one door (its repository is its own).
 */
export { accountsByIds, allAccounts, findAccount, findAccountByName } from './accounts.repository.ts';
