/**
 * Read throughput: 50 clients asking for six views over and over, and for a different query each
 * time, beside a bare Express route answering the very same bodies (bench/bare-express.ts), the
 * HTTP ceiling of this machine.
 *
 *   node bench/throughput.ts [--size 10k|100k|1m] [--data DIR] (the harness's options, bench/README.md)
 */
import fs from 'node:fs';
import path from 'node:path';
import { runAlone, settleDisk, type Area, type Bench } from './lib/harness.ts';
import { load, medianByRate, type LoadRequest, type LoadResult } from './lib/load.ts';
import { memoryOf, REPO, startChild } from './lib/processes.ts';
import { Random } from './lib/random.ts';
import { pastDates } from './lib/read-rows.ts';
import { registerPages } from './register.ts';

const latency = (r: LoadResult) => `latency p50 ${r.latency.p50.toFixed(1)} ms, p99 ${r.latency.p99.toFixed(1)} ms`;

/** 50 clients, every request a different query of the same six kinds: nothing kept can answer them. */
async function distinctReads(bench: Bench, auth: Record<string, string>): Promise<LoadRequest[]> {
  const { counts, ids } = bench;
  const { perPage, accountPages, rangePages } = await registerPages(bench);
  const dates = pastDates(bench.manifest, 50);
  const random = new Random('distinct-reads');
  return Array.from({ length: counts.mixedDistinct }, (_, i) => {
    const date = random.pick(dates);
    const year = random.pick(['2021', '2022', '2023', '2024', '2025']);
    const paths = [
      `/api/accounts/balances?as_of=${date}`,
      `/api/accounts/${random.pick(ids.all).id}/balance?as_of=${date}`,
      `/api/journal-entries?account_id=${ids.checking}&per_page=${perPage}&page=${random.int(1, accountPages)}`,
      `/api/reports/income-statement?start_date=${year}-01-01&end_date=${year}-${String(random.int(1, 12)).padStart(2, '0')}-28`,
      `/api/journal-entries?start_date=${year}-01-01&end_date=${year}-12-31&per_page=${perPage}&page=${random.int(1, rangePages)}`,
      `/api/accounts/${random.pick(ids.all).id}/balance?as_of=${date}`,
    ];
    return { method: 'GET', path: paths[i % paths.length]!, headers: auth };
  });
}

export const throughput: Area = {
  name: 'throughput',
  run: async (bench) => {
    const { client, counts, ids, manifest, dataDir, server, token } = bench;
    const { perPage } = await registerPages(bench);
    const auth = { authorization: `Bearer ${token}` };
    bench.phase('read throughput');
    const viewPaths = [
      '/api/accounts/balances',
      `/api/accounts/${ids.checking}/balance?as_of=2024-03-15`,
      `/api/journal-entries?account_id=${ids.checking}&per_page=${perPage}`,
      '/api/reports/income-statement?start_date=2024-01-01&end_date=2024-12-31',
      `/api/accounts/balances?as_of=${manifest.pastDate}`,
      `/api/accounts/${ids.groceries}/balance`,
    ];
    const views: LoadRequest[] = viewPaths.map((p) => ({ method: 'GET', path: p, headers: auth }));
    // the bare route twice: a tiny body, and the very bodies the six views answer
    const cannedFile = path.join(dataDir, 'canned.json');
    fs.writeFileSync(
      cannedFile,
      JSON.stringify(await Promise.all(viewPaths.map(async (p) => (await client.ok('GET', p)).text))),
    );
    settleDisk();
    const bare = await startChild(
      path.join(REPO, 'bench/bare-express.ts'),
      [cannedFile],
      {},
      /listening on (http:\S+)/,
    );
    const ping: LoadRequest[] = [{ method: 'GET', path: '/api/ping' }];
    const cannedViews: LoadRequest[] = viewPaths.map((_, i) => ({ method: 'GET', path: `/api/canned/${i}` }));
    await load(bare.url, { connections: 50, amount: 2000, requests: ping });
    const ceiling = await load(bare.url, { connections: 50, amount: counts.bare, requests: ping });
    // The API's cached reads and the bare route with the same bodies, measured in turns (three each,
    // the median kept): the two cores' speed drifts by ±10 % over a run, and this load generator shares them.
    await load(bare.url, { connections: 50, amount: counts.mixedWarmUp, requests: cannedViews });
    await load(server.url, { connections: 50, amount: counts.mixedWarmUp, requests: views });
    const bareTurns: LoadResult[] = [];
    const apiTurns: LoadResult[] = [];
    for (let turn = 0; turn < counts.mixedTurns; turn++) {
      bareTurns.push(await load(bare.url, { connections: 50, amount: counts.mixed, requests: cannedViews }));
      apiTurns.push(await load(server.url, { connections: 50, amount: counts.mixed, requests: views }));
    }
    const cannedCeiling = medianByRate(bareTurns);
    const cachedReads = medianByRate(apiTurns);
    const bareMemory = memoryOf(bare.pid);
    await bare.stop();
    bench.info.bareExpress = {
      ...(bench.info.bareExpress as object | undefined),
      ping: { requestsPerSecond: ceiling.rate, latency: ceiling.latency },
      sameBodies: { requestsPerSecond: cannedCeiling.rate, latency: cannedCeiling.latency },
      rssMb: bareMemory?.rssMb,
    };
    await bench.attempt('bare_ping', 'bare Express route, tiny body, 50 clients', 'req/s', async () => ({
      value: ceiling.rate,
      note: latency(ceiling),
    }));
    await bench.attempt(
      'mixed_reads',
      'read throughput, 50 clients, the same 6 views over and over',
      'req/s',
      async () => {
        const failed = apiTurns.find((turn) => turn.failures);
        if (failed) throw new Error(`${failed.failures} failed: ${failed.firstFailure}`);
        return {
          value: cachedReads.rate,
          raw: { label: 'bare Express, same bodies', value: cannedCeiling.rate },
          ratio: cachedReads.rate / cannedCeiling.rate,
          target: { text: '≥ 70% of bare Express', stat: 'ratio', atLeast: 0.7 },
          note: `median of ${counts.mixedTurns} turns, each after one of the bare route's (API ${apiTurns.map((t) => t.rate.toFixed(0)).join(', ')}; bare ${bareTurns.map((t) => t.rate.toFixed(0)).join(', ')} req/s); ${latency(cachedReads)}; bare Express with the same bodies ${cannedCeiling.rate.toFixed(0)} req/s, with a tiny body ${ceiling.rate.toFixed(0)} req/s (${((cachedReads.rate / ceiling.rate) * 100).toFixed(0)}% of that)`,
        };
      },
    );
    await bench.attempt(
      'mixed_reads_distinct',
      'read throughput, 50 clients, every request a different query',
      'req/s',
      async () => {
        const distinct = await distinctReads(bench, auth);
        const result = await load(server.url, { connections: 50, amount: counts.mixedDistinct, requests: distinct });
        if (result.failures) throw new Error(`${result.failures} failed: ${result.firstFailure}`);
        return {
          value: result.rate,
          raw: { label: 'bare Express, same kind of bodies', value: cannedCeiling.rate },
          ratio: result.rate / cannedCeiling.rate,
          note: `${latency(result)}; nothing kept can answer these`,
        };
      },
    );
  },
};

runAlone(import.meta, [throughput]);
