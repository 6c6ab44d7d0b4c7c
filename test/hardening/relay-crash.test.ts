import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { RELAY_FILE } from '../../server/relay/relay-db.ts';
import { decodeSyncRequest } from '../../server/sync/messages.ts';
import { RelayClient } from '../../server/sync/relay-client.ts';
import type { SyncGroup, SyncTransport } from '../../server/sync/sync-client.ts';
import { MemoryReplica, RELAY_PASSWORD, createKeyedGroup, spawnRelay, type ChildRelay } from '../support/relay.ts';
import { prng, tempDir } from './support.ts';

/**
 * The relay killed with SIGKILL in the middle of sync requests, again and again, while three
 * replicas sync with it at once. A sync that was answered is acknowledged: each envelope it sent
 * must survive every later kill. After a last restart every replica syncs twice and all hold the
 * same books, with every message any of them wrote.
 */

const KILLS = 5;

describe('the relay killed mid-request', () => {
  const running: ChildRelay[] = [];
  afterAll(() => {
    for (const relay of running) relay.child.kill('SIGKILL');
  });

  it('when the relay is killed during syncs and restarted, then everything converges and nothing acknowledged is lost', async () => {
    const random = prng(Number(process.env.HARDENING_SEED ?? 37));
    const dataDir = tempDir('relay-crash');
    let relay = await spawnRelay(dataDir);
    running.push(relay);
    const owner = new RelayClient(relay.url);
    await owner.register('household', RELAY_PASSWORD);
    const group: SyncGroup = await createKeyedGroup(owner);
    const replicas = [new MemoryReplica(), new MemoryReplica(), new MemoryReplica()];
    const acknowledged = new Set<string>();

    /** The relay's transport at its current URL; every answered request's envelopes count as acknowledged. */
    const transport = (): SyncTransport => {
      const inner = new RelayClient(relay.url, { token: owner.token }).transport();
      return async (bytes) => {
        const answer = await inner(bytes);
        for (const envelope of decodeSyncRequest(bytes).messages) acknowledged.add(envelope.timestamp);
        return answer;
      };
    };

    let written = 0;
    let failedSyncs = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      for (const [i, replica] of replicas.entries()) {
        const count = 20 + Math.floor(random() * 300);
        for (let n = 0; n < count; n++) {
          replica.write('journal_entries', `r${i}-e${Math.floor(random() * 400)}`, `{"memo":"entry ${written++}"}`);
        }
      }
      // All three sync at once, each sending a first request before any is answered; the relay dies
      // once the k-th request of the round is on its way.
      const killAt = 1 + Math.floor(random() * replicas.length);
      let requests = 0;
      const dying = relay;
      const inner = transport();
      const killing: SyncTransport = (bytes) => {
        const answer = inner(bytes);
        requests += 1;
        if (requests === killAt) dying.child.kill('SIGKILL');
        return answer;
      };
      const results = await Promise.allSettled(replicas.map((replica) => replica.sync(killing, group)));
      failedSyncs += results.filter((r) => r.status === 'rejected').length;
      for (const result of results) {
        if (result.status === 'rejected')
          expect((result.reason as { code?: string }).code).toBe('SYNC_RELAY_UNREACHABLE');
      }
      expect(requests).toBeGreaterThanOrEqual(killAt);
      await dying.exited;
      relay = await spawnRelay(dataDir);
      running.push(relay);
      // every envelope of every answered request is still there
      const db = new Database(path.join(dataDir, RELAY_FILE), { readonly: true });
      const stored = new Set(
        (db.prepare('SELECT timestamp FROM messages').all() as { timestamp: string }[]).map((row) => row.timestamp),
      );
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
      expect([...acknowledged].filter((timestamp) => !stored.has(timestamp))).toEqual([]);
    }
    expect(failedSyncs).toBeGreaterThan(0);

    for (let pass = 0; pass < 2; pass++) for (const replica of replicas) await replica.sync(transport(), group);
    const everything = new Set(replicas.flatMap((replica) => [...replica.log.keys()]));
    expect(everything.size).toBe(written);
    for (const replica of replicas) {
      expect(replica.log.size).toBe(written);
      expect(replica.state()).toBe(replicas[0]!.state());
    }
    relay.child.kill('SIGTERM');
    expect((await relay.exited).code).toBe(0);
  });
});
