import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionArb, day, MEMO_WORDS, play, RandomLedgers } from '../../../test/support/random-journal.ts';
import type { LedgerDb } from '../../db/stores.ts';
import { listEntryPage } from './journal.service.ts';

/**
 * The search reads the text and account indexes that triggers keep (and the amount index). Random
 * histories, memos rewritten and entries voided included, are searched with random words, word
 * beginnings, account names and amounts, and compared with a plain reading of every memo, line and
 * account.
 */

let ledgers: RandomLedgers;
beforeAll(() => {
  ledgers = new RandomLedgers();
});
afterAll(() => ledgers.close());

/** A memo's words as the search sees them: each ideograph a word, accents and case left out. */
function words(text: string): string[] {
  return text
    .replace(/([\u2e80-\u9fff])/g, ' $1 ')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function holds(memo: string[], term: string[], prefix: boolean): boolean {
  for (let i = 0; i + term.length <= memo.length; i++) {
    if (term.every((w, k) => (prefix && k === term.length - 1 ? memo[i + k]!.startsWith(w) : memo[i + k] === w)))
      return true;
  }
  return false;
}

interface Filters {
  startDate?: string | undefined;
  endDate?: string | undefined;
  status?: 'draft' | 'posted' | 'void' | undefined;
  accountId?: string | undefined;
}

/** The type roots an account's path starts with, as the interface names them in English and Chinese. */
const ROOTS: Record<string, [string, string]> = {
  ASSET: ['Assets', '资产'],
  LIABILITY: ['Liabilities', '负债'],
  EQUITY: ['Equity', '权益'],
  INCOME: ['Income', '收入'],
  EXPENSE: ['Expenses', '支出'],
};

/** Each account's full paths' words, in English and in Chinese (the accounts here have no parent). */
function accountPaths(db: LedgerDb): Map<string, string[][]> {
  const rows = db.allSql<{ id: string; name: string; type: string }>('SELECT id, name, type FROM accounts');
  return new Map(rows.map((a) => [a.id, ROOTS[a.type]!.map((root) => words(`${root}:${a.name}`))]));
}

/** Whether words hold a term as the search reads it (the last word a prefix when Latin and 2 or more long). */
function holdsTerm(text: string[], term: string): boolean {
  const asked = words(term);
  const last = asked[asked.length - 1]!;
  return holds(text, asked, !/[\u2e80-\u9fff]/.test(last) && last.length >= 2);
}

/** Every entry read and tested: what the search must find, newest first. */
function reference(db: LedgerDb, terms: string[], filters: Filters): string[] {
  const entries = db.allSql<{ id: string; memo: string | null; entry_date: string; status: string }>(
    'SELECT id, memo, entry_date, status FROM journal_entries ORDER BY entry_date DESC, seq DESC',
  );
  const amounts = new Map<string, Set<bigint>>();
  const accounts = new Map<string, Set<string>>();
  for (const l of db.allSql<{ entry_id: string; amount_minor: bigint; account_id: string }>(
    'SELECT entry_id, amount_minor, account_id FROM journal_lines',
  )) {
    amounts.set(l.entry_id, (amounts.get(l.entry_id) ?? new Set()).add(l.amount_minor));
    accounts.set(l.entry_id, (accounts.get(l.entry_id) ?? new Set()).add(l.account_id));
  }
  const paths = accountPaths(db);
  return entries
    .filter((e) => filters.startDate === undefined || e.entry_date >= filters.startDate)
    .filter((e) => filters.endDate === undefined || e.entry_date <= filters.endDate)
    .filter((e) => filters.status === undefined || e.status === filters.status)
    .filter((e) => filters.accountId === undefined || (accounts.get(e.id)?.has(filters.accountId) ?? false))
    .filter((e) =>
      terms.every((term) => {
        if (/^\d+\.00$/.test(term)) return amounts.get(e.id)?.has(BigInt(term.replace('.', ''))) ?? false;
        if (holdsTerm(words(e.memo ?? ''), term)) return true;
        return [...(accounts.get(e.id) ?? [])].some((id) => paths.get(id)!.some((path) => holdsTerm(path, term)));
      }),
    )
    .map((e) => e.id);
}

const termArb = fc.oneof(
  fc.constantFrom(...MEMO_WORDS),
  // account names, their beginnings and their types' roots
  fc.constantFrom('Checking', 'groc', 'Expenses', '收入', 'card'),
  fc.constantFrom(...MEMO_WORDS).map((w) => w.toUpperCase()),
  // the beginning of a word, as while typing
  fc.tuple(fc.constantFrom(...MEMO_WORDS), fc.integer({ min: 1, max: 4 })).map(([w, n]) => w.slice(0, n)),
  fc.integer({ min: 1, max: 600 }).map((n) => `${n}.00`),
);

describe('entry search from the memo and amount indexes', () => {
  it('when entries are created, rewritten, posted and voided at random, then every search finds what a plain reading finds', () => {
    fc.assert(
      fc.property(
        fc.array(actionArb, { minLength: 1, maxLength: 40 }),
        fc.array(fc.array(termArb, { minLength: 1, maxLength: 3 }), { minLength: 4, maxLength: 4 }),
        fc.option(fc.nat(5), { nil: undefined }),
        (actions, searches, start) => {
          const { db, accounts } = ledgers.fresh();
          play(db, accounts, actions);
          for (const terms of searches) {
            const startDate = start === undefined ? undefined : day(start);
            const got = listEntryPage(db, { q: terms.join(' '), page: 1, per_page: 100, start_date: startDate });
            const want = reference(db, terms, { startDate });
            expect({ ids: got.items.map((e) => e.id), total: got.total, exact: got.total_exact }).toEqual({
              ids: want,
              total: want.length,
              exact: true,
            });
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('when any page of a search is asked for with any filters, then it holds the same entries in the same order as the plain reading, and its total is exact up to the counted matches past the page and a lower bound beyond', () => {
    fc.assert(
      fc.property(
        fc.array(actionArb, { minLength: 10, maxLength: 60 }),
        // one word or its beginning mostly (many matches), sometimes two terms or an amount
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...MEMO_WORDS.map((w) => [w.slice(0, 2)]), ['rent'], ['market']) },
          { weight: 1, arbitrary: fc.array(termArb, { minLength: 1, maxLength: 2 }) },
        ),
        fc.oneof(
          {
            weight: 1,
            arbitrary: fc.constant<{ start?: number; end?: number; status?: undefined; account?: number }>({}),
          },
          {
            weight: 2,
            arbitrary: fc.record(
              {
                start: fc.nat(5),
                end: fc.nat(5),
                status: fc.constantFrom('posted' as const, 'void' as const, 'draft' as const),
                account: fc.nat(3),
              },
              { requiredKeys: [] },
            ),
          },
        ),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 3 }),
        fc.nat(2),
        (actions, terms, f, perPage, page, ahead) => {
          const { db, accounts } = ledgers.fresh();
          play(db, accounts, actions);
          const [lo, hi] = [f.start, f.end].sort();
          const filters: Filters = {
            startDate: lo === undefined ? undefined : day(lo),
            endDate: hi === undefined ? undefined : day(hi),
            status: f.status,
            accountId: f.account === undefined ? undefined : accounts[f.account],
          };
          const got = listEntryPage(
            db,
            {
              q: terms.join(' '),
              page,
              per_page: perPage,
              start_date: filters.startDate,
              end_date: filters.endDate,
              status: filters.status,
              account_id: filters.accountId,
            },
            ahead,
          );
          const want = reference(db, terms, filters);
          const offset = (page - 1) * perPage;
          const counted = offset + perPage + ahead;
          expect({ ids: got.items.map((e) => e.id), total: got.total, exact: got.total_exact }).toEqual({
            ids: want.slice(offset, offset + perPage),
            total: Math.min(want.length, counted),
            exact: want.length < counted,
          });
        },
      ),
      { numRuns: 150 },
    );
  });
});
