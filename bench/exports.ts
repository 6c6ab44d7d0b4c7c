/**
 * An export of the books (made on the job worker and streamed), with bench/probe.ts asking the
 * server meanwhile: once a read that held the event loop for seconds at 1M.
 *
 *   node bench/exports.ts [--size 10k|100k|1m] [--data DIR] (the harness's options, bench/README.md)
 */
import { runAlone, type Area } from './lib/harness.ts';
import { summarize } from './lib/stats.ts';

export const bookExport: Area = {
  name: 'exports',
  run: async (bench) => {
    const { server, token } = bench;
    await bench.attempt('export_ledger', 'export, ledger format (streamed)', 's', async () => {
      const {
        result: bytes,
        ms,
        stall,
      } = await bench.probed('export_ledger', async () => {
        const res = await fetch(`${server.url}/api/export?format=ledger`, {
          headers: { authorization: `Bearer ${token}` },
        });
        if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
        let n = 0;
        for await (const chunk of res.body!) n += chunk.byteLength;
        return n;
      });
      return {
        summary: summarize([ms / 1000]),
        note: `${(bytes / 2 ** 20).toFixed(0)} MiB; longest silence ${stall.maxMs.toFixed(0)} ms, ${stall.over50}/${stall.n} probes over 50 ms`,
      };
    });
  },
};

runAlone(import.meta, [bookExport]);
