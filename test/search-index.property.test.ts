import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LedgerDb } from '../server/db/stores.ts';
import { DomainError } from '../server/domain/errors.ts';
import { changeAccount, createAccount } from '../server/features/accounts/accounts.service.ts';
import {
  correctEntry,
  createEntry,
  postEntry,
  updateDraft,
  voidEntry,
} from '../server/features/journal/journal.service.ts';
import { listEntryPage } from '../server/features/journal/journal.search.service.ts';
import { createEntryForBankTransaction } from '../server/features/reconciliation/reconciliation.booking.service.ts';
import { KeptPayeeModels } from '../server/features/reconciliation/reconciliation.payees.service.ts';
import {
  acceptMatch,
  matchedEntryVoidGuard,
  rejectMatch,
} from '../server/features/reconciliation/reconciliation.review.service.ts';
import { runReconciliation } from '../server/features/reconciliation/reconciliation.run.service.ts';
import { createStatement, removeStatement } from '../server/features/statements/statements.service.ts';
import { useLedgerFiles } from './support/ledger-files.ts';

/**
 * The search's two indexes (migration search_bank_and_accounts) are kept by triggers: the entries'
 * text (memo, and the descriptions of their live bank lines) and the accounts' paths. After random
 * writes of every kind that moves them (entries created, rewritten, posted, voided and corrected;
 * statements imported and deleted; matches made by runs and by booking a bank line, accepted and
 * undone; accounts renamed and moved), each index holds exactly what a rebuild from scratch holds,
 * and a search finds what a plain reading of memos, matched bank lines and account paths finds.
 */

const THRESHOLDS = { autoAccept: 95, review: 20 };
const payeeModels = new KeptPayeeModels(8);

const ledgers = useLedgerFiles('search-index');

const ACCOUNTS = [
  ['Checking', 'ASSET'],
  ['Bills', 'EXPENSE'],
  ['Utilities', 'EXPENSE'],
  ['餐饮', 'EXPENSE'],
  ['Salary', 'INCOME'],
] as const;
const [CHECKING] = [0];
/** Names an account is renamed to, and words of memos and bank descriptions. */
const NAMES = ['Power', '水电', 'Household', 'Utilities', 'Dining'];
const WORDS = ['Tesco', 'market', '星巴克', '咖啡', 'rent', 'Power', 'PRET'];
const day = (n: number) => `2026-03-${String(1 + n).padStart(2, '0')}`;

const freshLedger = () => ledgers.fresh(ACCOUNTS);

const textArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 2 }).map((w) => w.join(' '));
const otherArb = fc.integer({ min: 1, max: 4 });

const actionArb = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('entry' as const),
      day: fc.nat(5),
      other: otherArb,
      amount: fc.integer({ min: 1, max: 4 }),
      memo: fc.option(textArb, { nil: null }),
      post: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('rewrite' as const),
      i: fc.nat(40),
      day: fc.nat(5),
      other: otherArb,
      memo: fc.option(textArb, { nil: null }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('post' as const), i: fc.nat(40) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('void' as const), i: fc.nat(40) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('correct' as const), i: fc.nat(40), other: otherArb, memo: textArb }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('statement' as const),
      rows: fc.array(fc.record({ day: fc.nat(5), amount: fc.integer({ min: 1, max: 4 }), text: textArb }), {
        minLength: 1,
        maxLength: 4,
      }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeStatement' as const), i: fc.nat(10) }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'run' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('decide' as const), i: fc.nat(40), accept: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('undo' as const), i: fc.nat(40) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('book' as const), i: fc.nat(40), other: otherArb }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('rename' as const), account: otherArb, name: fc.constantFrom(...NAMES) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      account: fc.constantFrom(2, 3),
      parent: fc.option(fc.constantFrom(1, 2, 3), { nil: null }),
    }),
  },
);

type Action = typeof actionArb extends fc.Arbitrary<infer A> ? A : never;

const LIVE = "('auto_accepted', 'accepted', 'pending_review')";

function apply(db: LedgerDb, accounts: string[], a: Action, entries: string[], statements: string[]): void {
  const lines = (other: number, amount: number) => [
    { account_id: accounts[other]!, direction: 'DEBIT' as const, amount: `${amount}.00` },
    { account_id: accounts[CHECKING]!, direction: 'CREDIT' as const, amount: `${amount}.00` },
  ];
  const pick = (i: number) => entries[i % entries.length]!;
  if (a.kind === 'entry') {
    const made = createEntry(db, {
      entry_date: day(a.day),
      memo: a.memo,
      lines: lines(a.other, a.amount),
      auto_post: a.post,
    });
    entries.push(made.id);
  } else if (a.kind === 'statement') {
    const transactions = a.rows.map((r) => ({
      date: day(r.day),
      description: `${r.text} ${r.amount}`,
      amount: `${r.amount}.00`,
      type: 'debit',
    }));
    const made = createStatement(db, { account_id: accounts[CHECKING]!, transactions } as Parameters<
      typeof createStatement
    >[1]);
    if (made.id) statements.push(made.id);
  } else if (a.kind === 'removeStatement') {
    if (statements.length > 0) removeStatement(db, statements.splice(a.i % statements.length, 1)[0]!);
  } else if (a.kind === 'run') {
    runReconciliation(db, { account_id: accounts[CHECKING]! }, THRESHOLDS);
  } else if (a.kind === 'decide' || a.kind === 'undo') {
    const status = a.kind === 'decide' ? 'pending_review' : 'auto_accepted';
    const open = db.allSql<{ id: string }>(
      'SELECT id FROM reconciliation_matches WHERE status = ? ORDER BY id',
      status,
    );
    if (open.length === 0) return;
    const id = open[a.i % open.length]!.id;
    if (a.kind === 'decide' && a.accept) acceptMatch(db, id);
    else rejectMatch(db, id, null);
  } else if (a.kind === 'book') {
    const open = db.allSql<{ id: string }>(
      `SELECT t.id FROM bank_transactions t WHERE NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.bank_transaction_id = t.id AND m.status IN ${LIVE}) ORDER BY t.seq`,
    );
    if (open.length === 0) return;
    const made = createEntryForBankTransaction(
      db,
      open[a.i % open.length]!.id,
      { account_id: accounts[a.other]! },
      THRESHOLDS,
      payeeModels,
    );
    entries.push(made.entry.id);
  } else if (a.kind === 'rename') {
    changeAccount(db, accounts[a.account]!, { name: a.name });
  } else if (a.kind === 'move') {
    changeAccount(db, accounts[a.account]!, { parent_id: a.parent === null ? null : accounts[a.parent]! });
  } else if (entries.length > 0) {
    if (a.kind === 'rewrite')
      updateDraft(db, pick(a.i), { entry_date: day(a.day), memo: a.memo, lines: lines(a.other, 2) });
    else if (a.kind === 'post') postEntry(db, pick(a.i));
    else if (a.kind === 'void') voidEntry(db, pick(a.i), null, matchedEntryVoidGuard, day(5));
    else {
      const made = correctEntry(
        db,
        pick(a.i),
        { entry_date: day(4), memo: a.memo, lines: lines(a.other, 3) },
        matchedEntryVoidGuard,
        day(5),
      );
      entries.push(made.entry.id);
    }
  }
}

function play(db: LedgerDb, accounts: string[], actions: readonly Action[]): void {
  const entries: string[] = [];
  const statements: string[] = [];
  for (const a of actions) {
    try {
      apply(db, accounts, a, entries, statements);
    } catch (error) {
      // a write the app refuses (a draft posted twice, a name taken, a loop of accounts) changes nothing
      if (!(error instanceof DomainError)) throw error;
    }
  }
}

/** An index's words, each with its row (`key`), column and place, sorted. */
function instances(db: LedgerDb, table: string, key: string): string[] {
  const vocab = `temp.${table}_words`;
  db.sqlite.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${vocab} USING fts5vocab(${table.startsWith('recount') ? 'temp' : 'main'}, ${table}, instance)`,
  );
  return db
    .allSql<{ row: unknown; col: string; term: string; offset: bigint }>(
      `SELECT ${key} AS row, v.col, v.term, v."offset" FROM ${vocab} v`,
    )
    .map((r) => `${String(r.row)} ${r.col} ${r.term} ${r.offset}`)
    .sort();
}

/** The indexes as the triggers kept them, and as a rebuild from the migration's views makes them. */
function keptAndRebuilt(db: LedgerDb) {
  const sqlite = db.sqlite;
  sqlite.exec(`
    DROP TABLE IF EXISTS temp.recount_entries;
    DROP TABLE IF EXISTS temp.recount_accounts;
    DROP TABLE IF EXISTS temp.recount_entries_words;
    DROP TABLE IF EXISTS temp.recount_accounts_words;
    DROP TABLE IF EXISTS temp.entry_search_words;
    DROP TABLE IF EXISTS temp.account_search_words;
    CREATE VIRTUAL TABLE temp.recount_entries USING fts5(memo, bank, content = '', tokenize = 'unicode61 remove_diacritics 2');
    INSERT INTO temp.recount_entries (rowid, memo, bank) SELECT key, memo, bank FROM entry_search_rows;
    CREATE VIRTUAL TABLE temp.recount_accounts USING fts5(account_id UNINDEXED, path, path_zh, tokenize = 'unicode61 remove_diacritics 2');
    INSERT INTO temp.recount_accounts (account_id, path, path_zh) SELECT account_id, path, path_zh FROM account_search_rows;
  `);
  const accountOf = (table: string) => `(SELECT account_id FROM ${table} WHERE rowid = v.doc)`;
  return {
    kept: {
      entries: instances(db, 'entry_search', 'v.doc'),
      accounts: instances(db, 'account_search', accountOf('account_search')),
    },
    rebuilt: {
      entries: instances(db, 'recount_entries', 'v.doc'),
      accounts: instances(db, 'recount_accounts', accountOf('temp.recount_accounts')),
    },
  };
}

/** A text's words as the search reads them: each ideograph a word, case left out. */
function words(text: string): string[] {
  return text
    .replace(/([\u2e80-\u9fff])/g, ' $1 ')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function holds(text: string[], term: string): boolean {
  const asked = words(term);
  const prefix = !/[\u2e80-\u9fff]/.test(term) && asked[asked.length - 1]!.length >= 2;
  for (let i = 0; i + asked.length <= text.length; i++)
    if (asked.every((w, k) => (prefix && k === asked.length - 1 ? text[i + k]!.startsWith(w) : text[i + k] === w)))
      return true;
  return false;
}

const ROOTS: Record<string, string[]> = {
  ASSET: ['Assets', '资产'],
  LIABILITY: ['Liabilities', '负债'],
  EQUITY: ['Equity', '权益'],
  INCOME: ['Income', '收入'],
  EXPENSE: ['Expenses', '支出'],
};

/** What a one-word search must find, newest first: every entry, matched bank line and account read. */
function reference(db: LedgerDb, term: string): string[] {
  const accounts = new Map(
    db
      .allSql<{ id: string; name: string; type: string; parent_id: string | null }>(
        'SELECT id, name, type, parent_id FROM accounts',
      )
      .map((a) => [a.id, a]),
  );
  const pathsOf = (id: string): string[][] => {
    const names: string[] = [];
    for (let a = accounts.get(id); a; a = a.parent_id ? accounts.get(a.parent_id) : undefined) names.unshift(a.name);
    return ROOTS[accounts.get(id)!.type]!.map((root) => words([root, ...names].join(':')));
  };
  const texts = new Map<string, string[][]>();
  const add = (id: string, text: string[]) => texts.set(id, [...(texts.get(id) ?? []), text]);
  for (const e of db.allSql<{ id: string; memo: string | null }>('SELECT id, memo FROM journal_entries'))
    add(e.id, words(e.memo ?? ''));
  for (const m of db.allSql<{ entry_id: string; description: string }>(
    `SELECT m.entry_id, t.description FROM reconciliation_matches m JOIN bank_transactions t ON t.id = m.bank_transaction_id WHERE m.status IN ${LIVE}`,
  ))
    add(m.entry_id, words(m.description));
  for (const l of db.allSql<{ entry_id: string; account_id: string }>('SELECT entry_id, account_id FROM journal_lines'))
    for (const p of pathsOf(l.account_id)) add(l.entry_id, p);
  return db
    .allSql<{ id: string }>('SELECT id FROM journal_entries ORDER BY entry_date DESC, seq DESC')
    .map((e) => e.id)
    .filter((id) => (texts.get(id) ?? []).some((text) => holds(text, term)));
}

describe('the search indexes kept by triggers', () => {
  it('when entries, statements, matches and accounts are written at random, then each index equals its rebuild and a search finds what a plain reading finds', () => {
    fc.assert(
      fc.property(
        fc.array(actionArb, { minLength: 5, maxLength: 30 }),
        fc.array(fc.constantFrom(...WORDS, ...NAMES, 'Bills', 'Expenses', '支出', 'Checking', 'salar'), {
          minLength: 2,
          maxLength: 2,
        }),
        (actions, terms) => {
          const { db, accounts } = freshLedger();
          play(db, accounts, actions);
          const { kept, rebuilt } = keptAndRebuilt(db);
          expect(kept).toEqual(rebuilt);
          for (const term of terms) {
            const got = listEntryPage(db, { q: term, page: 1, per_page: 100 });
            expect(
              got.items.map((e) => e.id),
              term,
            ).toEqual(reference(db, term));
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
