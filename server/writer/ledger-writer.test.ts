import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeStaged, Stores, type LedgerDb } from '../db/stores.ts';
import { createAccount } from '../features/accounts/accounts.service.ts';
import { WRITE_TABLE_MODULE, type AppWrites } from '../write-table.ts';
import { LedgerWriter } from './ledger-writer.ts';

/**
 * The ledger writer with the app's own writes, on a real ledger file: its thread runs them on a
 * connection of its own while this thread's connection reads, and the two never meet on a lock.
 */

const USER = '00000000-0000-4000-8000-0000000000a1';
let dir: string;
let stores: Stores;
let writer: LedgerWriter<AppWrites>;
let db: LedgerDb;
let file: string;
let food: string;
let bank: string;

const entry = (amount: string, memo: string) => ({
  entry_date: '2026-03-01',
  memo,
  auto_post: true,
  lines: [
    { account_id: food, direction: 'DEBIT' as const, amount },
    { account_id: bank, direction: 'CREDIT' as const, amount },
  ],
});

/** The memos of the entries in `ledger`, read by a connection of the test's own. */
function memos(ledger = file): string[] {
  const reader = new Database(ledger, { readonly: true });
  try {
    return (reader.prepare('SELECT memo FROM journal_entries ORDER BY memo').all() as { memo: string }[]).map(
      (r) => r.memo,
    );
  } finally {
    reader.close();
  }
}

/** A promise's state once the event loop has turned: 'pending' until it settles. */
async function state(promise: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> {
  let seen: 'pending' | 'resolved' | 'rejected' = 'pending';
  promise.then(
    () => (seen = 'resolved'),
    () => (seen = 'rejected'),
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  return seen;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-writer-'));
  stores = new Stores(dir);
  writer = new LedgerWriter<AppWrites>({ tableModule: WRITE_TABLE_MODULE });
  db = stores.ledger(USER);
  file = stores.ledgerFile(USER);
  food = createAccount(db, { name: 'Food', type: 'EXPENSE' }).id;
  bank = createAccount(db, { name: 'Bank', type: 'ASSET' }).id;
});

afterEach(async () => {
  await writer.close();
  stores.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the ledger writer', () => {
  it('when writes are sent together, then each is answered with its result once committed, readable by another connection, and a bad one fails alone with its code and fields', async () => {
    const answers = await Promise.allSettled([
      writer.run(db, 'createEntry', entry('1.00', 'a')),
      writer.run(db, 'createEntries', [
        entry('2.00', 'b'),
        { ...entry('3.00', 'c'), lines: entry('3.00', 'c').lines.slice(1) },
      ]),
      writer.run(db, 'createEntry', entry('4.00', 'd')),
    ]);
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((answers[0] as PromiseFulfilledResult<{ memo: string }>).value.memo).toBe('a');
    expect((answers[1] as PromiseRejectedResult).reason).toMatchObject({
      name: 'DomainError',
      code: 'TOO_FEW_LINES',
      errors: [{ field: 'entries.1.lines' }],
    });
    expect(memos()).toEqual(['a', 'd']);
    // this thread's connection reads what the writer committed
    expect(db.allSql<{ n: bigint }>('SELECT COUNT(*) AS n FROM journal_entries')[0]!.n).toBe(2n);
  });

  it('when a request writes alone, then the grouped writes sent before it are answered first and those sent meanwhile wait until it ends', async () => {
    const before = writer.run(db, 'createEntry', entry('1.00', 'before'));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let during!: Promise<unknown>;
    let sent!: () => void;
    const duringSent = new Promise<void>((resolve) => (sent = resolve));
    const alone = writer.alone(file, async () => {
      await expect(before).resolves.toMatchObject({ memo: 'before' });
      createAccount(db, { name: 'Cash', type: 'ASSET' });
      during = writer.run(db, 'createEntry', entry('2.00', 'during'));
      sent();
      await held;
    });
    await duringSent;
    expect(await state(during)).toBe('pending');
    expect(memos()).toEqual(['before']);
    release();
    await alone;
    await during;
    expect(memos()).toEqual(['before', 'during']);
  });

  it('when a job writes the ledger (its connection marked busy), then a write is refused LEDGER_BUSY and nothing is sent', async () => {
    db.busyWith = 'importJournal';
    try {
      await expect(writer.run(db, 'createEntry', entry('1.00', 'refused'))).rejects.toMatchObject({
        code: 'LEDGER_BUSY',
      });
    } finally {
      db.busyWith = null;
    }
    await writer.idle(file);
    expect(memos()).toEqual([]);
  });

  it('when a restore replaces the ledger file, then after `release` the next write goes to the new file, not the replaced one', async () => {
    await writer.run(db, 'createEntry', entry('1.00', 'old file'));
    // the restored ledger: a copy of the file as it is now, with one more entry written there
    const staged = stores.stagedFileFor(USER);
    db.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    fs.copyFileSync(file, staged);
    const copy = new Database(staged);
    copy.prepare("UPDATE journal_entries SET memo = 'restored'").run();
    copy.close();
    try {
      await writer.release(file);
      stores.swapInLedger(USER, staged);
    } finally {
      removeStaged(staged);
    }
    const restored = stores.ledger(USER);
    await writer.run(restored, 'createEntry', entry('2.00', 'after restore'));
    expect(memos()).toEqual(['after restore', 'restored']);
  });

  it('when the writer is closed, then its open group is committed first and later writes are refused SERVICE_UNAVAILABLE', async () => {
    const last = writer.run(db, 'createEntry', entry('1.00', 'last'));
    await writer.close();
    await expect(last).resolves.toMatchObject({ memo: 'last' });
    expect(memos()).toEqual(['last']);
    await expect(writer.run(db, 'createEntry', entry('2.00', 'late'))).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
  });
});
