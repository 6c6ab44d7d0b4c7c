/**
 * Posting: one entry at a time, from 1, 8 and 50 clients at once (group commit,
 * docs/scripting.md), and 1,000 entries in one request, each beside the raw posting transaction on
 * a copy of the ledger and a bare Express route that runs only that transaction
 * (bench/bare-express.ts), alone, with the simplest group commit, and on a writer thread.
 *
 *   node bench/writes.ts [--size 10k|100k|1m] [--data DIR] (the harness's options, bench/README.md)
 */
import os from 'node:os';
import path from 'node:path';
import { Client } from './lib/client.ts';
import { runAlone, settleDisk, type Area, type Bench } from './lib/harness.ts';
import { load, type LoadRequest, type LoadResult } from './lib/load.ts';
import { machineBusyMs, mainThreadCpuMs, REPO, startChild } from './lib/processes.ts';
import { besideRaw, rateBeside, type Figures } from './lib/results.ts';
import type { Ids } from './lib/setup.ts';
import { rawPacedTimed, rawTimed, summarize, timeEach, type Summary } from './lib/stats.ts';

/** Entries per request of the batch row: the most POST /api/journal-entries/batch takes. */
const BATCH_ENTRIES = 1000;

/** One posting of a grocery bill from checking, different for each `i`. */
export function postingBody(ids: Ids, i: number) {
  return {
    entry_date: `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
    memo: `Bench posting ${i}`,
    auto_post: true,
    lines: [
      { account_id: ids.groceries, direction: 'DEBIT', amount: `${(i % 90) + 10}.25` },
      { account_id: ids.checking, direction: 'CREDIT', amount: `${(i % 90) + 10}.25` },
    ],
  };
}

/** The amount of postingBody(i) in cents. */
export const minorOf = (i: number) => BigInt((i % 90) + 10) * 100n + 25n;

/** bench/bare-express.ts over a copy of the ledger as committed so far (`name`). */
async function startBare(bench: Bench, name: string) {
  const copy = bench.copyOfLedger(name);
  settleDisk();
  return startChild(path.join(REPO, 'bench/bare-express.ts'), ['', copy], {}, /listening on (http:\S+)/);
}

/**
 * The bare route's POSTs one at a time: parsing the entry's JSON only, and running only the raw
 * posting transaction. Returns the latter, the reference of posting one entry at a time.
 */
async function barePosts(bench: Bench): Promise<Summary> {
  const { counts, ids } = bench;
  const bare = await startBare(bench, 'bare-copy.sqlite');
  const client = new Client(bare.url);
  const post = (route: string) => (i: number) => client.ok('POST', route, postingBody(ids, i));
  for (let i = 0; i < 20; i++) await post('/api/echo')(i);
  const echo = summarize(await timeEach(counts.postSequential, post('/api/echo')));
  for (let i = 0; i < 5; i++) await post('/api/raw-post')(i);
  const rawPost = summarize(await timeEach(counts.postSequential, post('/api/raw-post')));
  client.close();
  await bare.stop();
  bench.info.bareExpress = {
    ...(bench.info.bareExpress as object | undefined),
    postSequential: echo,
    rawPostSequential: rawPost,
  };
  await bench.attempt('bare_post', 'bare Express POST of the same JSON, one at a time', 'ms', async () => ({
    summary: echo,
  }));
  await bench.attempt(
    'bare_raw_post',
    'bare Express POST running only the raw posting transaction, one at a time',
    'ms',
    async () => ({ summary: rawPost }),
  );
  return rawPost;
}

/** Posting one entry a request, beside the bare route and the raw transaction; returns the raw rate (entries/s). */
async function postOneAtATime(bench: Bench, bareRawPost: Summary): Promise<number> {
  const { client, counts, ids } = bench;
  const raw = bench.rawWriter();
  const body = (i: number) => postingBody(ids, i);
  const rawPost = (i: number) => raw.postEntry(body(i).entry_date, ids.groceries, ids.checking, minorOf(i), 'USD');
  let rawPostRate = NaN;
  let rawPaced = summarize([]);
  await bench.attempt('post_sequential', 'post one entry, one request at a time', 'ms', async () => {
    for (let i = 0; i < 5; i++) await client.json('POST', '/api/journal-entries', body(i), 201);
    const api = summarize(
      await timeEach(counts.postSequential, (i) => client.json('POST', '/api/journal-entries', body(i), 201)),
    );
    const rawS = rawTimed(counts.postSequential, rawPost);
    rawPaced = await rawPacedTimed(counts.postPaced, rawPost);
    rawPostRate = 1000 / rawS.mean;
    // The most an Express API with this durability can post one at a time is the bare route that
    // runs only the raw transaction: the target. The raw transaction alone has no HTTP at all.
    return {
      summary: api,
      raw: { label: 'bare Express route running only the raw transaction', summary: bareRawPost },
      ratio: bareRawPost.mean / api.mean,
      target: { text: "≥ 70% of the bare route's rate", stat: 'ratio', atLeast: 0.7 },
      note: `${(1000 / api.mean).toFixed(0)} entries/s over HTTP, the bare route ${(1000 / bareRawPost.mean).toFixed(0)}/s, the raw transaction alone ${(1000 / rawS.mean).toFixed(0)}/s (mean ${rawS.mean.toFixed(2)} ms; the API ${((rawS.mean / api.mean) * 100).toFixed(0)}% of it, the bare route ${((rawS.mean / bareRawPost.mean) * 100).toFixed(0)}%)`,
    };
  });
  await bench.attempt(
    'raw_post_paced',
    'raw posting transaction with a 1 ms pause before each (as between requests)',
    'ms',
    async () => ({
      summary: rawPaced,
      note: `the same transaction as the raw limit of posting, ${(rawPaced.mean / (1000 / rawPostRate)).toFixed(2)}× its mean time once the process pauses between transactions as a server does between requests (the commit's sync to disk is slower after a pause on this machine)`,
    }),
  );
  return rawPostRate;
}

/** A load run's rate and latency, with the CPU the server's main thread (ms) and the whole machine spent a request. */
type Posting = LoadResult & { cpuMs: number; machineMs: number };

async function posting(
  url: string,
  pid: number,
  requests: LoadRequest[],
  connections: number,
  amount: number,
): Promise<Posting> {
  const cpuBefore = mainThreadCpuMs(pid);
  const machineBefore = machineBusyMs();
  const result = await load(url, { connections, amount, requests });
  if (result.failures) throw new Error(`${result.failures} failed: ${result.firstFailure}`);
  return {
    ...result,
    cpuMs: (mainThreadCpuMs(pid) - cpuBefore) / amount,
    machineMs: (machineBusyMs() - machineBefore) / amount,
  };
}

/**
 * Concurrent posting (group commit): the requests that arrive together share one transaction and
 * one sync to disk. One client, 8 and 50 through the same load generator, each beside the bare
 * route with the simplest group commit (its own copy of the file), and the same on a writer thread:
 * the most an Express API with this durability can post at once on this machine. Returns the rates
 * by clients, or throws what stopped them.
 */
async function postingRates(bench: Bench): Promise<(clients: number) => Record<'api' | 'bare' | 'writer', Posting>> {
  const { counts, ids, server, token } = bench;
  const api = Array.from({ length: 12 }, (_, i) => ({
    method: 'POST',
    path: '/api/journal-entries',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(postingBody(ids, i)),
  }));
  const grouped = api.map((r) => ({ ...r, path: '/api/raw-post-grouped' }));
  const writer = api.map((r) => ({ ...r, path: '/api/raw-post-writer' }));
  const bare = await startBare(bench, 'bare-grouped-copy.sqlite');
  await posting(bare.url, bare.pid, grouped, 8, 200);
  await posting(bare.url, bare.pid, writer, 8, 200);
  const rates = new Map<number, Record<'api' | 'bare' | 'writer', Posting>>();
  let failed: unknown;
  try {
    for (const clients of [1, 8, 50]) {
      const amount = clients === 1 ? counts.postSequential : counts.postConcurrent;
      rates.set(clients, {
        api: await posting(server.url, server.pid, api, clients, amount),
        bare: await posting(bare.url, bare.pid, grouped, clients, amount),
        writer: await posting(bare.url, bare.pid, writer, clients, amount),
      });
    }
  } catch (error) {
    failed = error;
  }
  await bare.stop();
  return (clients) => {
    const measured = rates.get(clients);
    if (!measured) throw failed instanceof Error ? failed : new Error(`no rate for ${clients} clients`);
    return measured;
  };
}

const latency = (r: LoadResult) => `latency p50 ${r.latency.p50.toFixed(1)} ms, p99 ${r.latency.p99.toFixed(1)} ms`;

/**
 * Sharing the sync to disk saves what one client waits for beyond the server's own work: when the
 * server's main thread is busy all the time, 8 clients post at most one entry per its CPU time an
 * entry, against one client's one entry per round trip.
 */
const shareCeiling = (one: Posting, many: Posting) =>
  `the server's main thread ${many.cpuMs.toFixed(2)} ms of CPU an entry at 8 clients (${((many.cpuMs * many.rate) / 10).toFixed(0)}% of a core), one client's round trip ${(1000 / one.rate).toFixed(2)} ms (${one.cpuMs.toFixed(2)} ms of it the main thread's CPU): sharing the sync can give 8 clients at most ${(1000 / one.rate / many.cpuMs).toFixed(2)}× one client`;

/**
 * What the whole machine can give, however the server spread its work over threads: its cores
 * divided by the CPU each request cost everything that runs (the server, the load generator, the
 * kernel's networking).
 */
function machineCeiling(many: Posting, against: number, what: string): string {
  const most = (os.cpus().length * 1000) / many.machineMs;
  return `the whole machine spent ${many.machineMs.toFixed(2)} ms of CPU a request (server, load generator, kernel): its ${os.cpus().length} cores give at most ${most.toFixed(0)}/s = ${(most / against).toFixed(2)}× ${what}, however the server shares out its work`;
}

/** The rows of concurrent posting: the API at 1, 8 and 50 clients, then its ceilings. */
async function postConcurrently(bench: Bench, rawPostRate: number): Promise<void> {
  const measured = await postingRates(bench);
  const rawRate = { label: 'raw single-transaction rate', value: rawPostRate };
  const row = (id: string, label: string, figures: () => Figures) =>
    bench.attempt(id, label, 'req/s', async () => figures());
  await row('post_one_client', 'post entries, one client', () => {
    const { api, bare } = measured(1);
    const note = `${latency(api)}; the raw single-transaction rate ${rawPostRate.toFixed(0)}/s`;
    return rateBeside(api.rate, { label: 'bare route with group commit, one client', value: bare.rate }, note);
  });
  await row('post_concurrent_8', 'post entries, 8 concurrent clients', () => {
    const one = measured(1).api;
    const { api, bare } = measured(8);
    const note = `${latency(api)}; ${((api.rate / bare.rate) * 100).toFixed(0)}% of the bare route's 8 clients; ${shareCeiling(one, api)}; ${machineCeiling(api, one.rate, 'one client')}`;
    return rateBeside(api.rate, { label: 'one client', value: one.rate }, note, {
      text: '≥ 3× one client',
      stat: 'ratio',
      atLeast: 3,
    });
  });
  await row('post_concurrent', 'post entries, 50 concurrent clients', () => {
    const { api, bare } = measured(50);
    const note = `${latency(api)}; ${((api.rate / bare.rate) * 100).toFixed(0)}% of the bare route's 50 clients; ${machineCeiling(api, rawPostRate, 'the raw rate')}`;
    return rateBeside(api.rate, rawRate, note, {
      text: '≥ 1.5× the raw single-transaction rate',
      stat: 'ratio',
      atLeast: 1.5,
    });
  });
  await row('bare_grouped_8', 'bare route with group commit, 8 clients', () => {
    const one = measured(1).bare;
    const { bare } = measured(8);
    const note = `the ceiling of the row "8 concurrent clients": its rate against its own one client; ${latency(bare)}; ${shareCeiling(one, bare)}`;
    return rateBeside(bare.rate, { label: 'the bare route, one client', value: one.rate }, note);
  });
  await row('bare_grouped_50', 'bare route with group commit, 50 clients', () => {
    const { bare } = measured(50);
    return rateBeside(bare.rate, rawRate, `the ceiling of the row "50 concurrent clients"; ${latency(bare)}`);
  });
  // The same bare route with its SQL on a writer thread: what taking the posting's SQL off the thread
  // that runs HTTP can give, at 8 and 50 clients.
  await row('bare_writer_8', 'bare route with its SQL on a writer thread, 8 clients', () => {
    const one = measured(1).writer;
    const { writer } = measured(8);
    const note = `${latency(writer)}; the HTTP thread ${writer.cpuMs.toFixed(2)} ms of CPU a request (${one.cpuMs.toFixed(2)} with one client); ${machineCeiling(writer, one.rate, 'its one client')}`;
    return rateBeside(writer.rate, { label: 'the same route, one client', value: one.rate }, note);
  });
  await row('bare_writer_50', 'bare route with its SQL on a writer thread, 50 clients', () => {
    const { writer } = measured(50);
    const note = `${latency(writer)}; the HTTP thread ${writer.cpuMs.toFixed(2)} ms of CPU a request`;
    return rateBeside(writer.rate, rawRate, note);
  });
}

/** 1,000 entries in one request, beside the same entries in one raw transaction. */
async function postBatch(bench: Bench): Promise<void> {
  const { client, counts, ids } = bench;
  const raw = bench.rawWriter();
  await bench.attempt('post_batch', `post ${BATCH_ENTRIES} entries in one request (batch)`, 'ms', async () => {
    const batch = (round: number) => ({
      entries: Array.from({ length: BATCH_ENTRIES }, (_, i) => postingBody(ids, round * BATCH_ENTRIES + i)),
    });
    await client.json('POST', '/api/journal-entries/batch', batch(0), 201);
    const api = summarize(
      await timeEach(counts.postBatches, (round) =>
        client.json('POST', '/api/journal-entries/batch', batch(round + 1), 201),
      ),
    );
    const rawS = rawTimed(counts.postBatches, (round) =>
      raw.postEntries(
        batch(round).entries.map((e, i) => ({
          date: e.entry_date,
          debit: ids.groceries,
          credit: ids.checking,
          minor: minorOf(round * BATCH_ENTRIES + i),
          currency: 'USD',
        })),
      ),
    );
    return {
      ...besideRaw(api, `${BATCH_ENTRIES} entries in one transaction`, rawS, {
        text: '< 0.5 s',
        stat: 'p99',
        atMost: 500,
      }),
      note: `${((BATCH_ENTRIES * 1000) / api.p50).toFixed(0)} entries/s`,
    };
  });
}

export const writes: Area = {
  name: 'writes',
  run: async (bench) => {
    bench.phase('posting');
    const bareRawPost = await barePosts(bench);
    await bench.client.json('GET', '/api/accounts/balances');
    bench.rawWriter();
    settleDisk();
    const rawPostRate = await postOneAtATime(bench, bareRawPost);
    await postConcurrently(bench, rawPostRate);
    await postBatch(bench);
  },
};

runAlone(import.meta, [writes]);
