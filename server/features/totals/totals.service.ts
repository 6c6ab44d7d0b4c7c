/**
 * Posting to the maintained totals: the journal's writes (one entry, a batch, an import) call these
 * inside their own transaction, so that the totals change with the lines or not at all.
 */
export { applyPosting, applyPostings } from './totals.repository.ts';
