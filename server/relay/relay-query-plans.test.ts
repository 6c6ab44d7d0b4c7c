import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openRelaySqlite, type RelaySchema } from './relay-db.ts';
import { RelayService } from './relay.service.ts';
import * as repo from './relay.repository.ts';

/**
 * Every statement the relay runs is served by an index: its use cases run over a file with many
 * groups, accounts and messages, each statement they prepare is caught, and SQLite's plan for it
 * must scan no table (a SCAN is a full pass; a SEARCH uses an index).
 */
describe('the relay query plans', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-relay-plans-'));
  const sqlite = openRelaySqlite(dir);
  const statements = new Set<string>();
  const db = new Kysely<RelaySchema>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => {
      statements.add(event.query.sql);
    },
  });
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('when every use case has run, then no statement it ran scans a table', async () => {
    const relay = new RelayService({ db, bcryptCost: 4 });
    // other accounts' groups and messages, so that a scan would show in the plan
    for (let i = 0; i < 30; i++) {
      const other = await relay.register(`other${i}`, 'correct horse battery');
      const group = await relay.createGroup(other.user.id, { salt: 'c2FsdA==', keyId: `k${i}`, keyTest: 'dGVzdA==' });
      for (let m = 0; m < 20; m++) {
        await repo.insertEnvelope(db, group.id, {
          timestamp: `2026-01-01T00:00:${String(m).padStart(2, '0')}.000Z-0000-${String(i).padStart(16, '0')}`,
          isEncrypted: true,
          content: Buffer.alloc(8),
        });
      }
    }
    sqlite.exec('ANALYZE');
    statements.clear();
    const ada = await relay.register('ada', 'correct horse battery');
    await relay.login('127.0.0.1', 'ada', 'correct horse battery');
    const bob = await relay.register('bob', 'correct horse battery');
    const session = (await relay.session(ada.access_token))!;
    const group = await relay.createGroup(session.userId, { salt: 'c2FsdA==', keyId: 'key', keyTest: 'dGVzdA==' });
    await relay.listGroups(session.userId);
    await relay.getGroup(session.userId, group.id);
    const invite = await relay.createInvite(session.userId, group.id, { expiresInHours: 1, uses: 1 });
    await relay.join(bob.user.id, group.id, invite.invite);
    await relay.sync(session.userId, {
      groupId: group.id,
      keyId: 'key',
      since: '',
      node: 'aaaaaaaaaaaaaaaa',
      messages: [],
    });
    await relay.sync(session.userId, { groupId: group.id, keyId: 'key', since: '', node: '', messages: [] });
    await relay.leave(bob.user.id, group.id);
    await relay.leave(session.userId, group.id);
    await relay.logout(session);

    const scans: string[] = [];
    for (const sql of statements) {
      const plan = sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...sqlParameters(sql)) as { detail: string }[];
      for (const { detail } of plan)
        if (/^SCAN /.test(detail) && !/^SCAN CONSTANT ROW/.test(detail)) scans.push(`${detail}: ${sql}`);
    }
    expect(statements.size).toBeGreaterThan(15);
    expect(scans).toEqual([]);
  });
});

/** Placeholder values for a statement's `?`s: the plan does not depend on them. */
function sqlParameters(sql: string): null[] {
  return Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null);
}
