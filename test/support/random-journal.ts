import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { Stores, type LedgerDb } from '../../server/db/stores.ts';
import { createAccount } from '../../server/features/accounts/accounts.service.ts';
import { createEntry, postEntry, updateDraft, voidEntry } from '../../server/features/journal/journal.service.ts';
import { matchedEntryVoidGuard } from '../../server/features/reconciliation/reconciliation.review.service.ts';

/**
 * Random journal histories for the property tests of the listings that read kept counts (the
 * entry list, the account register, the search): drafts created and rewritten to other days,
 * accounts, amounts and memos, postings, voids, entries with several lines on one account.
 */

export const ACCOUNT_PLAN = [
  ['Checking', 'ASSET'],
  ['Card', 'LIABILITY'],
  ['Salary', 'INCOME'],
  ['Groceries', 'EXPENSE'],
] as const;

/** A folder of ledgers, one fresh ledger with the account plan at a time. */
export class RandomLedgers {
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-random-'));
  private readonly stores = new Stores(this.dir);
  private count = 0;

  fresh(): { db: LedgerDb; accounts: string[] } {
    this.count += 1;
    const db = this.stores.ledger(`00000000-0000-4000-8000-${String(this.count).padStart(12, '0')}`);
    const accounts = ACCOUNT_PLAN.map(([name, type]) => createAccount(db, { name, type }).id);
    return { db, accounts };
  }

  close(): void {
    this.stores.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * The days of the histories, n = 0..5 in date order: across a year's end and month ends, so that
 * pages and ranges cut months (the listings walk month counts, then days).
 */
const DAYS = ['2025-12-31', '2026-01-01', '2026-02-28', '2026-03-01', '2026-03-04', '2026-04-30'] as const;
export const day = (n: number) => DAYS[n]!;

/** Words of the memos: a few, so that searches find several entries. */
export const MEMO_WORDS = ['Market', 'rent', 'Café', 'salary', 'bonus', '超市', '房租'] as const;

const linesArb = fc.array(fc.record({ account: fc.nat(3), amount: fc.integer({ min: 1, max: 500 }) }), {
  minLength: 1,
  maxLength: 3,
});
const memoArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 4, arbitrary: fc.array(fc.constantFrom(...MEMO_WORDS), { minLength: 1, maxLength: 3 }) },
);

export const actionArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      day: fc.nat(5),
      lines: linesArb,
      against: fc.nat(3),
      post: fc.boolean(),
      memo: memoArb,
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
      memo: memoArb,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('post' as const), i: fc.nat(60) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('void' as const), i: fc.nat(60) }) },
);

export type Action = typeof actionArb extends fc.Arbitrary<infer A> ? A : never;

function balanced(accounts: string[], lines: { account: number; amount: number }[], against: number) {
  const total = lines.reduce((s, l) => s + l.amount, 0);
  return [
    ...lines.map((l) => ({ account_id: accounts[l.account]!, direction: 'DEBIT' as const, amount: `${l.amount}.00` })),
    { account_id: accounts[against]!, direction: 'CREDIT' as const, amount: `${total}.00` },
  ];
}

/** Plays the actions on the ledger (voids are dated 2026-03-04); returns the entries made, in order. */
export function play(db: LedgerDb, accounts: string[], actions: readonly Action[]): string[] {
  const ids: string[] = [];
  for (const a of actions) {
    try {
      if (a.kind === 'create')
        ids.push(
          createEntry(db, {
            entry_date: day(a.day),
            memo: a.memo?.join(' ') ?? null,
            lines: balanced(accounts, a.lines, a.against),
            auto_post: a.post,
          }).id,
        );
      else if (ids.length === 0) continue;
      else if (a.kind === 'rewrite')
        updateDraft(db, ids[a.i % ids.length]!, {
          entry_date: day(a.day),
          memo: a.memo?.join(' ') ?? null,
          lines: balanced(accounts, a.lines, a.against),
        });
      else if (a.kind === 'post') postEntry(db, ids[a.i % ids.length]!);
      else voidEntry(db, ids[a.i % ids.length]!, null, matchedEntryVoidGuard, '2026-03-04');
    } catch (error) {
      if ((error as { code?: string }).code !== 'INVALID_STATUS') throw error;
    }
  }
  return ids;
}
