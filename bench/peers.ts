/**
 * ledger, hledger and bean-query on the same books, exported by the app (GET /api/export) right
 * after the load and timed at the end with the server stopped: each tool's balances today and as
 * of a past date, beside the API's rows of the same reads (bench/reads.ts) when the run has them,
 * else in rows of their own.
 *
 *   node bench/peers.ts [--size 10k|100k|1m] [--data DIR] (the harness's options, bench/README.md)
 */
import fs from 'node:fs';
import path from 'node:path';
import { runAlone, settleDisk, type Area, type Bench } from './lib/harness.ts';
import { balanceCommands, installed, timePeer } from './lib/peers.ts';
import type { Operation, PeerFigure } from './lib/results.ts';

type PeerFiles = Parameters<typeof balanceCommands>[0];

/** The books in each tool's format, from the app's export; stops the server. */
async function exportForPeers(bench: Bench): Promise<PeerFiles> {
  const { client, dataDir } = bench;
  const files = { ledger: '', hledger: '', beancount: '' };
  for (const [format, ext] of [
    ['ledger', 'ledger'],
    ['hledger', 'journal'],
    ['beancount', 'beancount'],
  ] as const) {
    const reply = await client.request('GET', `/api/export?format=${format}`);
    if (reply.status !== 200) throw new Error(`export ${format}: ${reply.status} ${reply.text.slice(0, 200)}`);
    files[format] = path.join(dataDir, `export.${ext}`);
    fs.writeFileSync(files[format], reply.text);
  }
  bench.info.peerSource = 'GET /api/export';
  await bench.stopServer();
  // The load and the exports left a ledger's worth of pages waiting to be written back: done now,
  // not during the measurements (a commit's sync would wait for them).
  settleDisk();
  return files;
}

/** The row a peer's figures go beside: the API's own, or one of their own when the run has none. */
function rowOf(bench: Bench, id: string, label: string): Operation {
  return (
    bench.results.find(id) ?? bench.results.record({ id: `${id}_peers`, label: `${label} (peers only)`, unit: 'ms' })
  );
}

export const peers: Area = {
  name: 'peers',
  server: 'stopped',
  // exported while the server is as the load left it, before any area measures
  prepare: async (bench) => {
    await bench.once('peer files', () => exportForPeers(bench));
  },
  run: async (bench) => {
    const files = await bench.once('peer files', () => exportForPeers(bench));
    const { counts, manifest, log } = bench;
    for (const [id, label, asOf] of [
      ['balances_today', 'all balances, today', undefined],
      ['balances_past', 'all balances, as of a past date', manifest.pastDate],
    ] as const) {
      const op = rowOf(bench, id, label);
      log(`  peers: ${op.label}`);
      op.peers = balanceCommands(files, asOf)
        .filter((c) => installed(c.tool))
        .map((c): PeerFigure => {
          const figure = timePeer(c, counts.peerRuns);
          if (figure.error) log(`    ${c.tool} failed: ${figure.error}`);
          return figure;
        });
      for (const p of op.peers) log(`    ${p.tool}: ${p.p50.toFixed(0)} ms (max RSS ${p.maxRssMb?.toFixed(0)} MB)`);
    }
  },
};

runAlone(import.meta, [peers]);
