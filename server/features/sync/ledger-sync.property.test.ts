import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountTotals as totals, syncedRows as books } from '../../../test/support/bank-books.ts';
import { createKeyedGroup } from '../../../test/support/relay.ts';
import { useRelayMember } from '../../../test/support/relay-member.ts';
import { Stores, type LedgerDb } from '../../db/stores.ts';
import { DomainError } from '../../domain/errors.ts';
import type { SyncGroup } from '../../sync/sync-client.ts';
import { createAccount, removeAccount } from '../accounts/accounts.service.ts';
import { createEntry, postEntry, updateDraft, voidEntry } from '../journal/journal.service.ts';
import { updateSettings } from '../settings/settings.service.ts';
import { syncLedger } from './ledger-store.ts';

/**
 * Three devices keep one set of books: each works offline on its own ledger file (accounts of the
 * same names made on two devices, drafts rewritten on one while posted or voided on another,
 * accounts deleted on one while posted to on another, the same setting changed on two), and they
 * sync through a real relay on loopback in random orders and partitions. Once all have synced:
 * every device holds the same rows, every posted entry balances, the trial balance is zero in
 * every currency, and the maintained totals equal a recount of the lines.
 */

const NAMES = [
  ['Checking', 'ASSET'],
  ['Card', 'LIABILITY'],
  ['Salary', 'INCOME'],
  ['Groceries', 'EXPENSE'],
] as const;
const DAYS = ['2026-01-31', '2026-02-01', '2026-03-15'] as const;

type Op =
  | { kind: 'account'; device: number; name: number }
  | { kind: 'entry'; device: number; from: number; to: number; amount: number; day: number; post: boolean }
  | { kind: 'post' | 'void' | 'rewrite'; device: number; pick: number; amount: number; day: number }
  | { kind: 'delete-account'; device: number; pick: number }
  | { kind: 'setting'; device: number; value: number }
  | { kind: 'sync'; devices: number[] };

const device = fc.integer({ min: 0, max: 2 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('account' as const), device, name: fc.nat(3) }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('entry' as const),
      device,
      from: fc.nat(7),
      to: fc.nat(7),
      amount: fc.integer({ min: 1, max: 9999 }),
      day: fc.nat(2),
      post: fc.boolean(),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constantFrom('post' as const, 'void' as const, 'rewrite' as const),
      device,
      pick: fc.nat(50),
      amount: fc.integer({ min: 1, max: 9999 }),
      day: fc.nat(2),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-account' as const), device, pick: fc.nat(7) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('setting' as const), device, value: fc.nat(9) }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('sync' as const), devices: fc.subarray([0, 1, 2], { minLength: 1 }) }),
  },
);

const noGuard = { beforeVoid: () => undefined };

function ids(db: LedgerDb, sql: string): string[] {
  return db.allSql<{ id: string }>(sql).map((r) => r.id);
}

/** Plays one step on a device; a refusal the app would answer with a 4xx changes nothing and is passed over. */
function play(db: LedgerDb, step: Exclude<Op, { kind: 'sync' }>): void {
  try {
    const accounts = ids(db, 'SELECT id FROM accounts WHERE is_active = 1 ORDER BY id');
    if (step.kind === 'account') {
      const [name, type] = NAMES[step.name]!;
      createAccount(db, { name, type });
    } else if (step.kind === 'entry') {
      if (accounts.length < 2) return;
      const from = accounts[step.from % accounts.length]!;
      const to = accounts[(step.from + 1 + (step.to % (accounts.length - 1))) % accounts.length]!;
      const amount = `${Math.floor(step.amount / 100)}.${String(step.amount % 100).padStart(2, '0')}`;
      createEntry(db, {
        entry_date: DAYS[step.day]!,
        memo: `Groceries at the Corner Shop ${step.amount}`,
        lines: [
          { account_id: from, direction: 'DEBIT', amount },
          { account_id: to, direction: 'CREDIT', amount },
        ],
        auto_post: step.post,
      });
    } else if (step.kind === 'delete-account') {
      if (accounts.length === 0) return;
      removeAccount(db, accounts[step.pick % accounts.length]!, []);
    } else if (step.kind === 'setting') {
      updateSettings(db, { home_currency: ['USD', 'EUR', 'GBP'][step.value % 3]! });
    } else {
      const status = step.kind === 'void' ? 'posted' : 'draft';
      const entries = ids(db, `SELECT id FROM journal_entries WHERE status = '${status}' ORDER BY id`);
      if (entries.length === 0) return;
      const id = entries[step.pick % entries.length]!;
      if (step.kind === 'post') postEntry(db, id);
      else if (step.kind === 'void') voidEntry(db, id, 'duplicate', noGuard, DAYS[2]);
      else {
        const [first] = db.allSql<{ account_id: string }>(
          'SELECT account_id FROM journal_lines WHERE entry_id = ? ORDER BY line_no',
          id,
        );
        const [second] = db.allSql<{ account_id: string }>(
          'SELECT account_id FROM journal_lines WHERE entry_id = ? ORDER BY line_no DESC',
          id,
        );
        updateDraft(db, id, {
          entry_date: DAYS[step.day]!,
          memo: 'rewritten',
          lines: [
            { account_id: first!.account_id, direction: 'DEBIT', amount: `${step.amount}.00` },
            { account_id: second!.account_id, direction: 'CREDIT', amount: `${step.amount}.00` },
          ],
        });
      }
    }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
  }
}

describe('three devices keep one set of books through a relay', () => {
  const { dir, member } = useRelayMember('ledger-sync-');

  it('when three devices work offline and sync in random orders and partitions, then after all sync they hold the same valid books', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 30 }), async (ops) => {
        runs += 1;
        const group: SyncGroup = await createKeyedGroup(member());
        const transport = member().transport();
        const stores = [0, 1, 2].map((i) => new Stores(path.join(dir, `run${runs}-device${i}`)));
        const user = '00000000-0000-4000-8000-000000000001';
        const dbs = stores.map((s) => s.ledger(user));
        const since: (string | null)[] = [null, null, null];
        const sync = async (i: number) => {
          since[i] = (await syncLedger(dbs[i]!, transport, group, since[i]!)).since;
        };
        try {
          for (const step of ops) {
            if (step.kind === 'sync') for (const i of step.devices) await sync(i);
            else play(dbs[step.device]!, step);
          }
          for (let pass = 0; pass < 2; pass++) for (const i of [0, 1, 2]) await sync(i);

          const first = books(dbs[0]!);
          for (const db of dbs) {
            expect(books(db)).toBe(first);
            const { kept, recount } = totals(db);
            expect(kept).toBe(recount);
            expect(
              db.allSql(
                `SELECT l.currency, SUM(CASE WHEN l.direction = 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) AS net
                   FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
                  WHERE e.status IN ('posted', 'void') GROUP BY l.currency HAVING net <> 0`,
              ),
            ).toEqual([]);
            expect(
              db.allSql(
                `SELECT e.id FROM journal_entries e JOIN journal_lines l ON l.entry_id = e.id WHERE e.status <> 'draft'
                  GROUP BY e.id, l.currency HAVING SUM(CASE WHEN l.direction = 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) <> 0`,
              ),
            ).toEqual([]);
          }
        } finally {
          for (const s of stores) s.close();
        }
      }),
      { numRuns: 15 },
    );
    expect(runs).toBe(15);
  });
});
