import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseDigest, watchDigest } from './support/server.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-digest-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function database(name: string, rows: string[]): string {
  const file = path.join(dir, name);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (v TEXT)');
  for (const v of rows) db.prepare('INSERT INTO t (v) VALUES (?)').run(v);
  db.close();
  return file;
}

describe('watchDigest (the hostile-input test’s oracle)', () => {
  it('when another connection commits, or a copy is renamed over the file, then the digest is the new rows’ own; when nothing is written, then it stays', () => {
    const file = database('watched.sqlite', ['a']);
    const watched = watchDigest(file);
    try {
      const first = watched.digest();
      expect(first).toBe(databaseDigest(file));
      expect(watched.digest()).toBe(first);

      const writer = new Database(file);
      writer.prepare('INSERT INTO t (v) VALUES (?)').run('b');
      const second = watched.digest();
      expect(second).not.toBe(first);
      expect(second).toBe(databaseDigest(file));
      // A write that leaves the same rows commits too: the digest is recomputed and equal.
      writer.prepare('UPDATE t SET v = v').run();
      expect(watched.digest()).toBe(second);
      writer.close();

      // As a restore swaps a copy in (Stores.swapInLedger): the write-ahead files go, the copy is renamed over.
      const copy = database('copy.sqlite', ['c']);
      for (const suffix of ['-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
      fs.renameSync(copy, file);
      const third = watched.digest();
      expect(third).not.toBe(second);
      expect(third).toBe(databaseDigest(file));
    } finally {
      watched.close();
    }
  });
});
