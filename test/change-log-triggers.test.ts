import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { changeLogTriggers } from '../scripts/change-log-triggers.ts';
import { DATASETS } from '../server/db/change-log.ts';
import { Stores } from '../server/db/stores.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'change-log-triggers-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A statement's words, whatever its spacing. */
function words(sql: string): string {
  return sql.replace(/\s+/g, ' ').replace(/;$/, '').trim();
}

describe("the change log's triggers", () => {
  it('when a ledger is migrated, then each table a dataset covers, and each child table, has exactly the triggers scripts/change-log-triggers.ts writes', () => {
    const stores = new Stores(dir);
    const db = stores.ledger('00000000-0000-4000-8000-000000000001');
    const installed = new Map(
      db
        .allSql<{ name: string; sql: string }>(
          "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%\\_changed\\_%' ESCAPE '\\'",
        )
        .map((t) => [t.name, words(t.sql)]),
    );
    const written = new Map(
      DATASETS.flatMap((d) => [...changeLogTriggers(d)].map(([name, sql]) => [name, words(sql)] as const)),
    );
    expect(installed.size).toBe(written.size);
    expect(Object.fromEntries(installed)).toEqual(Object.fromEntries(written));
    stores.close();
  });
});
