import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stores } from '../../db/stores.ts';
import type { LedgerDb } from '../../db/stores.ts';
import { createAccount } from '../accounts/accounts.service.ts';
import { listEntries, type EntryFilter } from './journal.repository.ts';
import { createEntry, postEntry, updateDraft, voidEntry } from './journal.service.ts';
import { matchedEntryVoidGuard } from '../reconciliation/reconciliation.review.service.ts';

/**
 * The listing reads its totals and page positions from the day counts that triggers keep. Random
 * histories (drafts rewritten to other days and accounts, postings, voids, entries with several
 * lines on one account) are listed with random filters and pages and compared with the plain
 * query over every entry that the counts replace.
 */

let dir: string;
let stores: Stores;
let ledgerCount = 0;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-listing-'));
  stores = new Stores(dir);
});
afterAll(() => {
  stores.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function freshLedger(): { db: LedgerDb; accounts: string[] } {
  ledgerCount += 1;
  const db = stores.ledger(`00000000-0000-4000-8000-${String(ledgerCount).padStart(12, '0')}`);
  const accounts = (
    [
      ['Checking', 'ASSET'],
      ['Card', 'LIABILITY'],
      ['Salary', 'INCOME'],
      ['Groceries', 'EXPENSE'],
    ] as const
  ).map(([name, type]) => createAccount(db, { name, type }).id);
  return { db, accounts };
}

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

const day = (n: number) => `2026-03-${String(1 + n).padStart(2, '0')}`;

const linesArb = fc.array(fc.record({ account: fc.nat(3), amount: fc.integer({ min: 1, max: 500 }) }), {
  minLength: 1,
  maxLength: 3,
});

const actionArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      day: fc.nat(5),
      lines: linesArb,
      against: fc.nat(3),
      post: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('rewrite' as const),
      i: fc.nat(60),
      day: fc.nat(5),
      lines: linesArb,
      against: fc.nat(3),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('post' as const), i: fc.nat(60) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('void' as const), i: fc.nat(60) }) },
);

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

function balanced(accounts: string[], lines: { account: number; amount: number }[], against: number) {
  const total = lines.reduce((s, l) => s + l.amount, 0);
  return [
    ...lines.map((l) => ({ account_id: accounts[l.account]!, direction: 'DEBIT' as const, amount: `${l.amount}.00` })),
    { account_id: accounts[against]!, direction: 'CREDIT' as const, amount: `${total}.00` },
  ];
}

describe('entry listing from the day counts', () => {
  it('when entries are created, rewritten, posted and voided at random, then every filtered page and total equals the plain query', () => {
    fc.assert(
      fc.property(
        fc.array(actionArb, { minLength: 1, maxLength: 50 }),
        fc.array(filterArb, { minLength: 5, maxLength: 5 }),
        (actions, filters) => {
          const { db, accounts } = freshLedger();
          const ids: string[] = [];
          for (const a of actions) {
            try {
              if (a.kind === 'create')
                ids.push(
                  createEntry(db, {
                    entry_date: day(a.day),
                    lines: balanced(accounts, a.lines, a.against),
                    auto_post: a.post,
                  }).id,
                );
              else if (ids.length === 0) continue;
              else if (a.kind === 'rewrite')
                updateDraft(db, ids[a.i % ids.length]!, {
                  entry_date: day(a.day),
                  lines: balanced(accounts, a.lines, a.against),
                });
              else if (a.kind === 'post') postEntry(db, ids[a.i % ids.length]!);
              else voidEntry(db, ids[a.i % ids.length]!, null, matchedEntryVoidGuard, '2026-03-04');
            } catch (error) {
              expect((error as { code?: string }).code).toBe('INVALID_STATUS');
            }
          }
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
