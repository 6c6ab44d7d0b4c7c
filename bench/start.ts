/**
 * Starting the server: `npm run serve` to its ready line over a new data folder, and a cold start
 * over the loaded books to the first balances, each beside its floor.
 *
 *   node bench/start.ts [--size 10k|100k|1m] [--data DIR] (the harness's options, bench/README.md)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAlone, type Area, type Bench } from './lib/harness.ts';
import { BENCH_SECRET, msToFirstLine, REPO, startChild, startLedgerServer } from './lib/processes.ts';
import { since, summarize } from './lib/stats.ts';

/** `start(dataDir)` `n` times, each over a new empty data folder; the times it returns. */
async function starts(n: number, start: (dataDir: string) => Promise<number>) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-bench-start-'));
    try {
      times.push(await start(dataDir));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return summarize(times);
}

/**
 * `npm run serve` on a built checkout, from spawn to its ready line, over a new data folder: its
 * command (as npm runs it, and as the other measurements start the server), the same through npm,
 * and a bare `node` printing one line, the floor under both.
 */
export const serveStart: Area = {
  name: 'serve-start',
  server: 'stopped',
  run: async (bench) => {
    const { served, counts, options } = bench;
    const env = (dataDir: string) => ({ PORT: '0', LEDGER_DATA_DIR: dataDir, SECRET_KEY: BENCH_SECRET });
    const bareNode = await starts(counts.serveStarts, () =>
      msToFirstLine(process.execPath, ['-e', 'console.log("ready")'], {}),
    );
    const viaNpm = await starts(counts.serveStarts, (dataDir) =>
      msToFirstLine('npm', ['run', '--silent', 'serve'], env(dataDir)),
    );
    await bench.attempt(
      'serve_ready',
      'npm run serve to its ready line (built checkout, new data folder)',
      'ms',
      async () => {
        const command = await starts(counts.serveStarts, async (dataDir) => {
          const child = await startLedgerServer(served, dataDir, options.serverFlags);
          await child.stop();
          return child.readyMs;
        });
        return {
          summary: command,
          raw: { label: 'bare node printing one line', summary: bareNode },
          ratio: bareNode.p50 / command.p50,
          target: { text: 'p50 well under 1000 ms', stat: 'p50', atMost: 500 },
          note: `the script's command (node ${served.nodeFlags.join(' ')} ${path.relative(REPO, served.entry)}); through npm itself (npm run serve) p50 ${viaNpm.p50.toFixed(0)} ms, of which npm's own start is the difference; median of ${counts.serveStarts} starts each`,
        };
      },
    );
  },
};

/** The server started over the loaded books and asked for every balance, `n` times; leaves the last one running. */
async function coldStarts(bench: Bench, n: number): Promise<{ firstBalances: number[]; ready: number[] }> {
  const firstBalances: number[] = [];
  const ready: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = process.hrtime.bigint();
    const server = await bench.startServer();
    ready.push(server.readyMs);
    await bench.client.ok('GET', '/api/accounts/balances');
    firstBalances.push(since(start));
    if (i < n - 1) await bench.stopServer();
  }
  return { firstBalances, ready };
}

/** Cold starts to the first balances over the loaded books, beside a bare node reading them raw. */
export const coldStart: Area = {
  name: 'cold-start',
  server: 'stopped',
  run: async (bench) => {
    const { counts, ledgerFile } = bench;
    const cold = await coldStarts(bench, counts.coldStarts);
    const rawCold: number[] = [];
    for (let i = 0; i < counts.coldStarts; i++) {
      const start = process.hrtime.bigint();
      const child = await startChild(path.join(REPO, 'bench/raw-cold-start.ts'), [ledgerFile], {}, /(done)/);
      rawCold.push(since(start));
      await child.stop();
    }
    const coldSummary = summarize(cold.firstBalances);
    const rawSummary = summarize(rawCold);
    await bench.attempt('cold_start', 'cold start to first balances', 'ms', async () => ({
      summary: coldSummary,
      raw: { label: 'node + open + balances query', summary: rawSummary },
      ratio: rawSummary.p50 / coldSummary.p50,
      target: { text: '≤ 1000 ms', stat: 'p50', atMost: 1000 },
      note: `server ready line after ${summarize(cold.ready).p50.toFixed(0)} ms`,
    }));
  },
};

runAlone(import.meta, [serveStart, coldStart]);
