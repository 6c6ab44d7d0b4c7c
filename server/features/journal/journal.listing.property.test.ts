import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionArb, day, play, RandomLedgers } from '../../../test/support/random-journal.ts';
import type { LedgerDb } from '../../db/stores.ts';
import { listEntries, type EntryFilter } from './journal.repository.ts';

/**
 * The listing reads its totals and page positions from the day counts that triggers keep. Random
 * histories (drafts rewritten to other days and accounts, postings, voids, entries with several
 * lines on one account) are listed with random filters and pages and compared with the plain
 * query over every entry that the counts replace.
 */

let ledgers: RandomLedgers;

beforeAll(() => {
  ledgers = new RandomLedgers();
});
afterAll(() => ledgers.close());

/** The listing without the counts: every matching entry counted and sorted. */
function reference(db: LedgerDb, filter: EntryFilter, limit: number, offset: number): { ids: string[]; total: number } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.status) (where.push('e.status = ?'), params.push(filter.status));
  if (filter.sourceType) (where.push('e.source_type = ?'), params.push(filter.sourceType));
  if (filter.startDate) (where.push('e.entry_date >= ?'), params.push(filter.startDate));
  if (filter.endDate) (where.push('e.entry_date <= ?'), params.push(filter.endDate));
  if (filter.accountId)
    (where.push('e.id IN (SELECT entry_id FROM journal_lines WHERE account_id = ?)'), params.push(filter.accountId));
  const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = db.allSql<{ n: bigint }>(`SELECT COUNT(*) AS n FROM journal_entries e ${w}`, ...params)[0]!.n;
  const ids = db
    .allSql<{ id: string }>(
      `SELECT e.id FROM journal_entries e ${w} ORDER BY e.entry_date DESC, e.created_at DESC, e.seq DESC LIMIT ? OFFSET ?`,
      ...params,
      limit,
      offset,
    )
    .map((r) => r.id);
  return { ids, total: Number(total) };
}

/** Mostly absent, so that filters combine without emptying the list. */
const sometimes = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

const filterArb = fc.record({
  account: fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: fc.nat(3) }),
  status: sometimes(fc.constantFrom('draft' as const, 'posted' as const, 'void' as const)),
  source: sometimes(fc.constantFrom('manual' as const, 'system' as const)),
  start: sometimes(fc.nat(5)),
  end: sometimes(fc.nat(5)),
  perPage: fc.integer({ min: 1, max: 7 }),
  /** which page: any of them, or the one just past the end */
  page: fc.nat(),
});

describe('entry listing from the day counts', () => {
  it('when entries are created, rewritten, posted and voided at random, then every filtered page and total equals the plain query', () => {
    fc.assert(
      fc.property(
        fc.array(actionArb, { minLength: 1, maxLength: 50 }),
        fc.array(filterArb, { minLength: 5, maxLength: 5 }),
        (actions, filters) => {
          const { db, accounts } = ledgers.fresh();
          play(db, accounts, actions);
          for (const f of filters) {
            const [start, end] =
              f.start !== undefined && f.end !== undefined && f.start > f.end ? [f.end, f.start] : [f.start, f.end];
            const filter: EntryFilter = {
              accountId: f.account === undefined ? undefined : accounts[f.account],
              status: f.status,
              sourceType: f.source,
              startDate: start === undefined ? undefined : day(start),
              endDate: end === undefined ? undefined : day(end),
            };
            const pages = Math.ceil(reference(db, filter, 1, 0).total / f.perPage);
            const offset = (f.page % (pages + 1)) * f.perPage;
            const got = listEntries(db, filter, f.perPage, offset);
            const want = reference(db, filter, f.perPage, offset);
            expect({ ids: got.items.map((e) => e.id), total: got.total }).toEqual(want);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
