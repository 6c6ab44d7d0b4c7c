/**
 * What the server holds back and holds on to: its longest silence over every run of the areas
 * before that bench/probe.ts watched, and its resident memory, at its peak and in everyday use
 * (reads and postings), beside a bare Express process. Stops the server.
 *
 *   node bench/memory.ts [--size 10k|100k|1m] [--data DIR] (the harness's options, bench/README.md)
 *
 * Alone, it runs the areas that take the most memory first: a cold start, the statements, the
 * reconciling reads and the export.
 */
import { coldStart } from './start.ts';
import { bookExport } from './exports.ts';
import { runAlone, type Area, type Bench } from './lib/harness.ts';
import { memoryOf } from './lib/processes.ts';
import { reconcile } from './reconcile.ts';
import { statements } from './statements.ts';

/** The longest silence of the server over every probed run. */
async function longestSilence(bench: Bench): Promise<void> {
  await bench.attempt(
    'event_loop',
    'longest silence of the server during imports, runs, exports and the unmatched list',
    'ms',
    async () => ({
      value: bench.stalls.reduce((m, s) => Math.max(m, s.maxMs), 0),
      target: { text: '≤ ~50 ms', stat: 'value', atMost: 60 },
      note: bench.stalls
        .map((s) => `${s.op}: max ${s.maxMs.toFixed(0)} ms, ${s.over50}/${s.n} probes over 50 ms`)
        .join('; '),
    }),
  );
}

/** The phases of everyday use: the server's start, reads and postings (bench/reads.ts, throughput.ts, writes.ts). */
const EVERYDAY = ['start', 'reads', 'read throughput', 'posting'];

/** The server's resident memory, at its peak and by phase. */
async function residentMemory(bench: Bench): Promise<void> {
  const memory = memoryOf(bench.server.pid);
  const peaks = bench.memory?.stop() ?? {};
  bench.info.memoryPeaksMb = peaks;
  const everyday = Math.max(...EVERYDAY.flatMap((phase) => (phase in peaks ? [peaks[phase]!] : [])));
  const bare = (bench.info.bareExpress as { rssMb?: number } | undefined)?.rssMb ?? NaN;
  await bench.attempt('rss', 'server resident memory, peak', 'MB', async () => ({
    value: memory?.peakMb ?? NaN,
    raw: { label: 'bare Express process', value: bare },
    target: { text: '≤ 250 MB', stat: 'value', atMost: 250 },
    note: `peak ${Math.round(memory?.peakMb ?? NaN)} MB; by phase ${Object.entries(peaks)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')} MB; ${Math.round(memory?.rssMb ?? NaN)} MB at the end`,
  }));
  await bench.attempt('rss_everyday', 'server resident memory, reads and postings', 'MB', async () => ({
    value: everyday,
    target: { text: '≤ 250 MB', stat: 'value', atMost: 250 },
  }));
}

export const memory: Area = {
  name: 'memory',
  run: async (bench) => {
    await longestSilence(bench);
    await residentMemory(bench);
    await bench.stopServer();
  },
};

runAlone(import.meta, [coldStart, statements, reconcile, bookExport, memory]);
