import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionArb, day, MEMO_WORDS, play, RandomLedgers } from '../../../test/support/random-journal.ts';
import type { LedgerDb } from '../../db/stores.ts';
import { listEntryPage } from './journal.service.ts';

/**
 * The search reads the memo index that triggers keep (and the amount index). Random histories,
 * memos rewritten and entries voided included, are searched with random words, word beginnings and
 * amounts, and compared with a plain reading of every memo and line.
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

/** Every entry read and tested: what the search must find, newest first. */
function reference(db: LedgerDb, terms: string[], startDate: string | undefined): string[] {
  const entries = db.allSql<{ id: string; memo: string | null; entry_date: string }>(
    'SELECT id, memo, entry_date FROM journal_entries ORDER BY entry_date DESC, seq DESC',
  );
  const amounts = new Map<string, Set<bigint>>();
  for (const l of db.allSql<{ entry_id: string; amount_minor: bigint }>(
    'SELECT entry_id, amount_minor FROM journal_lines',
  ))
    amounts.set(l.entry_id, (amounts.get(l.entry_id) ?? new Set()).add(l.amount_minor));
  return entries
    .filter((e) => startDate === undefined || e.entry_date >= startDate)
    .filter((e) =>
      terms.every((term) => {
        if (/^\d+\.00$/.test(term)) return amounts.get(e.id)?.has(BigInt(term.replace('.', ''))) ?? false;
        const memo = words(e.memo ?? '');
        const asked = words(term);
        const last = asked[asked.length - 1]!;
        return holds(memo, asked, !/[\u2e80-\u9fff]/.test(last) && last.length >= 2);
      }),
    )
    .map((e) => e.id);
}

const termArb = fc.oneof(
  fc.constantFrom(...MEMO_WORDS),
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
            const want = reference(db, terms, startDate);
            expect({ ids: got.items.map((e) => e.id), total: got.total }).toEqual({ ids: want, total: want.length });
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
