/**
 * The sync (docs/sync.md): the books' first sync to a new device through a relay on loopback, beside
 * copying the ledger file (the simple baseline, same run), and an incremental sync of 100 changes.
 *
 *   node bench/sync.ts [--size 10k|100k|1m] [--data DIR] (the harness's options, bench/README.md)
 *
 * Runs on a copy of the run's data folder, so that the run's books join no group: the owner's
 * server over the copy, `npm run relay` over a folder of its own, and a new device's server over an
 * empty one. Each device reaches the relay through a counting proxy of its own (the bytes each way
 * on the wire). The owner sends its books when it makes the group; the new device receives them
 * when it joins (the join's first sync). The background sync (every 5 s) is kept out of the figures:
 * the device that receives the 100 changes is down while they are made and sent, and is asked to
 * sync as soon as it is up again.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Client } from './lib/client.ts';
import { runAlone, settleDisk, type Area } from './lib/harness.ts';
import { startChild, startLedgerServer, type Child } from './lib/processes.ts';
import { signUp } from './lib/setup.ts';
import { since } from './lib/stats.ts';

const RELAY_PASSWORD = 'correct horse battery';
const PASSPHRASE = 'the household books of the bench';
const CHANGES = 100;

/** A TCP proxy in front of the relay that counts the bytes each way. */
interface CountingProxy {
  url: string;
  /** bytes from the device to the relay, and back */
  up: number;
  down: number;
  close(): Promise<void>;
}

async function countingProxy(target: URL): Promise<CountingProxy> {
  const sockets = new Set<net.Socket>();
  const counts = { up: 0, down: 0 };
  const server = net.createServer((device) => {
    const relay = net.connect(Number(target.port), target.hostname);
    sockets.add(device).add(relay);
    device.on('data', (chunk: Buffer) => (counts.up += chunk.length));
    relay.on('data', (chunk: Buffer) => (counts.down += chunk.length));
    device.pipe(relay).pipe(device);
    const end = () => {
      device.destroy();
      relay.destroy();
      sockets.delete(device);
      sockets.delete(relay);
    };
    device.on('error', end).on('close', end);
    relay.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get up() {
      return counts.up;
    },
    get down() {
      return counts.down;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The same invite with another relay URL: the new device reaches the relay through its own proxy. */
function inviteThrough(code: string, url: string): string {
  const prefix = code.slice(0, code.indexOf('.') + 1);
  const invite = JSON.parse(Buffer.from(code.slice(prefix.length), 'base64url').toString('utf8')) as { r: string };
  return prefix + Buffer.from(JSON.stringify({ ...invite, r: url })).toString('base64url');
}

function entries(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM journal_entries').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = process.hrtime.bigint();
  const result = await work();
  return { result, ms: since(start) };
}

export const sync: Area = {
  name: 'sync',
  // the run's server is stopped and its folder written back: the copy below is of its files
  server: 'stopped',
  run: async (bench) => {
    const { log } = bench;
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-bench-sync-'));
    const started: Child[] = [];
    const proxies: CountingProxy[] = [];
    const clients: Client[] = [];
    try {
      const ownerDir = path.join(work, 'owner');
      fs.cpSync(bench.dataDir, ownerDir, { recursive: true });
      const ledger = path.join(ownerDir, 'ledgers', path.basename(bench.ledgerFile));
      const checkpoint = new Database(ledger);
      checkpoint.pragma('wal_checkpoint(TRUNCATE)');
      checkpoint.close();
      const fileBytes = fs.statSync(ledger).size;
      settleDisk();
      const copy = await timed(async () => fs.copyFileSync(ledger, path.join(work, 'ledger-copy.sqlite')));

      // `npm run relay` is the same build as the server, started with `relay`; on 127.0.0.2 (still
      // loopback) it answers the Host the proxies pass on, which names the proxy
      const relay = await startChild(
        bench.served.entry,
        ['relay', '--host', '127.0.0.2', '--port', '0'],
        { RELAY_DATA_DIR: path.join(work, 'relay') },
        /Sync relay listening on (http:\/\/\S+)\n/,
        120_000,
        bench.served.nodeFlags,
      );
      started.push(relay);
      const [ownerProxy, deviceProxy] = [
        await countingProxy(new URL(relay.url)),
        await countingProxy(new URL(relay.url)),
      ];
      proxies.push(ownerProxy, deviceProxy);

      const owner = await startLedgerServer(bench.served, ownerDir);
      started.push(owner);
      const ownerApi = new Client(owner.url, bench.token);
      clients.push(ownerApi);
      const books = entries(ledger);
      log(`Sync: the owner's books hold ${books} entries (${mib(fileBytes)} ledger file)`);

      await bench.attempt(
        'sync_make_group',
        `make a group: the owner's ${books} entries sent to the relay`,
        's',
        async () => {
          const made = await timed(() =>
            ownerApi.json('POST', '/api/sync/group', {
              relay_url: ownerProxy.url,
              relay_username: 'owner',
              relay_password: RELAY_PASSWORD,
              register: true,
              passphrase: PASSPHRASE,
            }),
          );
          const status = made.result.status as { last_error: string | null; changes_waiting: number };
          if (status.last_error !== null || status.changes_waiting !== 0)
            throw new Error(`the owner's first sync did not finish: ${JSON.stringify(status)}`);
          return {
            value: made.ms / 1000,
            note: `${mib(ownerProxy.up)} sent, ${mib(ownerProxy.down)} received (key derivation and relay sign-up included)`,
          };
        },
      );

      const invite = await ownerApi.json('POST', '/api/sync/invites', {});
      const deviceDir = path.join(work, 'device');
      fs.mkdirSync(deviceDir);
      let device = await startLedgerServer(bench.served, deviceDir);
      started.push(device);
      const member = await signUp(device.url);
      let deviceApi = new Client(device.url, member.token);
      clients.push(deviceApi);
      const deviceLedger = path.join(deviceDir, 'ledgers', `${member.userId}.sqlite`);

      await bench.attempt(
        'sync_first',
        `first sync of ${books} entries to a new device (join), beside copying the ledger file`,
        's',
        async () => {
          const joined = await timed(() =>
            deviceApi.json('POST', '/api/sync/join', {
              invite_code: inviteThrough(invite.invite_code, deviceProxy.url),
              relay_username: 'member',
              relay_password: RELAY_PASSWORD,
              register: true,
              passphrase: PASSPHRASE,
            }),
          );
          if (joined.result.last_error !== null) throw new Error(`the join's sync failed: ${joined.result.last_error}`);
          const received = entries(deviceLedger);
          if (received !== books) throw new Error(`the new device holds ${received} entries, not ${books}`);
          return {
            value: joined.ms / 1000,
            raw: { label: 'copying the ledger file', value: copy.ms / 1000 },
            ratio: copy.ms / joined.ms,
            note: `${mib(deviceProxy.down)} received, ${mib(deviceProxy.up)} sent; the file: ${mib(fileBytes)} (key derivation and relay sign-up included)`,
          };
        },
      );

      // The new device is down while the owner makes and sends the changes.
      deviceApi.close();
      await device.stop();
      const entry100 = (i: number) => ({
        entry_date: '2026-06-15',
        memo: `Incremental ${i}`,
        auto_post: true,
        lines: [
          { account_id: bench.ids.groceries, direction: 'DEBIT', amount: `${1 + (i % 50)}.25` },
          { account_id: bench.ids.checking, direction: 'CREDIT', amount: `${1 + (i % 50)}.25` },
        ],
      });
      await ownerApi.json('POST', '/api/journal-entries/batch', {
        entries: Array.from({ length: CHANGES }, (_, i) => entry100(i)),
      });
      await bench.attempt('sync_send_changes', `incremental sync of ${CHANGES} changes: sending`, 'ms', async () => {
        const [up, down] = [ownerProxy.up, ownerProxy.down];
        const sent = await timed(() => ownerApi.json('POST', '/api/sync/now'));
        if (sent.result.sent < CHANGES)
          throw new Error(`the background sync sent them first (${sent.result.sent} sent); run again`);
        return {
          value: sent.ms,
          note: `${((ownerProxy.up - up) / 1024).toFixed(1)} KiB sent, ${((ownerProxy.down - down) / 1024).toFixed(1)} KiB received`,
        };
      });
      device = await startLedgerServer(bench.served, deviceDir);
      started.push(device);
      deviceApi = new Client(device.url, member.token);
      clients.push(deviceApi);
      await bench.attempt(
        'sync_receive_changes',
        `incremental sync of ${CHANGES} changes: receiving`,
        'ms',
        async () => {
          const [up, down] = [deviceProxy.up, deviceProxy.down];
          const got = await timed(() => deviceApi.json('POST', '/api/sync/now'));
          if (got.result.received < CHANGES) throw new Error(`received ${got.result.received}, not ${CHANGES}`);
          return {
            value: got.ms,
            note: `${((deviceProxy.down - down) / 1024).toFixed(1)} KiB received, ${((deviceProxy.up - up) / 1024).toFixed(1)} KiB sent`,
          };
        },
      );
    } finally {
      for (const client of clients) client.close();
      for (const child of started.reverse()) await child.stop();
      for (const proxy of proxies) await proxy.close();
      fs.rmSync(work, { recursive: true, force: true });
    }
  },
};

runAlone(import.meta, [sync]);
