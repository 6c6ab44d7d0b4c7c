/**
 * What the journal's group commit (server/db/group-commit.ts) pays: posting one entry a request
 * from 1 and 8 clients at once, on the real server with group commit and without it (each posting
 * its own transaction), beside the raw posting transaction back to back. The variants run in turns
 * (TURNS of each, the median rate kept), as the machine's speed drifts. The parts group commit had
 * before (a sync off the thread, a write alone committed at once, waiting for company) were
 * measured the same way at commit c8a3fbc, which can turn each off (bench/README.md).
 *
 *   node bench/commit-policy.ts [--size 10k] [--data DIR] (the harness's options, bench/README.md)
 */
import path from 'node:path';
import { runAlone, settleDisk, type Area, type Bench } from './lib/harness.ts';
import { load, medianByRate, type LoadRequest, type LoadResult } from './lib/load.ts';
import { REPO, startChild } from './lib/processes.ts';
import { rawTimed } from './lib/stats.ts';
import { postingBody, minorOf } from './writes.ts';

const VARIANTS = [
  { name: 'group commit (as served)', mode: 'grouped' },
  { name: 'no grouping (each posting its own transaction)', mode: 'ungrouped' },
] as const;
const CLIENTS = [1, 8] as const;
const TURNS = 3;
/** Requests per load run; as many at 1 client as at 8, so that every run is long enough to time. */
const POSTINGS = 600;

async function serve(bench: Bench, mode: 'grouped' | 'ungrouped') {
  return startChild(
    path.join(REPO, 'bench/lib/commit-server.ts'),
    [bench.dataDir, mode],
    {},
    /Ledger API listening on (http:\S+)/,
  );
}

export const commitPolicy: Area = {
  name: 'commit-policy',
  server: 'stopped',
  run: async (bench) => {
    bench.phase('commit policy');
    const { ids, token } = bench;
    const requests: LoadRequest[] = Array.from({ length: 12 }, (_, i) => ({
      method: 'POST',
      path: '/api/journal-entries',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(postingBody(ids, i)),
    }));
    const runs = new Map<string, LoadResult[]>();
    for (let turn = 0; turn < TURNS; turn++) {
      for (const variant of VARIANTS) {
        settleDisk();
        const server = await serve(bench, variant.mode);
        try {
          await load(server.url, { connections: 8, amount: 100, requests });
          for (const clients of CLIENTS) {
            const result = await load(server.url, { connections: clients, amount: POSTINGS, requests });
            if (result.failures) throw new Error(`${result.failures} failed: ${result.firstFailure}`);
            const key = `${variant.name}|${clients}`;
            runs.set(key, [...(runs.get(key) ?? []), result]);
          }
        } finally {
          await server.stop();
        }
      }
    }
    const raw = bench.rawWriter();
    const rawPost = rawTimed(POSTINGS, (i) =>
      raw.postEntry(postingBody(ids, i).entry_date, ids.groceries, ids.checking, minorOf(i), 'USD'),
    );
    const rawRate = 1000 / rawPost.mean;
    const rows = [
      '| group commit | 1 client, entries/s | p50 ms | 8 clients, entries/s | p50 ms | 8 ÷ 1 |',
      '|---|---|---|---|---|---|',
    ];
    for (const variant of VARIANTS) {
      const [one, eight] = CLIENTS.map((c) => medianByRate(runs.get(`${variant.name}|${c}`)!));
      rows.push(
        `| ${variant.name} | ${one!.rate.toFixed(0)} | ${one!.latency.p50.toFixed(2)} | ${eight!.rate.toFixed(0)} | ${eight!.latency.p50.toFixed(2)} | ${(eight!.rate / one!.rate).toFixed(2)} |`,
      );
      for (const [c, r] of [
        [1, one!],
        [8, eight!],
      ] as const)
        await bench.attempt(
          `commit_${VARIANTS.indexOf(variant)}_${c}`,
          `post entries, ${c} client${c > 1 ? 's' : ''}, ${variant.name}`,
          'req/s',
          async () => ({
            value: r.rate,
            raw: { label: 'raw posting transaction back to back', value: rawRate },
            ratio: r.rate / rawRate,
            note: `median of ${TURNS} turns: ${runs
              .get(`${variant.name}|${c}`)!
              .map((x) => x.rate.toFixed(0))
              .join(', ')}/s`,
          }),
        );
    }
    rows.push(
      `| raw posting transaction, back to back (no HTTP) | ${rawRate.toFixed(0)} | ${rawPost.p50.toFixed(2)} |  |  |  |`,
    );
    bench.log(`\n${rows.join('\n')}\n`);
    bench.info.commitPolicy = rows.join('\n');
  },
};

runAlone(import.meta, [commitPolicy]);
