import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MemoryReplica,
  createKeyedGroup,
  relayAccount,
  startTestRelay,
  type TestRelay,
} from '../../test/support/relay.ts';
import type { SyncMessage } from '../sync/messages.ts';
import type { RelayClient } from '../sync/relay-client.ts';

/**
 * Three replicas work offline (each write a last-writer-wins change to a small set of rows, so that
 * they collide, sometimes the very same change on two replicas), and sync through a real relay on
 * loopback in random orders and partitions (a random subset at once, the rest offline). Then every
 * replica syncs twice in turn: all hold the same rows, the same change log and the same trie, and
 * the rows are what last-writer-wins over every change written says (an oracle that reads only the
 * messages). The relay's files hold none of the plaintext written.
 */

const KEYS = ['accounts/a1', 'accounts/a2', 'journal_entries/e1', 'journal_entries/e2', 'payees/p1'] as const;

type Op =
  | { kind: 'write'; replica: number; key: number; value: number; deleted: boolean }
  | { kind: 'same'; replicas: [number, number]; key: number; value: number }
  | { kind: 'sync'; replicas: number[] };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('write' as const),
      replica: fc.integer({ min: 0, max: 2 }),
      key: fc.integer({ min: 0, max: KEYS.length - 1 }),
      value: fc.integer({ min: 0, max: 999 }),
      deleted: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('same' as const),
      replicas: fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 })),
      key: fc.integer({ min: 0, max: KEYS.length - 1 }),
      value: fc.integer({ min: 0, max: 999 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('sync' as const),
      replicas: fc.subarray([0, 1, 2], { minLength: 1 }),
    }),
  },
);

/** A value whose plaintext must never reach the relay's files. */
function rowValue(key: string, value: number): string {
  return JSON.stringify({
    memo: `Groceries at the Corner Shop ${key}`,
    payee: 'Zephyr Plumbing Ltd',
    amount: `${value}.75`,
  });
}

/** Last writer wins over every message written, from the messages alone. */
function oracle(messages: SyncMessage[]): string {
  const latest = new Map<string, SyncMessage>();
  for (const message of messages) {
    const key = `${message.dataset}\u0000${message.row}`;
    const current = latest.get(key);
    if (!current || current.timestamp < message.timestamp) latest.set(key, message);
  }
  return JSON.stringify(
    [...latest.entries()]
      .filter(([, m]) => m.column !== 'deleted')
      .map(([key, m]) => [key, m.value])
      .sort(([a], [b]) => (a! < b! ? -1 : 1)),
  );
}

describe('convergence through the relay', () => {
  let relay: TestRelay;
  let member: RelayClient;
  beforeAll(async () => {
    relay = await startTestRelay({ limits: { groupsPerUser: 1000 } });
    member = await relayAccount(relay.url);
  });
  afterAll(async () => {
    await relay.stop();
  });

  it('when three replicas write offline and sync in random orders and partitions, then after all sync they hold identical books', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 40 }), async (ops) => {
        runs += 1;
        const group = await createKeyedGroup(member);
        const transport = member.transport();
        const replicas = [new MemoryReplica(), new MemoryReplica(), new MemoryReplica()];
        const written: SyncMessage[] = [];
        const write = (replica: number, key: number, value: number, deleted = false) => {
          const [dataset, row] = KEYS[key]!.split('/') as [string, string];
          written.push(
            replicas[replica]!.write(
              dataset,
              row,
              deleted ? '' : rowValue(KEYS[key]!, value),
              deleted ? 'deleted' : 'row',
            ),
          );
        };
        for (const step of ops) {
          if (step.kind === 'write') write(step.replica, step.key, step.value, step.deleted);
          else if (step.kind === 'same') {
            write(step.replicas[0], step.key, step.value);
            write(step.replicas[1], step.key, step.value);
          } else await Promise.all(step.replicas.map((i) => replicas[i]!.sync(transport, group)));
        }
        for (let pass = 0; pass < 2; pass++) for (const replica of replicas) await replica.sync(transport, group);

        const expected = oracle(written);
        for (const replica of replicas) {
          expect(replica.state()).toBe(expected);
          expect([...replica.log.keys()].sort()).toEqual(written.map((m) => m.timestamp).sort());
          expect(replica.clock.merkle.hash).toBe(replicas[0]!.clock.merkle.hash);
        }
      }),
      { numRuns: 40 },
    );
    expect(runs).toBe(40);

    // Nothing written in plain text reaches the relay's files: not a memo, a payee or an amount.
    const files = fs.readdirSync(relay.dataDir).map((name) => path.join(relay.dataDir, name));
    expect(files.some((file) => file.endsWith('relay.sqlite'))).toBe(true);
    for (const file of files) {
      const bytes = fs.readFileSync(file);
      for (const plain of ['Groceries at the Corner Shop', 'Zephyr Plumbing', '.75"', 'journal_entries', 'memo'])
        expect(bytes.includes(Buffer.from(plain)), `${plain} in ${path.basename(file)}`).toBe(false);
    }
  });
});
