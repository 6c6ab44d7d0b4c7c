import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doubleMatches, exchange, keptAndRecounted } from '../../../test/support/bank-books.ts';
import { Stores, type LedgerDb } from '../../db/stores.ts';
import { DEFAULT_THRESHOLDS } from '../../domain/reconciliation/scoring.ts';
import { parseTimestamp } from '../../sync/clock.ts';
import { createAccount } from '../accounts/accounts.service.ts';
import { createEntry, voidEntry } from '../journal/journal.service.ts';
import { createEntryForBankTransaction } from '../reconciliation/reconciliation.booking.service.ts';
import {
  listReconciliationPage,
  reconcileAccount,
  reconcileStatus,
  setCleared,
} from '../reconciliation/reconciliation.cleared.service.ts';
import { KeptPayeeModels } from '../reconciliation/reconciliation.payees.service.ts';
import { acceptMatch, rejectMatch } from '../reconciliation/reconciliation.review.service.ts';
import { runReconciliation } from '../reconciliation/reconciliation.run.service.ts';
import {
  createStatement,
  listStatementPage,
  listTransactionPage,
  removeStatement,
} from '../statements/statements.service.ts';
import { historyPage, undoLast } from './history.service.ts';
import { LedgerSyncStore } from './ledger-store.ts';

/**
 * The merge rules of statements, bank lines, matches and reconciliations (sync-apply-bank.ts), two
 * devices at a time: each works on its own ledger file, then they hand each other their changes.
 */

let dir: string;
let stores: Stores;
let ledgers = 0;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sync-bank-'));
  stores = new Stores(dir);
});
afterAll(() => {
  stores.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const models = new KeptPayeeModels(8);
const noGuard = { beforeVoid: () => undefined };

/** Two devices with the same accounts (made on the first): checking, groceries, dining. */
function twoDevices(): { a: LedgerDb; b: LedgerDb; checking: string; groceries: string; dining: string } {
  const open = () => stores.ledger(`00000000-0000-4000-8000-${String(++ledgers).padStart(12, '0')}`);
  const [a, b] = [open(), open()];
  const checking = createAccount(a, { name: 'Checking', type: 'ASSET' }).id;
  const groceries = createAccount(a, { name: 'Groceries', type: 'EXPENSE' }).id;
  const dining = createAccount(a, { name: 'Dining', type: 'EXPENSE' }).id;
  exchange(a, b);
  return { a, b, checking, groceries, dining };
}

/** Both ways, twice: what one device's merge logs reaches the other. */
function syncBoth(a: LedgerDb, b: LedgerDb): void {
  for (let round = 0; round < 2; round++) {
    exchange(a, b);
    exchange(b, a);
  }
}

/** `later`'s clock moves past every change `earlier` has made: its next change is the later one. */
function after(later: LedgerDb, earlier: LedgerDb): void {
  const [last] = earlier.allSql<{ t: string }>('SELECT MAX(timestamp) AS t FROM change_log');
  new LedgerSyncStore(later).clock.recv(parseTimestamp(last!.t)!);
}

const FILE = [
  {
    date: '2026-03-02',
    description: 'CORNER SHOP 1123',
    amount: '12.40',
    type: 'debit' as const,
    external_id: 'FIT-1',
  },
  { date: '2026-03-05', description: 'BISTRO 77', amount: '31.00', type: 'debit' as const, external_id: 'FIT-2' },
];

function lines(db: LedgerDb): { id: string; statement_id: string; dedupe_key: string }[] {
  return db.allSql('SELECT id, statement_id, dedupe_key FROM bank_transactions ORDER BY id');
}

function matches(db: LedgerDb): { id: string; bank_transaction_id: string; entry_id: string; status: string }[] {
  return db.allSql('SELECT id, bank_transaction_id, entry_id, status FROM reconciliation_matches ORDER BY id');
}

function expectSameAndExact(a: LedgerDb, b: LedgerDb): void {
  expect(lines(b)).toEqual(lines(a));
  expect(matches(b)).toEqual(matches(a));
  expect(b.allSql('SELECT id, cleared FROM journal_lines ORDER BY id')).toEqual(
    a.allSql('SELECT id, cleared FROM journal_lines ORDER BY id'),
  );
  for (const db of [a, b]) {
    const { kept, recounted } = keptAndRecounted(db);
    expect(kept).toEqual(recounted);
    expect(doubleMatches(db)).toEqual([]);
  }
}

describe('statements and bank lines under merge', () => {
  it('when a statement is imported on one device, then the other holds it with its lines and counts them unmatched', () => {
    const { a, b, checking } = twoDevices();
    const statement = createStatement(a, { account_id: checking, transactions: FILE });
    exchange(a, b);
    expect(listTransactionPage(b, statement.id!, { page: 1, per_page: 10 }).items.map((t) => t.description)).toEqual(
      listTransactionPage(a, statement.id!, { page: 1, per_page: 10 }).items.map((t) => t.description),
    );
    expect(b.allSql('SELECT SUM(transactions) AS n FROM unmatched_transaction_day_counts')).toEqual([{ n: 2n }]);
    expectSameAndExact(a, b);
  });

  it('when the same bank file is imported on two devices, then both keep the first import’s lines once, and a match made on the second names the kept line', () => {
    const { a, b, checking, groceries } = twoDevices();
    createStatement(a, { account_id: checking, transactions: FILE });
    const kept = lines(a);
    after(b, a);
    createStatement(b, { account_id: checking, transactions: FILE });
    const twin = lines(b).find((l) => l.dedupe_key === kept[0]!.dedupe_key)!;
    createEntryForBankTransaction(b, twin.id, { account_id: groceries }, DEFAULT_THRESHOLDS, models);
    syncBoth(a, b);

    expect(lines(a)).toEqual(kept);
    expect(a.allSql('SELECT COUNT(*) AS n FROM statements')).toEqual([{ n: 2n }]);
    expect(matches(a)).toEqual([expect.objectContaining({ bank_transaction_id: kept[0]!.id, status: 'accepted' })]);
    expectSameAndExact(a, b);
  });

  it('when the second import of a file reaches a device first, then the first import’s lines still win there', () => {
    const { a, b, checking } = twoDevices();
    const c = stores.ledger(`00000000-0000-4000-8000-${String(++ledgers).padStart(12, '0')}`);
    exchange(a, c);
    createStatement(a, { account_id: checking, transactions: FILE });
    after(b, a);
    createStatement(b, { account_id: checking, transactions: FILE });
    exchange(b, c);
    exchange(a, c);
    expect(lines(c)).toEqual(lines(a));
    expectSameAndExact(a, c);
  });

  it('when two devices import different files offline, then both list the statements and their lines in the order they were imported', () => {
    const { a, b, checking } = twoDevices();
    const sameDay = (rows: typeof FILE, tag: string) =>
      rows.map((r) => ({ ...r, date: '2026-03-02', external_id: `${r.external_id}-${tag}` }));
    const first = createStatement(a, { account_id: checking, transactions: sameDay(FILE, 'a') });
    after(b, a);
    const second = createStatement(b, { account_id: checking, transactions: sameDay(FILE, 'b') });
    exchange(a, b);
    exchange(b, a);
    const order = (db: LedgerDb) =>
      db.allSql<{ id: string }>('SELECT id FROM bank_transactions ORDER BY seq').map((r) => r.id);
    for (const db of [a, b])
      expect(listStatementPage(db, { page: 1, per_page: 10 }).items.map((s) => s.id)).toEqual([second.id, first.id]);
    expect(order(b)).toEqual(order(a));
    expectSameAndExact(a, b);
  });

  it('when a file imported first on one device is deleted there before it syncs, then the other device’s later import of it keeps its lines and matches', () => {
    const { a, b, checking, groceries } = twoDevices();
    const early = createStatement(b, { account_id: checking, transactions: FILE });
    removeStatement(b, early.id!);
    after(a, b);
    createStatement(a, { account_id: checking, transactions: FILE });
    const kept = lines(a);
    createEntryForBankTransaction(a, kept[0]!.id, { account_id: groceries }, DEFAULT_THRESHOLDS, models);
    syncBoth(a, b);

    expect(lines(a)).toEqual(kept);
    expect(matches(a)).toEqual([expect.objectContaining({ bank_transaction_id: kept[0]!.id, status: 'accepted' })]);
    expectSameAndExact(a, b);
  });

  it('when the first import of a file is deleted after a later import gave way to it, then the line is gone from every device alike', () => {
    const { a, b, checking } = twoDevices();
    const c = stores.ledger(`00000000-0000-4000-8000-${String(++ledgers).padStart(12, '0')}`);
    exchange(a, c);
    const early = createStatement(a, { account_id: checking, transactions: FILE });
    after(b, a);
    createStatement(b, { account_id: checking, transactions: FILE });
    exchange(a, b); // b's lines give way to a's, the first import
    removeStatement(a, early.id!);
    exchange(a, b);
    // c hears of a's import only with its deletion, and of b's import with its giving way
    exchange(a, c);
    exchange(b, c);
    for (const db of [a, b, c]) expect(lines(db)).toEqual([]);
    expectSameAndExact(b, c);
  });

  it('when a statement is deleted on one device, then the other loses it, its lines and their counts', () => {
    const { a, b, checking } = twoDevices();
    const statement = createStatement(a, { account_id: checking, transactions: FILE });
    exchange(a, b);
    removeStatement(a, statement.id!);
    exchange(a, b);
    expect(lines(b)).toEqual([]);
    expect(b.allSql('SELECT * FROM unmatched_transaction_day_counts WHERE account_id = ?', checking)).toEqual([]);
    expectSameAndExact(a, b);
  });
});

describe('matches under merge', () => {
  it('when two devices match one bank line to different entries, then the later match stays and the earlier is superseded, its entry unmatched again', () => {
    const { a, b, checking, groceries, dining } = twoDevices();
    createStatement(a, { account_id: checking, transactions: FILE.slice(0, 1) });
    exchange(a, b);
    const [line] = lines(a);
    const first = createEntryForBankTransaction(a, line!.id, { account_id: groceries }, DEFAULT_THRESHOLDS, models);
    after(b, a);
    const second = createEntryForBankTransaction(b, line!.id, { account_id: dining }, DEFAULT_THRESHOLDS, models);
    syncBoth(a, b);

    const byId = new Map(matches(a).map((m) => [m.id, m]));
    expect(byId.get(second.match.id)?.status).toBe('accepted');
    expect(byId.get(first.match.id)?.status).toBe('superseded');
    // the losing entry is unmatched again, its bank-account line uncleared
    expect(
      a.allSql('SELECT cleared FROM journal_lines WHERE entry_id = ? AND account_id = ?', first.entry.id, checking),
    ).toEqual([{ cleared: 'uncleared' }]);
    expectSameAndExact(a, b);
  });

  it('when a match is accepted on one device and a later run elsewhere proposes the same pair, then the accepted one stays (rank before clock)', () => {
    const { a, b, checking, groceries } = twoDevices();
    createEntry(a, {
      entry_date: '2026-03-02',
      memo: 'Corner shop',
      auto_post: true,
      lines: [
        { account_id: groceries, direction: 'DEBIT', amount: '12.40' },
        { account_id: checking, direction: 'CREDIT', amount: '12.40' },
      ],
    });
    createStatement(a, { account_id: checking, transactions: FILE.slice(0, 1) });
    exchange(a, b);
    // a threshold so high that a run only proposes
    const thresholds = { autoAccept: 100, review: 1 };
    runReconciliation(a, { account_id: checking }, thresholds);
    const accepted = matches(a)[0]!;
    acceptMatch(a, accepted.id);
    after(b, a);
    runReconciliation(b, { account_id: checking }, thresholds);
    const proposed = matches(b)[0]!;
    expect(proposed.status).toBe('pending_review');
    syncBoth(a, b);

    const byId = new Map(matches(a).map((m) => [m.id, m.status]));
    expect(byId.get(accepted.id)).toBe('accepted');
    expect(byId.get(proposed.id)).toBe('superseded');
    expectSameAndExact(a, b);
  });

  it('when a match is rejected on one device, then the other rejects it and the line is unmatched again there', () => {
    const { a, b, checking, groceries } = twoDevices();
    createEntry(a, {
      entry_date: '2026-03-02',
      memo: 'Corner shop',
      auto_post: true,
      lines: [
        { account_id: groceries, direction: 'DEBIT', amount: '12.40' },
        { account_id: checking, direction: 'CREDIT', amount: '12.40' },
      ],
    });
    createStatement(a, { account_id: checking, transactions: FILE.slice(0, 1) });
    runReconciliation(a, { account_id: checking }, { autoAccept: 100, review: 1 });
    exchange(a, b);
    rejectMatch(b, matches(b)[0]!.id, 'not this one');
    exchange(b, a);
    expect(matches(a)[0]!.status).toBe('rejected');
    expect(a.allSql('SELECT SUM(transactions) AS n FROM unmatched_transaction_day_counts')).toEqual([{ n: 1n }]);
    expectSameAndExact(a, b);
  });

  it('when an entry is voided on one device while matched on another, then the void wins and the match is rejected, its bank line unmatched again', () => {
    const { a, b, checking, groceries } = twoDevices();
    const entry = createEntry(a, {
      entry_date: '2026-03-02',
      memo: 'Corner shop',
      auto_post: true,
      lines: [
        { account_id: groceries, direction: 'DEBIT', amount: '12.40' },
        { account_id: checking, direction: 'CREDIT', amount: '12.40' },
      ],
    });
    createStatement(a, { account_id: checking, transactions: FILE.slice(0, 1) });
    exchange(a, b);
    runReconciliation(b, { account_id: checking }, { autoAccept: 1, review: 1 });
    expect(matches(b)).toEqual([expect.objectContaining({ entry_id: entry.id, status: 'auto_accepted' })]);
    voidEntry(a, entry.id, 'duplicate', noGuard, '2026-03-31');
    exchange(b, a);
    exchange(a, b);
    syncBoth(a, b);

    for (const db of [a, b]) {
      expect(db.allSql('SELECT status FROM journal_entries WHERE id = ?', entry.id)).toEqual([{ status: 'void' }]);
      expect(matches(db)).toEqual([expect.objectContaining({ status: 'rejected' })]);
      expect(db.allSql('SELECT SUM(transactions) AS n FROM unmatched_transaction_day_counts')).toEqual([{ n: 1n }]);
    }
    expectSameAndExact(a, b);
  });

  it('when a merge supersedes a match, then the history lists the change as this device’s, and Undo passes it by', () => {
    const { a, b, checking, groceries, dining } = twoDevices();
    createStatement(a, { account_id: checking, transactions: FILE.slice(0, 1) });
    exchange(a, b);
    const [line] = lines(a);
    const first = createEntryForBankTransaction(a, line!.id, { account_id: groceries }, DEFAULT_THRESHOLDS, models);
    after(b, a);
    createEntryForBankTransaction(b, line!.id, { account_id: dining }, DEFAULT_THRESHOLDS, models);
    exchange(b, a);

    const newest = historyPage(a, { limit: 5 }).items;
    expect(newest).toContainEqual(
      expect.objectContaining({ kind: 'reconciliation_matches', row: first.match.id, this_device: true }),
    );
    // the merge's change is logged with this device's clock, outside any write of a person's
    const merged = a.allSql<{ timestamp: string }>(
      "SELECT timestamp FROM change_log WHERE dataset = 'reconciliation_matches' AND row_id = ? AND node = ? AND write_ts IS NULL",
      first.match.id,
      newest.find((i) => i.row === first.match.id)!.device,
    );
    expect(merged).toHaveLength(1);
    const undone = undoLast(a, noGuard, '2026-03-31').undone;
    expect(undone.length).toBeGreaterThan(0);
    expect(undone.map((u) => u.timestamp)).not.toContain(merged[0]!.timestamp);
  });
});

describe('cleared lines and reconciliations under merge', () => {
  function postedSpend(db: LedgerDb, checking: string, groceries: string, amount: string) {
    return createEntry(db, {
      entry_date: '2026-03-02',
      memo: 'Corner shop',
      auto_post: true,
      lines: [
        { account_id: groceries, direction: 'DEBIT', amount },
        { account_id: checking, direction: 'CREDIT', amount },
      ],
    });
  }

  it('when a line is ticked cleared on one device, then it is cleared on the other and its cleared totals follow', () => {
    const { a, b, checking, groceries } = twoDevices();
    const entry = postedSpend(a, checking, groceries, '12.40');
    exchange(a, b);
    const line = entry.lines.find((l) => l.account_id === checking)!;
    setCleared(a, checking, { line_ids: [line.id], cleared: true });
    exchange(a, b);
    expect(b.allSql('SELECT cleared FROM journal_lines WHERE id = ?', line.id)).toEqual([{ cleared: 'cleared' }]);
    expect(reconcileStatus(b, checking, { statement_date: '2026-03-31', statement_balance: '0' }).cleared_balance).toBe(
      '-12.40',
    );
    expectSameAndExact(a, b);
  });

  it('when two devices finish a reconciliation of one account, then both keep both, in the order they were finished: the later is the last', () => {
    const { a, b, checking, groceries } = twoDevices();
    const entry = postedSpend(a, checking, groceries, '12.40');
    const line = entry.lines.find((l) => l.account_id === checking)!;
    setCleared(a, checking, { line_ids: [line.id], cleared: true });
    exchange(a, b);
    const earlier = reconcileAccount(a, checking, { statement_date: '2026-03-31', statement_balance: '-12.40' });
    after(b, a);
    const later = reconcileAccount(b, checking, { statement_date: '2026-03-30', statement_balance: '-12.40' });
    // each device learns of the other's in a different order
    exchange(a, b);
    exchange(b, a);

    for (const db of [a, b]) {
      const page = listReconciliationPage(db, checking, { page: 1, per_page: 10 });
      expect(page.items.map((r) => r.id)).toEqual([later.id, earlier.id]);
      expect(db.allSql('SELECT cleared FROM journal_lines WHERE id = ?', line.id)).toEqual([{ cleared: 'reconciled' }]);
    }
    expect(historyPage(a, { limit: 10 }).items).toContainEqual(
      expect.objectContaining({
        kind: 'bank_reconciliations',
        row: later.id,
        this_device: false,
        action: 'created',
        label: '2026-03-30',
      }),
    );
    expectSameAndExact(a, b);
  });
});
