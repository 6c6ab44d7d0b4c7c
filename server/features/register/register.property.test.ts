import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_PLAN, actionArb, day, play, RandomLedgers } from '../../../test/support/random-journal.ts';
import type { LedgerDb } from '../../db/stores.ts';
import { normalBalance } from '../../domain/double-entry.ts';
import { formatMinor } from '../../domain/money.ts';
import { CLEARED_STATES } from '../../contract/journal.ts';
import { registerPage } from './register.service.ts';

/**
 * A register page reads its total and the days it spans from the line counts that triggers keep,
 * and its running balances from the maintained totals. Random histories are read page by page and
 * compared with the plain computation over every line of the account.
 */

let ledgers: RandomLedgers;
beforeAll(() => {
  ledgers = new RandomLedgers();
});
afterAll(() => ledgers.close());

/** The register without counts or totals: every counted line, oldest first, summed one by one. */
function reference(db: LedgerDb, accountId: string, type: (typeof ACCOUNT_PLAN)[number][1]) {
  const rows = db.allSql<{ id: string; entry_date: string; direction: string; amount_minor: bigint; cleared: string }>(
    `SELECT l.id, l.entry_date, l.direction, l.amount_minor, l.cleared
       FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
      WHERE l.account_id = ? AND e.status IN ('posted', 'void')
      ORDER BY l.entry_date, e.created_at, e.seq, l.line_no`,
    accountId,
  );
  let balance = 0n;
  const out = rows.map((r) => {
    const amount =
      r.direction === 'DEBIT' ? normalBalance(type, r.amount_minor, 0n) : normalBalance(type, 0n, r.amount_minor);
    balance += amount;
    return {
      line_id: r.id,
      entry_date: r.entry_date,
      amount: formatMinor(amount, 'USD'),
      running_balance: formatMinor(balance, 'USD'),
      cleared: r.cleared,
    };
  });
  return out.reverse();
}

describe('account register from the line counts and the maintained totals', () => {
  it('when entries are created, rewritten, posted and voided at random, then every page of every account, cleared states included, equals the plain computation', () => {
    fc.assert(
      fc.property(
        fc.array(actionArb, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 6 }),
        fc.option(fc.tuple(fc.nat(5), fc.nat(5)), { nil: undefined }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...CLEARED_STATES)), { maxLength: 12 }),
        (actions, perPage, range, marks) => {
          const { db, accounts } = ledgers.fresh();
          play(db, accounts, actions);
          // some lines cleared or reconciled against the bank, as matches and reconciliations leave them
          const lineIds = db.allSql<{ id: string }>('SELECT id FROM journal_lines ORDER BY id').map((r) => r.id);
          for (const [n, state] of lineIds.length ? marks : [])
            db.runSql('UPDATE journal_lines SET cleared = ? WHERE id = ?', state, lineIds[n % lineIds.length]!);
          const [start, end] = range ? [Math.min(...range), Math.max(...range)] : [undefined, undefined];
          accounts.forEach((accountId, i) => {
            const want = reference(db, accountId, ACCOUNT_PLAN[i]![1]).filter(
              (r) =>
                (start === undefined || r.entry_date >= day(start)) && (end === undefined || r.entry_date <= day(end)),
            );
            const got: unknown[] = [];
            for (let page = 1; page <= Math.ceil(want.length / perPage) + 1; page++) {
              const answer = registerPage(db, accountId, {
                page,
                per_page: perPage,
                start_date: start === undefined ? undefined : day(start),
                end_date: end === undefined ? undefined : day(end),
              });
              expect(answer.total).toBe(want.length);
              got.push(
                ...answer.items.map((r) => ({
                  line_id: r.line_id,
                  entry_date: r.entry_date,
                  amount: r.amount,
                  running_balance: r.running_balance,
                  cleared: r.cleared,
                })),
              );
            }
            expect(got).toEqual(want);
          });
        },
      ),
      { numRuns: 30 },
    );
  });
});
