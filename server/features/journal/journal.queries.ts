/**
 * What other features read of the journal, each in the caller's transaction: with the service, the
 * journal feature's one door (its repository is its own). A query of another feature that reads a
 * line's cost columns turns them into a Cost with costOf, the one reading of them.
 */
export { costOf, findEntry } from './journal.repository.ts';
