/**
 * The sync relay for tests: the real relay on loopback over a temporary folder, devices that talk
 * to it through the app's relay client, and in-memory replicas (last-writer-wins key-value stores
 * on a ledger clock) that sync through it with the real sync client.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRelay, type RunningRelay, type StartRelayOptions } from '../../server/relay/index.ts';
import { LedgerClock, parseTimestamp } from '../../server/sync/clock.ts';
import { makeKeyTest, newKeyId, newSalt, randomKey } from '../../server/sync/crypto.ts';
import type { SyncMessage } from '../../server/sync/messages.ts';
import { RelayClient } from '../../server/sync/relay-client.ts';
import {
  syncOnce,
  type SyncGroup,
  type SyncResult,
  type SyncStore,
  type SyncTransport,
} from '../../server/sync/sync-client.ts';
import { ROOT, scriptArguments } from '../../main/app-build.mjs';
import { Api } from './server.ts';

export const RELAY_PASSWORD = 'correct horse battery';

export interface TestRelay {
  relay: RunningRelay;
  dataDir: string;
  url: string;
  /** Checks every answer against the relay's own OpenAPI document. */
  api: Api;
  stop(): Promise<void>;
}

export async function startTestRelay(options: Partial<StartRelayOptions> = {}): Promise<TestRelay> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-relay-'));
  const relay = await startRelay({
    dataDir,
    port: 0,
    bcryptCost: 4,
    log: () => {},
    limits: { registerPerHour: 10_000, ...options.limits },
    ...options,
  });
  return {
    relay,
    dataDir,
    url: relay.url,
    api: new Api(relay.url, '/relay/openapi.json'),
    async stop() {
      await relay.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let accounts = 0;

/** A new account on the relay, signed in. */
export async function relayAccount(url: string, name = 'member'): Promise<RelayClient> {
  accounts += 1;
  const client = new RelayClient(url);
  await client.register(`${name}${accounts}-${process.pid}`, RELAY_PASSWORD);
  return client;
}

/** A group with a random key, made by `owner`: what every device of the group needs to sync. */
export async function createKeyedGroup(owner: RelayClient): Promise<SyncGroup> {
  const group = { keyId: newKeyId(), key: randomKey() };
  const keyTest = makeKeyTest(group);
  const made = await owner.createGroup({ salt: newSalt(), keyId: group.keyId, keyTest });
  return { ...group, groupId: made.id, keyTest: made.keyTest };
}

/**
 * A replica: a last-writer-wins key-value store on its own ledger clock. Its change log holds
 * every message it wrote or received, each timestamp once; a row's value is its latest message's.
 */
export class MemoryReplica implements SyncStore {
  readonly clock: LedgerClock;
  readonly log = new Map<string, SyncMessage>();
  private readonly rows = new Map<string, { timestamp: string; column: string; value: string }>();
  since: string | null = null;
  applied = 0;

  constructor(node?: string) {
    this.clock = LedgerClock.create(node);
  }

  /** A local change: a new timestamp, logged and tracked, and applied. */
  write(dataset: string, row: string, value: string, column = 'row'): SyncMessage {
    const timestamp = this.clock.send();
    const message = { timestamp: timestamp.toString(), dataset, row, column, value };
    this.log.set(message.timestamp, message);
    this.clock.track(timestamp);
    this.take(message);
    return message;
  }

  private take(message: SyncMessage): void {
    const key = `${message.dataset}\u0000${message.row}`;
    const current = this.rows.get(key);
    if (!current || current.timestamp < message.timestamp) this.rows.set(key, message);
  }

  pending(since: string, limit: number): SyncMessage[] {
    return [...this.log.values()]
      .filter((m) => m.timestamp > since)
      .sort((a, b) => (a.timestamp < b.timestamp ? -1 : 1))
      .slice(0, limit);
  }

  apply(messages: SyncMessage[]): void {
    for (const message of messages) {
      if (this.log.has(message.timestamp)) continue;
      this.log.set(message.timestamp, message);
      this.clock.track(parseTimestamp(message.timestamp)!);
      this.take(message);
      this.applied += 1;
    }
  }

  /** Every row's latest value, in key order: equal texts are equal books. */
  state(): string {
    return JSON.stringify(
      [...this.rows.entries()]
        .filter(([, row]) => row.column !== 'deleted')
        .map(([key, row]) => [key, row.value])
        .sort(([a], [b]) => (a! < b! ? -1 : 1)),
    );
  }

  async sync(transport: SyncTransport, group: SyncGroup): Promise<SyncResult> {
    const result = await syncOnce({ store: this, transport, group, since: this.since });
    this.since = result.since;
    return result;
  }
}

export interface ChildRelay {
  child: ChildProcess;
  url: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

/**
 * The relay in a process of its own, started exactly as `npm run relay` starts it (the build of the
 * current sources), over `dataDir` on a free port (or `args`' port), with `env` added to its
 * environment; resolves on its ready line.
 */
export function spawnRelay(
  dataDir: string,
  args: string[] = ['--port', '0'],
  env: Record<string, string> = {},
): Promise<ChildRelay> {
  const child = spawn(process.execPath, [...scriptArguments('relay'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), RELAY_DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise<ChildRelay>((resolve, reject) => {
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      const ready = /^Sync relay listening on (http:\/\/\S+)\n/.exec(out);
      if (ready) resolve({ child, url: ready[1]!, exited, stderr: () => err });
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`the relay exited (${code ?? signal}) before its ready line; stderr: ${err}`)),
    );
  });
}
