/**
 * The benchmark of issue 7: `npm run bench -- --size 10k|100k|1m`.
 *
 * Generates (or reuses) seeded books, loads them through the product's own journal import into a
 * fresh data folder, starts the real server (`node server/cli.ts`) as a child process and
 * measures it over HTTP on loopback from this process, with a fixed number of requests per
 * operation. Beside each figure it measures the raw better-sqlite3 equivalent on the same file,
 * a bare Express route (the HTTP ceiling) and ledger, hledger and bean-query on the same books
 * exported by the app. Prints one table and writes bench/results/latest.json.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { defaultOutDir, ensureBooks, sizeArg, type BankRow, type Manifest } from './generate.ts';
import { Client } from './lib/client.ts';
import { journalChunks, parseJournal } from './lib/journal-file.ts';
import { load, medianByRate, type LoadRequest, type LoadResult } from './lib/load.ts';
import { balanceCommands, installed, timePeer } from './lib/peers.ts';
import {
  BENCH_SECRET,
  buildServer,
  MemorySampler,
  machineBusyMs,
  mainThreadCpuMs,
  memoryOf,
  msToFirstLine,
  REPO,
  startChild,
  startLedgerServer,
  type Child,
} from './lib/processes.ts';
import { Random } from './lib/random.ts';
import { RawLedger } from './lib/raw.ts';
import { evaluate, machine, table, type Operation, type PeerFigure } from './lib/results.ts';
import { since, summarize, timeEach, type Summary } from './lib/stats.ts';
import { measureSuggestions, suggestionTables } from './suggestions.ts';

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '10k' },
    seed: { type: 'string', default: 'ledger-bench-1' },
    books: { type: 'string' },
    data: { type: 'string' },
    load: { type: 'string', default: 'auto' },
    chunk: { type: 'string', default: '25000' },
    'skip-peers': { type: 'boolean', default: false },
    /** flags for the server's node beside those of `npm run serve`, e.g. "--max-semi-space-size=2" */
    'server-node-flags': { type: 'string', default: '' },
    keep: { type: 'boolean', default: false },
    /** `reads`: after the load, only the cold start and the reads (balances, reports, converted, budgets, register); `writes`: only the posting rows */
    only: { type: 'string' },
    out: { type: 'string', default: path.join(REPO, 'bench/results/latest.json') },
  },
});

const size = sizeArg(args.size);
const serverFlags = args['server-node-flags']!.split(/\s+/).filter(Boolean);
/** Requests per operation: fixed for a size, so runs compare. */
const COUNTS = {
  read: 200,
  page: 100,
  report: 100,
  postSequential: 500,
  postPaced: 200,
  postConcurrent: 2000,
  /** requests of BATCH_ENTRIES entries each */
  postBatches: 10,
  coldStarts: size === '1m' ? 3 : 5,
  /** starts of `npm run serve` on an empty data folder (and of its references) */
  serveStarts: 7,
  /** the same for the API and the bare route, after the same warm-up, so that both are measured warm */
  mixed: 20000,
  mixedWarmUp: 2000,
  /** the cached reads and the bare route, measured in turns */
  mixedTurns: 3,
  mixedDistinct: 6000,
  bare: 20000,
  voids: { '10k': 20, '100k': 100, '1m': 300 }[size],
  peerRuns: { '10k': 5, '100k': 3, '1m': 1 }[size],
  statementCopies: 3,
} as const;

/** Entries per request of the batch row: the most POST /api/journal-entries/batch takes. */
const BATCH_ENTRIES = 1000;

const log = (line: string) => console.log(line);
const ops: Operation[] = [];

function record(op: Operation): Operation {
  op.met = evaluate(op);
  ops.push(op);
  const s = op.summary;
  const figure = op.error
    ? `ERROR ${op.error}`
    : s
      ? `p50 ${s.p50.toFixed(2)} p99 ${s.p99.toFixed(2)} (n=${s.n})`
      : `${op.value?.toFixed(2)}`;
  log(
    `  ${op.label}: ${figure} ${op.unit}${op.raw?.summary ? ` | raw p50 ${op.raw.summary.p50.toFixed(3)}` : ''}${op.met === false ? '  [target missed]' : ''}`,
  );
  return op;
}

async function attempt(
  id: string,
  label: string,
  unit: Operation['unit'],
  fn: () => Promise<Omit<Operation, 'id' | 'label' | 'unit'>>,
): Promise<Operation> {
  try {
    return record({ id, label, unit, ...(await fn()) });
  } catch (error) {
    return record({ id, label, unit, error: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * Requests to one path every 20 ms from another process (bench/probe.ts) while something long
 * runs: the longest answer is the longest the server stopped answering.
 */
class Probe {
  private child: Child | undefined;
  private readonly args: string[];
  constructor(url: string, token: string, probePath: string) {
    this.args = [url, token, probePath];
  }
  async start(): Promise<void> {
    this.child = await startChild(path.join(REPO, 'bench/probe.ts'), this.args, {}, /(probing)/, 30_000, [], 'pipe');
  }
  private stopped: Promise<ProbeStall> | undefined;
  stop(): Promise<ProbeStall> {
    this.stopped ??= (async () => {
      const child = this.child!;
      let out = '';
      child.process.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      const exited = new Promise((resolve) => child.process.once('exit', resolve));
      child.process.stdin!.end();
      await exited;
      return JSON.parse(out.trim().split('\n').at(-1)!) as { n: number; maxMs: number; over50: number };
    })();
    return this.stopped;
  }
}

interface Ids {
  checking: string;
  card: string;
  savings: string;
  amex: string;
  groceries: string;
  all: { id: string; name: string; type: string; currency: string }[];
}

function accountType(name: string): string {
  const root = name.split(':')[0]!;
  return (
    { Assets: 'ASSET', Liabilities: 'LIABILITY', Equity: 'EQUITY', Income: 'INCOME', Expenses: 'EXPENSE' }[root] ??
    'ASSET'
  );
}

async function accountIds(client: Client, manifest: Manifest): Promise<Ids> {
  const all: Ids['all'] = [];
  for (let page = 1; ; page++) {
    const body = await client.json('GET', `/api/accounts?per_page=100&page=${page}`);
    all.push(...body.items);
    if (all.length >= body.total || body.items.length === 0) break;
  }
  // the import may name an account by its full path or by its last part
  const find = (name: string) => {
    const leaf = name.split(':').at(-1)!.toLowerCase();
    const hit =
      all.find((a) => a.name.toLowerCase() === name.toLowerCase()) ?? all.find((a) => a.name.toLowerCase() === leaf);
    if (!hit) throw new Error(`no account named ${name} after the load`);
    return hit.id;
  };
  const r = manifest.roles;
  return {
    checking: find(r.checking),
    card: find(r.card),
    savings: find(r.savings),
    amex: find(r.amex),
    groceries: find(r.groceries),
    all,
  };
}

async function openApiPaths(client: Client): Promise<Set<string>> {
  const doc = await client.json('GET', '/api/openapi.json');
  return new Set(Object.keys(doc.paths ?? {}));
}

/** A copy of the ledger as committed so far (its WAL checkpointed first), for raw writes beside the server's. */
function copyOfLedger(ledgerFile: string, to: string): string {
  const db = new Database(ledgerFile);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  fs.copyFileSync(ledgerFile, to);
  return to;
}

/**
 * Writes back every file page waiting in memory (`sync`) before a group of measurements: hundreds
 * of MB of them (the load, the exports, the copies) would otherwise slow the next commits' syncs,
 * the server's and the raw limits' alike, by up to a second each, at random.
 */
function settleDisk(): void {
  execFileSync('sync');
}

/** The documented bulk path: POST /api/import/journal, in pieces of `chunk` entries (each piece is atomic). */
async function loadByImport(client: Client, pieces: Generator<{ text: string; entries: number }>): Promise<void> {
  for (const piece of pieces) {
    const start = process.hrtime.bigint();
    await client.ok('POST', '/api/import/journal?format=hledger', piece.text, 'text/plain');
    log(`    imported ${piece.entries} entries in ${(since(start) / 1000).toFixed(1)} s`);
  }
}

/** Fallback while the import is missing: accounts and entries one by one through the public API. */
async function loadByApi(url: string, token: string, manifest: Manifest, booksDir: string): Promise<void> {
  const client = new Client(url, token);
  const ids = new Map<string, string>();
  const names = new Set<string>();
  for (const a of manifest.accounts) {
    const parts = a.name.split(':');
    for (let i = 1; i <= parts.length; i++) names.add(parts.slice(0, i).join(':'));
  }
  const currency = new Map(manifest.accounts.map((a) => [a.name, a.currency]));
  for (const name of [...names].sort((a, b) => a.split(':').length - b.split(':').length)) {
    const parent = name.includes(':') ? ids.get(name.slice(0, name.lastIndexOf(':'))) : undefined;
    const body = await client.json('POST', '/api/accounts', {
      name,
      type: accountType(name),
      currency: currency.get(name) ?? 'USD',
      ...(parent ? { parent_id: parent } : {}),
    });
    ids.set(name, body.id);
  }
  client.close();
  const workers = 4;
  const clients = Array.from({ length: workers }, () => new Client(url, token));
  const entries = parseJournal(fs.readFileSync(path.join(booksDir, 'books.journal'), 'utf8'));
  let done = 0;
  await Promise.all(
    clients.map(async (c) => {
      for (let next = entries.next(); !next.done; next = entries.next()) {
        const e = next.value;
        await c.ok('POST', '/api/journal-entries', {
          entry_date: e.date,
          memo: e.memo,
          auto_post: true,
          lines: e.postings.map((p) => ({
            account_id: ids.get(p.account)!,
            direction: p.amount.startsWith('-') ? 'CREDIT' : 'DEBIT',
            amount: p.amount.replace(/^-/, ''),
          })),
        });
        if (++done % 10000 === 0) log(`    posted ${done} entries`);
      }
    }),
  );
  for (const c of clients) c.close();
}

async function voidSample(client: Client, manifest: Manifest, n: number): Promise<number[]> {
  const random = new Random('voids');
  const first = new Date(`${manifest.firstDay}T00:00:00Z`).getTime();
  const span = (new Date(`${manifest.lastDay}T00:00:00Z`).getTime() - first) / 86_400_000;
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const day = new Date(first + random.int(1, span) * 86_400_000).toISOString().slice(0, 10);
    const page = await client.json(
      'GET',
      `/api/journal-entries?start_date=${day}&end_date=${day}&status=posted&per_page=1`,
    );
    const entry = page.items[0];
    if (!entry || entry.reverses_entry_id) continue;
    const start = process.hrtime.bigint();
    await client.ok('POST', `/api/journal-entries/${entry.id}/void`, { reason: 'benchmark sample' });
    times.push(since(start));
  }
  return times;
}

/** Daily rates 2020–2025 as a CSV file: EUR in USD around 1.10, USD in JPY around 140, drifting by day. */
function dailyRatesCsv(): string {
  const random = new Random('rates');
  const rows = ['date,from,to,rate'];
  let eur = 11000;
  let jpy = 14000;
  for (let t = Date.parse('2020-01-01T00:00:00Z'); t <= Date.parse('2025-12-31T00:00:00Z'); t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    eur = Math.min(12500, Math.max(9500, eur + random.int(-40, 40)));
    jpy = Math.min(16000, Math.max(10000, jpy + random.int(-50, 50)));
    rows.push(`${day},EUR,USD,${Math.floor(eur / 10000)}.${String(eur % 10000).padStart(4, '0')}`);
    rows.push(`${day},USD,JPY,${Math.floor(jpy / 100)}.${String(jpy % 100).padStart(2, '0')}`);
  }
  return `${rows.join('\n')}\n`;
}

function pastDates(manifest: Manifest, n: number): string[] {
  const random = new Random('past-dates');
  const first = new Date(`${manifest.firstDay}T00:00:00Z`).getTime();
  const span = (new Date(`${manifest.lastDay}T00:00:00Z`).getTime() - first) / 86_400_000;
  return Array.from({ length: n }, () =>
    new Date(first + random.int(30, span) * 86_400_000).toISOString().slice(0, 10),
  );
}

async function timed(client: Client, n: number, pathOf: (i: number) => string): Promise<Summary> {
  for (let i = 0; i < 5; i++) await client.ok('GET', pathOf(i));
  return summarize(await timeEach(n, (i) => client.ok('GET', pathOf(i))));
}

/**
 * `timed`, each read made uncached: a budget written for 2030-01 (not timed) first changes the
 * ledger, so the answer the server keeps for an unchanged ledger is dropped and the read is
 * computed. `lines`: budget lines (at least two) to alternate between.
 */
async function timedUncached(
  client: Client,
  lines: readonly unknown[],
  n: number,
  pathOf: (i: number) => string,
): Promise<Summary> {
  const out: number[] = [];
  for (let i = 0; i < n + 5; i++) {
    await client.ok('PUT', '/api/budgets/2030-01', { lines: lines.slice(0, 1 + (i % 2)) });
    const start = process.hrtime.bigint();
    await client.ok('GET', pathOf(i));
    if (i >= 5) out.push(since(start));
  }
  return summarize(out);
}

function rawTimed(n: number, fn: (i: number) => unknown): Summary {
  for (let i = 0; i < 5; i++) fn(i);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = process.hrtime.bigint();
    fn(i);
    out.push(since(start));
  }
  return summarize(out);
}

/** Like rawTimed, with a 1 ms pause (a timer turn) before each call, as a server idles between requests. */
async function rawPacedTimed(n: number, fn: (i: number) => unknown): Promise<Summary> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    const start = process.hrtime.bigint();
    fn(i);
    out.push(since(start));
  }
  return summarize(out);
}

function ratioOf(api: Summary, raw: Summary): number {
  return raw.p50 / api.p50;
}

/** What the phases below share: the books, the server under test, its one user and their accounts. */
interface Bench {
  manifest: Manifest;
  booksDir: string;
  dataDir: string;
  info: Record<string, unknown>;
  /** the server as `npm run serve` starts it */
  served: { entry: string; nodeFlags: string[] };
  server: Child;
  client: Client;
  token: string;
  ledgerFile: string;
  ids: Ids;
  hasExport: boolean;
}

type ProbeStall = { n: number; maxMs: number; over50: number };

type PeerFiles = Record<'ledger' | 'hledger' | 'beancount', string>;

/** The register's page counts, found by the read phase and used again by the throughput phase. */
interface Pages {
  perPage: number;
  accountPages: number;
  rangePages: number;
  dates: string[];
}

/** One posting of a grocery bill from checking, different for each `i`. */
function postingBody(ids: Ids, i: number) {
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

/** The books (generated or reused), a fresh data folder, the server, one user, and the books loaded through the product's bulk path. */
async function loadBooks(): Promise<Bench> {
  const booksDir = args.books ?? defaultOutDir(size);
  const manifest = ensureBooks(size, args.seed!, booksDir, log);
  log(`Books: ${manifest.entries} entries, ${manifest.lines} lines (${booksDir})`);
  const dataDir = args.data ?? fs.mkdtempSync(path.join(os.tmpdir(), `ledger-bench-${size}-`));
  const info: Record<string, unknown> = {};

  const served = buildServer();
  log(
    `Server: node ${[...served.nodeFlags, ...serverFlags].join(' ')} ${path.relative(REPO, served.entry)} (as npm run serve)`,
  );
  const server: Child = await startLedgerServer(served, dataDir, serverFlags);
  const anonymous = new Client(server.url);
  const registered = await anonymous.json('POST', '/api/auth/register', {
    email: `bench-${Date.now()}@example.com`,
    name: 'Bench',
    password: 'correct horse battery staple',
  });
  anonymous.close();
  const token: string = registered.access_token;
  const userId: string = registered.id;
  const ledgerFile = path.join(dataDir, 'ledgers', `${userId}.sqlite`);
  const client = new Client(server.url, token);
  const paths = await openApiPaths(client);
  const hasImport = paths.has('/api/import/journal');
  const hasExport = paths.has('/api/export');
  const loadMode = args.load === 'auto' ? (hasImport ? 'import' : 'api') : args.load;
  log(
    `Loading through ${loadMode === 'import' ? 'POST /api/import/journal' : 'POST /api/accounts and /api/journal-entries (the import is not there yet)'}`,
  );
  const loadStart = process.hrtime.bigint();
  const pieces =
    loadMode === 'import' ? journalChunks(path.join(booksDir, 'books.journal'), Number(args.chunk)) : undefined;
  const loadProbe = new Probe(server.url, token, '/api/auth/me');
  await loadProbe.start();
  if (pieces) await loadByImport(client, pieces);
  else await loadByApi(server.url, token, manifest, booksDir);
  const loadStall = await loadProbe.stop();
  const loadMs = since(loadStart);
  info.load = {
    mode: loadMode,
    seconds: loadMs / 1000,
    entriesPerSecond: manifest.entries / (loadMs / 1000),
    longestStallMs: loadStall.maxMs,
  };
  await attempt('bulk_load', `bulk load of ${manifest.entries} entries (${loadMode})`, 's', async () => ({
    value: loadMs / 1000,
    note: `${Math.round(manifest.entries / (loadMs / 1000))} entries/s; the server's longest silence meanwhile ${loadStall.maxMs.toFixed(0)} ms`,
  }));
  const ids = await accountIds(client, manifest);
  // Daily rates over the books' six years: EUR in USD, and USD in JPY (JPY's rate into USD is then
  // the inverse of the opposite pair's), as a user imports them from a CSV file.
  const rates = await client.request('POST', '/api/prices/import', dailyRatesCsv(), 'text/csv');
  if (rates.status !== 201) throw new Error(`price import: ${rates.status} ${rates.text.slice(0, 200)}`);
  await attempt('void', 'void one entry (HTTP)', 'ms', async () => ({
    summary: summarize(await voidSample(client, manifest, COUNTS.voids)),
  }));

  return { manifest, booksDir, dataDir, info, served, server, client, token, ledgerFile, ids, hasExport };
}

/** The books as the app exports them, for the peers to read; stops the server. */
async function exportForPeers(bench: Bench): Promise<PeerFiles> {
  const { booksDir, dataDir, info, client, server, hasExport } = bench;
  const peerFiles = {
    ledger: path.join(booksDir, 'books.journal'),
    hledger: path.join(booksDir, 'books.journal'),
    beancount: path.join(booksDir, 'books.beancount'),
  };
  let peerSource = 'the generator (the export is not there yet; voids left out)';
  if (hasExport) {
    for (const [format, key, ext] of [
      ['ledger', 'ledger', 'ledger'],
      ['hledger', 'hledger', 'journal'],
      ['beancount', 'beancount', 'beancount'],
    ] as const) {
      const reply = await client.request('GET', `/api/export?format=${format}`);
      if (reply.status !== 200) throw new Error(`export ${format}: ${reply.status} ${reply.text.slice(0, 200)}`);
      const file = path.join(dataDir, `export.${ext}`);
      fs.writeFileSync(file, reply.text);
      peerFiles[key] = file;
    }
    peerSource = 'GET /api/export';
  }
  info.peerSource = peerSource;
  client.close();
  await server.stop();

  // The load and the exports left a ledger's worth of pages waiting to be written back: done now,
  // not during the measurements (a commit's sync would wait for them).
  settleDisk();

  return peerFiles;
}

/**
 * `npm run serve` on a built checkout, from spawn to its ready line, over a new data folder: its
 * command (as npm runs it, and as the other measurements start the server), the same through npm,
 * and a bare `node` printing one line, the floor under both.
 */
async function measureServeStart(bench: Bench): Promise<void> {
  const { served } = bench;
  const starts = (fn: (dataDir: string) => Promise<number>) => async () => {
    const times: number[] = [];
    for (let i = 0; i < COUNTS.serveStarts; i++) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-bench-start-'));
      try {
        times.push(await fn(dataDir));
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
    return summarize(times);
  };
  const env = (dataDir: string) => ({ PORT: '0', LEDGER_DATA_DIR: dataDir, SECRET_KEY: BENCH_SECRET });
  const bareNode = await starts(() => msToFirstLine(process.execPath, ['-e', 'console.log("ready")'], {}))();
  const viaNpm = await starts((dataDir) => msToFirstLine('npm', ['run', '--silent', 'serve'], env(dataDir)))();
  await attempt('serve_ready', 'npm run serve to its ready line (built checkout, new data folder)', 'ms', async () => {
    const command = await starts(async (dataDir) => {
      const child = await startLedgerServer(served, dataDir, serverFlags);
      await child.stop();
      return child.readyMs;
    })();
    return {
      summary: command,
      raw: { label: 'bare node printing one line', summary: bareNode },
      ratio: bareNode.p50 / command.p50,
      target: { text: 'p50 well under 1000 ms', stat: 'p50', atMost: 500 },
      note: `the script's command (node ${served.nodeFlags.join(' ')} ${path.relative(REPO, served.entry)}); through npm itself (npm run serve) p50 ${viaNpm.p50.toFixed(0)} ms, of which npm's own start is the difference; median of ${COUNTS.serveStarts} starts each`,
    };
  });
}

/** Cold starts to the first balances over the loaded books; leaves the last server running as `bench.server`. */
async function measureColdStart(bench: Bench): Promise<void> {
  const { served, dataDir, token, ledgerFile } = bench;
  let server = bench.server;
  const cold: number[] = [];
  const coldReady: number[] = [];
  for (let i = 0; i < COUNTS.coldStarts; i++) {
    const start = process.hrtime.bigint();
    server = await startLedgerServer(served, dataDir, serverFlags);
    coldReady.push(server.readyMs);
    const c = new Client(server.url, token);
    await c.ok('GET', '/api/accounts/balances');
    cold.push(since(start));
    c.close();
    if (i < COUNTS.coldStarts - 1) await server.stop();
  }
  const rawCold: number[] = [];
  for (let i = 0; i < COUNTS.coldStarts; i++) {
    const start = process.hrtime.bigint();
    const child = await startChild(path.join(REPO, 'bench/raw-cold-start.ts'), [ledgerFile], {}, /(done)/);
    rawCold.push(since(start));
    await child.stop();
  }
  const coldSummary = summarize(cold);
  await attempt('cold_start', 'cold start to first balances', 'ms', async () => ({
    summary: coldSummary,
    raw: { label: 'node + open + balances query', summary: summarize(rawCold) },
    ratio: summarize(rawCold).p50 / coldSummary.p50,
    target: { text: '≤ 1000 ms', stat: 'p50', atMost: 1000 },
    note: `server ready line after ${summarize(coldReady).p50.toFixed(0)} ms`,
  }));
  bench.server = server;
  bench.client = new Client(server.url, bench.token);
}

/** All balances (today, past dates) and one account's, beside the raw query on the same file. */
async function measureBalances(bench: Bench, dates: string[]): Promise<void> {
  const { client, ids, ledgerFile } = bench;
  const raw = new RawLedger(ledgerFile);
  const today = new Date().toISOString().slice(0, 10);

  await attempt('balances_today', 'all balances, today', 'ms', async () => {
    const api = await timed(client, COUNTS.read, () => '/api/accounts/balances');
    const rawS = rawTimed(COUNTS.read, () => raw.balances(today));
    return {
      summary: api,
      raw: { label: 'month + day totals', summary: rawS },
      ratio: ratioOf(api, rawS),
      target: { text: 'p50 ≤ 5, p99 ≤ 20 ms', stat: 'p99', atMost: 20 },
    };
  });
  await attempt('balances_past', 'all balances, as of a past date', 'ms', async () => {
    const api = await timed(client, COUNTS.read, (i) => `/api/accounts/balances?as_of=${dates[i % dates.length]}`);
    const rawS = rawTimed(COUNTS.read, (i) => raw.balances(dates[i % dates.length]!));
    return {
      summary: api,
      raw: { label: 'month + day totals', summary: rawS },
      ratio: ratioOf(api, rawS),
      target: { text: 'p50 ≤ 5, p99 ≤ 20 ms', stat: 'p99', atMost: 20 },
    };
  });
  await attempt('account_balance', "one account's balance, any date", 'ms', async () => {
    const random = new Random('accounts');
    const picks = Array.from({ length: COUNTS.read + 5 }, () => ({
      id: random.pick(ids.all).id,
      asOf: random.chance(0.3) ? today : random.pick(dates),
    }));
    const api = await timed(
      client,
      COUNTS.read,
      (i) => `/api/accounts/${picks[i]!.id}/balance?as_of=${picks[i]!.asOf}`,
    );
    const rawS = rawTimed(COUNTS.read, (i) => raw.accountBalance(picks[i]!.id, picks[i]!.asOf));
    return {
      summary: api,
      raw: { label: "the account's totals", summary: rawS },
      ratio: ratioOf(api, rawS),
      target: { text: 'p50 ≤ 2 ms', stat: 'p50', atMost: 2 },
    };
  });
}

/** A year's income statement and a five-year net-worth series, beside the raw reads of month totals. */
async function measureReports(bench: Bench): Promise<void> {
  const { client, ledgerFile } = bench;
  const raw = new RawLedger(ledgerFile);
  await attempt('income_statement', "a year's income statement", 'ms', async () => {
    const years = ['2021', '2022', '2023', '2024', '2025'];
    const api = await timed(
      client,
      COUNTS.report,
      (i) => `/api/reports/income-statement?start_date=${years[i % 5]}-01-01&end_date=${years[i % 5]}-12-31`,
    );
    const rawS = rawTimed(COUNTS.report, (i) => raw.incomeStatement(`${years[i % 5]}-01-01`, `${years[i % 5]}-12-31`));
    return {
      summary: api,
      raw: { label: 'month totals of the year', summary: rawS },
      ratio: ratioOf(api, rawS),
      target: { text: 'p50 ≤ 20 ms', stat: 'p50', atMost: 20 },
    };
  });
  await attempt('net_worth', '5-year monthly net-worth series', 'ms', async () => {
    const api = await timed(
      client,
      COUNTS.report,
      () => `/api/reports/net-worth?start_date=2021-01-01&end_date=2025-12-31&interval=month`,
    );
    const rawS = rawTimed(COUNTS.report, () => raw.netWorth('2021-01-01', '2025-12-31'));
    return {
      summary: api,
      raw: { label: 'one grouped read of month totals', summary: rawS },
      ratio: ratioOf(api, rawS),
      target: { text: 'p50 ≤ 20 ms', stat: 'p50', atMost: 20 },
    };
  });

  raw.close();
}

/**
 * The same reads converted into USD (CONTRACT §16), beside the raw reads of the totals and rates.
 * Every request asks something new (another date or range), so that none is served from the
 * response cache: these rows measure the conversion itself, warm-up requests included in the
 * sequence (k counts every call).
 */
async function measureConverted(bench: Bench): Promise<void> {
  const { client, manifest, ledgerFile } = bench;
  const raw = new RawLedger(ledgerFile);
  const firstMs = Date.parse(`${manifest.firstDay}T00:00:00Z`);
  const convertedDays = Array.from({ length: COUNTS.read + 10 }, (_, i) =>
    new Date(firstMs + (30 + i * 10) * 86_400_000).toISOString().slice(0, 10),
  );
  let k = 0;
  const yearOf = (n: number) => 2021 + (n % 5);
  const yearEnd = (n: number) => `${yearOf(n)}-12-${String(31 - (Math.floor(n / 5) % 28)).padStart(2, '0')}`;
  const seriesEnd = (n: number) =>
    `2025-${String(1 + (n % 12)).padStart(2, '0')}-${String(1 + (Math.floor(n / 12) % 28)).padStart(2, '0')}`;
  await attempt('balances_converted', 'all balances in USD, as of a past date (none cached)', 'ms', async () => {
    k = 0;
    const api = await timed(
      client,
      COUNTS.read,
      () => `/api/accounts/balances?as_of=${convertedDays[k++]}&convert_to=USD`,
    );
    const rawS = rawTimed(COUNTS.read, (i) => raw.convertedBalances(convertedDays[i]!, 'USD'));
    return {
      summary: api,
      raw: { label: 'month + day totals, one rate per currency', summary: rawS },
      ratio: ratioOf(api, rawS),
      target: { text: 'p50 ≤ 5, p99 ≤ 20 ms', stat: 'p99', atMost: 20 },
    };
  });
  await attempt('income_statement_converted', "a year's income statement in USD (none cached)", 'ms', async () => {
    k = 0;
    const api = await timed(client, COUNTS.report, () => {
      const n = k++;
      return `/api/reports/income-statement?start_date=${yearOf(n)}-01-01&end_date=${yearEnd(n)}&convert_to=USD`;
    });
    const rawS = rawTimed(COUNTS.report, (i) => raw.convertedIncomeStatement(`${yearOf(i)}-01-01`, yearEnd(i), 'USD'));
    return {
      summary: api,
      raw: { label: 'month totals, day totals of EUR/JPY accounts, the rates', summary: rawS },
      ratio: ratioOf(api, rawS),
      target: { text: 'p50 ≤ 20 ms', stat: 'p50', atMost: 20 },
    };
  });
  await attempt('net_worth_converted', '5-year monthly net-worth series in USD (none cached)', 'ms', async () => {
    k = 0;
    const api = await timed(
      client,
      COUNTS.report,
      () => `/api/reports/net-worth?start_date=2021-01-01&end_date=${seriesEnd(k++)}&interval=month&convert_to=USD`,
    );
    const rawS = rawTimed(COUNTS.report, (i) => raw.convertedNetWorth('2021-01-01', seriesEnd(i), 'USD'));
    return {
      summary: api,
      raw: { label: 'the series read, the rates', summary: rawS },
      ratio: ratioOf(api, rawS),
      target: { text: 'p50 ≤ 20 ms', stat: 'p50', atMost: 20 },
    };
  });
  raw.close();
}

/**
 * Budgets: every EXPENSE and INCOME account budgeted each month of 2025, expenses
 * carried over, so that a month's read walks back through the year.
 */
async function measureBudgets(bench: Bench): Promise<void> {
  const { client, ids, ledgerFile } = bench;
  const raw = new RawLedger(ledgerFile);
  const budgetLines = ids.all
    .filter((a) => a.type === 'EXPENSE' || a.type === 'INCOME')
    .map((a) => ({
      account_id: a.id,
      amount: a.currency === 'JPY' ? '20000' : '250.00',
      carry_over: a.type === 'EXPENSE',
    }));
  const months2025 = Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, '0')}`);
  for (const month of months2025) await client.ok('PUT', `/api/budgets/${month}`, { lines: budgetLines });
  const uncachedTimed = (n: number, pathOf: (i: number) => string) => timedUncached(client, budgetLines, n, pathOf);
  await attempt(
    'budget_month',
    "a month's budget vs actual (carry-over through the year), uncached",
    'ms',
    async () => {
      const api = await uncachedTimed(COUNTS.report, (i) => `/api/budgets/${months2025[i % 12]}`);
      const rawS = rawTimed(COUNTS.report, (i) => raw.budgetMonth(months2025[i % 12]!));
      const scan = rawTimed(5, () => raw.monthFromLines('2025-06'));
      return {
        summary: api,
        raw: { label: 'budget lines, month totals and the carry-over months', summary: rawS },
        ratio: ratioOf(api, rawS),
        note: `${budgetLines.length} lines a month; the month's actuals summed from the lines instead: ${scan.p50.toFixed(1)} ms`,
      };
    },
  );
  await attempt('budget_year', "a year's budget vs actual report, uncached", 'ms', async () => {
    const api = await uncachedTimed(COUNTS.report, () => '/api/reports/budget-vs-actual?year=2025');
    const rawS = rawTimed(COUNTS.report, () => raw.budgetYear('2025'));
    return {
      summary: api,
      raw: { label: "the year's budget lines and month totals", summary: rawS },
      ratio: ratioOf(api, rawS),
    };
  });
  raw.close();
}

/** Register pages by account and by date range, first and any; returns the page counts. */
async function measureRegister(bench: Bench): Promise<Omit<Pages, 'dates'>> {
  const { client, ids, info, ledgerFile } = bench;
  const raw = new RawLedger(ledgerFile);
  const perPage = 50;
  const accountTotal: number = (
    await client.json('GET', `/api/journal-entries?account_id=${ids.checking}&per_page=${perPage}`)
  ).total;
  const accountPages = Math.max(1, Math.ceil(accountTotal / perPage));
  const rangeTotal: number = (
    await client.json('GET', `/api/journal-entries?start_date=2024-01-01&end_date=2024-12-31&per_page=${perPage}`)
  ).total;
  const rangePages = Math.max(1, Math.ceil(rangeTotal / perPage));
  info.register = {
    checkingEntries: accountTotal,
    checkingPages: accountPages,
    yearEntries: rangeTotal,
    yearPages: rangePages,
  };
  const pageRandom = new Random('pages');
  const anyAccountPage = Array.from({ length: COUNTS.page + 5 }, (_, i) =>
    i % 10 === 9 ? accountPages : pageRandom.int(1, accountPages),
  );
  const anyRangePage = Array.from({ length: COUNTS.page + 5 }, (_, i) =>
    i % 10 === 9 ? rangePages : pageRandom.int(1, rangePages),
  );
  await attempt('register_account_first', 'register by account (checking), first page', 'ms', async () => {
    const api = await timed(
      client,
      COUNTS.page,
      () => `/api/journal-entries?account_id=${ids.checking}&per_page=${perPage}`,
    );
    const rawS = rawTimed(COUNTS.page, () => raw.register({ accountId: ids.checking }, 1, perPage));
    return {
      summary: api,
      raw: { label: 'month and day counts + page + lines', summary: rawS },
      ratio: ratioOf(api, rawS),
      target: { text: 'p99 ≤ 15 ms', stat: 'p99', atMost: 15 },
    };
  });
  await attempt('register_account_any', `register by account, any page (of ${accountPages})`, 'ms', async () => {
    const api = await timed(
      client,
      COUNTS.page,
      (i) => `/api/journal-entries?account_id=${ids.checking}&per_page=${perPage}&page=${anyAccountPage[i]}`,
    );
    const rawS = rawTimed(COUNTS.page, (i) => raw.register({ accountId: ids.checking }, anyAccountPage[i]!, perPage));
    return {
      summary: api,
      raw: { label: 'month and day counts + page + lines', summary: rawS },
      ratio: ratioOf(api, rawS),
      target: { text: 'p99 ≤ 15 ms', stat: 'p99', atMost: 15 },
    };
  });
  // the account register screen (CONTRACT §15): lines with their running balance and other accounts
  const lineTotal: number = (await client.json('GET', `/api/accounts/${ids.checking}/register?per_page=${perPage}`))
    .total;
  const linePages = Math.max(1, Math.ceil(lineTotal / perPage));
  info.registerLines = { checkingLines: lineTotal, checkingLinePages: linePages };
  const anyLinePage = Array.from({ length: COUNTS.page + 5 }, (_, i) =>
    i % 10 === 9 ? linePages : pageRandom.int(1, linePages),
  );
  const registerPath = (page: number) => `/api/accounts/${ids.checking}/register?per_page=${perPage}&page=${page}`;
  // the same page or search asked again is the answer kept for an unchanged ledger: these are computed
  const touchLines = ids.all
    .filter((a) => a.type === 'EXPENSE' && a.currency === 'USD')
    .slice(0, 2)
    .map((a) => ({ account_id: a.id, amount: '1.00' }));
  const uncached = (n: number, pathOf: (i: number) => string) => timedUncached(client, touchLines, n, pathOf);
  await attempt('account_register_first', 'account register (checking), first page, uncached', 'ms', async () => {
    const api = await uncached(COUNTS.page, () => registerPath(1));
    const rawS = rawTimed(COUNTS.page, () => raw.accountRegister(ids.checking, 1, perPage));
    return {
      summary: api,
      raw: { label: 'month and day counts + lines + balance + other accounts', summary: rawS },
      ratio: ratioOf(api, rawS),
      target: { text: 'p99 ≤ 15 ms', stat: 'p99', atMost: 15 },
    };
  });
  await attempt('account_register_any', `account register, any page (of ${linePages}), uncached`, 'ms', async () => {
    const api = await uncached(COUNTS.page, (i) => registerPath(anyLinePage[i]!));
    const rawS = rawTimed(COUNTS.page, (i) => raw.accountRegister(ids.checking, anyLinePage[i]!, perPage));
    return {
      summary: api,
      raw: { label: 'month and day counts + lines + balance + other accounts', summary: rawS },
      ratio: ratioOf(api, rawS),
      target: { text: 'p99 ≤ 15 ms', stat: 'p99', atMost: 15 },
    };
  });
  // search (q=): a common memo word, a rarer phrase, an amount
  const searches: [string, string, string, () => number][] = [
    [
      'search_word',
      'search a common memo word ("kroger"), uncached',
      'kroger',
      () => raw.searchWords('"kroger"*', perPage),
    ],
    [
      'search_words',
      'search two memo words ("dividend vti"), uncached',
      'dividend vti',
      () => raw.searchWords('"dividend"* "vti"*', perPage),
    ],
    [
      'search_amount',
      'search an amount (79.99), uncached',
      '79.99',
      () => raw.searchAmount(7999n, 'USD', '"79.99"', perPage),
    ],
  ];
  for (const [id, label, q, rawRead] of searches) {
    await attempt(id, label, 'ms', async () => {
      const api = await uncached(
        COUNTS.page,
        () => `/api/journal-entries?q=${encodeURIComponent(q)}&per_page=${perPage}`,
      );
      const rawS = rawTimed(COUNTS.page, rawRead);
      return {
        summary: api,
        raw: { label: 'matches counted to 1,000 past the page + page + lines', summary: rawS },
        ratio: ratioOf(api, rawS),
        target: { text: 'p99 ≤ 50 ms', stat: 'p99', atMost: 50 },
      };
    });
  }
  await attempt('register_range_first', 'entries of a year (date range), first page', 'ms', async () => {
    const api = await timed(
      client,
      COUNTS.page,
      () => `/api/journal-entries?start_date=2024-01-01&end_date=2024-12-31&per_page=${perPage}`,
    );
    const rawS = rawTimed(COUNTS.page, () => raw.register({ start: '2024-01-01', end: '2024-12-31' }, 1, perPage));
    return {
      summary: api,
      raw: { label: 'month and day counts + page + lines', summary: rawS },
      ratio: ratioOf(api, rawS),
    };
  });
  await attempt('register_range_any', `entries of a year, any page (of ${rangePages})`, 'ms', async () => {
    const api = await timed(
      client,
      COUNTS.page,
      (i) =>
        `/api/journal-entries?start_date=2024-01-01&end_date=2024-12-31&per_page=${perPage}&page=${anyRangePage[i]}`,
    );
    const rawS = rawTimed(COUNTS.page, (i) =>
      raw.register({ start: '2024-01-01', end: '2024-12-31' }, anyRangePage[i]!, perPage),
    );
    return {
      summary: api,
      raw: { label: 'month and day counts + page + lines', summary: rawS },
      ratio: ratioOf(api, rawS),
    };
  });
  raw.close();
  return { perPage, accountPages, rangePages };
}

/**
 * Read throughput, 50 clients of mixed GETs, against a bare Express route with the same bodies;
 * returns the bare route's time for the raw posting transaction, the writes' reference.
 */
async function measureThroughput(
  bench: Bench,
  pages: Pages,
  memorySampler: MemorySampler,
  readsToo = true,
): Promise<Summary> {
  const { client, ids, info, manifest, dataDir, ledgerFile, server, token } = bench;
  const { perPage, accountPages, rangePages, dates } = pages;
  const entryBody = (i: number) => postingBody(ids, i);
  const auth = { authorization: `Bearer ${token}` };
  memorySampler.phase('read throughput');
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
    JSON.stringify(readsToo ? await Promise.all(viewPaths.map(async (p) => (await client.ok('GET', p)).text)) : []),
  );
  // and a copy of the ledger for the bare route's raw posting transaction
  const bareCopy = copyOfLedger(ledgerFile, path.join(dataDir, 'bare-copy.sqlite'));
  settleDisk();
  const bare = await startChild(
    path.join(REPO, 'bench/bare-express.ts'),
    [cannedFile, bareCopy],
    {},
    /listening on (http:\S+)/,
  );
  const bareClient = new Client(bare.url);
  for (let i = 0; i < 20; i++) await bareClient.ok('POST', '/api/echo', entryBody(i));
  const barePost = summarize(
    await timeEach(COUNTS.postSequential, (i) => bareClient.ok('POST', '/api/echo', entryBody(i))),
  );
  for (let i = 0; i < 5; i++) await bareClient.ok('POST', '/api/raw-post', entryBody(i));
  const bareRawPost = summarize(
    await timeEach(COUNTS.postSequential, (i) => bareClient.ok('POST', '/api/raw-post', entryBody(i))),
  );
  bareClient.close();
  info.bareExpress = { postSequential: barePost, rawPostSequential: bareRawPost };
  await attempt('bare_post', 'bare Express POST of the same JSON, one at a time', 'ms', async () => ({
    summary: barePost,
  }));
  await attempt(
    'bare_raw_post',
    'bare Express POST running only the raw posting transaction, one at a time',
    'ms',
    async () => ({ summary: bareRawPost }),
  );
  if (!readsToo) {
    await bare.stop();
    return bareRawPost;
  }
  const ping: LoadRequest[] = [{ method: 'GET', path: '/api/ping' }];
  const cannedViews: LoadRequest[] = viewPaths.map((_, i) => ({ method: 'GET', path: `/api/canned/${i}` }));
  await load(bare.url, { connections: 50, amount: 2000, requests: ping });
  const ceiling = await load(bare.url, { connections: 50, amount: COUNTS.bare, requests: ping });
  // The API's cached reads and the bare route with the same bodies, measured in turns (three each,
  // the median kept): the two cores' speed drifts by ±10 % over a run, and this load generator shares them.
  await load(bare.url, { connections: 50, amount: COUNTS.mixedWarmUp, requests: cannedViews });
  await load(server.url, { connections: 50, amount: COUNTS.mixedWarmUp, requests: views });
  const bareTurns: LoadResult[] = [];
  const apiTurns: LoadResult[] = [];
  for (let turn = 0; turn < COUNTS.mixedTurns; turn++) {
    bareTurns.push(await load(bare.url, { connections: 50, amount: COUNTS.mixed, requests: cannedViews }));
    apiTurns.push(await load(server.url, { connections: 50, amount: COUNTS.mixed, requests: views }));
  }
  const cannedCeiling = medianByRate(bareTurns);
  const cachedReads = medianByRate(apiTurns);
  const bareMemory = memoryOf(bare.pid);
  await bare.stop();
  info.bareExpress = {
    postSequential: barePost,
    rawPostSequential: bareRawPost,
    ping: { requestsPerSecond: ceiling.rate, latency: ceiling.latency },
    sameBodies: { requestsPerSecond: cannedCeiling.rate, latency: cannedCeiling.latency },
    rssMb: bareMemory?.rssMb,
  };
  await attempt('bare_ping', 'bare Express route, tiny body, 50 clients', 'req/s', async () => ({
    value: ceiling.rate,
    note: `latency p50 ${ceiling.latency.p50.toFixed(1)} ms, p99 ${ceiling.latency.p99.toFixed(1)} ms`,
  }));
  await attempt('mixed_reads', 'read throughput, 50 clients, the same 6 views over and over', 'req/s', async () => {
    const result = cachedReads;
    const failed = apiTurns.find((turn) => turn.failures);
    if (failed) throw new Error(`${failed.failures} failed: ${failed.firstFailure}`);
    return {
      value: result.rate,
      raw: { label: 'bare Express, same bodies', value: cannedCeiling.rate },
      ratio: result.rate / cannedCeiling.rate,
      target: { text: '≥ 70% of bare Express', stat: 'ratio', atLeast: 0.7 },
      note: `median of ${COUNTS.mixedTurns} turns, each after one of the bare route's (API ${apiTurns.map((t) => t.rate.toFixed(0)).join(', ')}; bare ${bareTurns.map((t) => t.rate.toFixed(0)).join(', ')} req/s); latency p50 ${result.latency.p50.toFixed(1)} ms, p99 ${result.latency.p99.toFixed(1)} ms; bare Express with the same bodies ${cannedCeiling.rate.toFixed(0)} req/s, with a tiny body ${ceiling.rate.toFixed(0)} req/s (${((result.rate / ceiling.rate) * 100).toFixed(0)}% of that)`,
    };
  });
  await attempt(
    'mixed_reads_distinct',
    'read throughput, 50 clients, every request a different query',
    'req/s',
    async () => {
      const random = new Random('distinct-reads');
      const distinct: LoadRequest[] = Array.from({ length: COUNTS.mixedDistinct }, (_, i) => {
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
      const result = await load(server.url, { connections: 50, amount: COUNTS.mixedDistinct, requests: distinct });
      if (result.failures) throw new Error(`${result.failures} failed: ${result.firstFailure}`);
      return {
        value: result.rate,
        raw: { label: 'bare Express, same kind of bodies', value: cannedCeiling.rate },
        ratio: result.rate / cannedCeiling.rate,
        note: `latency p50 ${result.latency.p50.toFixed(1)} ms, p99 ${result.latency.p99.toFixed(1)} ms; nothing kept can answer these`,
      };
    },
  );

  return bareRawPost;
}

/** Postings one at a time and from 50 clients, beside the raw transaction; returns the raw writer on a copy of the ledger. */
async function measureWrites(bench: Bench, memorySampler: MemorySampler, bareRawPost: Summary): Promise<RawLedger> {
  const { client, ids, dataDir, ledgerFile, server, token } = bench;
  const entryBody = (i: number) => postingBody(ids, i);
  const auth = { authorization: `Bearer ${token}` };
  await client.json('GET', '/api/accounts/balances');
  const copyFile = copyOfLedger(ledgerFile, path.join(dataDir, 'raw-copy.sqlite'));
  const rawWrites = new RawLedger(copyFile);
  settleDisk();
  let rawPostRate = NaN;
  let rawPaced: Summary = summarize([]);
  memorySampler.phase('posting');

  await attempt('post_sequential', 'post one entry, one request at a time', 'ms', async () => {
    for (let i = 0; i < 5; i++) await client.json('POST', '/api/journal-entries', entryBody(i), 201);
    const api = summarize(
      await timeEach(COUNTS.postSequential, (i) => client.json('POST', '/api/journal-entries', entryBody(i), 201)),
    );
    const rawPost = (i: number) =>
      rawWrites.postEntry(
        entryBody(i).entry_date,
        ids.groceries,
        ids.checking,
        BigInt((i % 90) + 10) * 100n + 25n,
        'USD',
      );
    const rawS = rawTimed(COUNTS.postSequential, rawPost);
    rawPaced = await rawPacedTimed(COUNTS.postPaced, rawPost);
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
  await attempt(
    'raw_post_paced',
    'raw posting transaction with a 1 ms pause before each (as between requests)',
    'ms',
    async () => ({
      summary: rawPaced,
      note: `the same transaction as the raw limit of posting, ${(rawPaced.mean / (1000 / rawPostRate)).toFixed(2)}× its mean time once the process pauses between transactions as a server does between requests (the commit's sync to disk is slower after a pause on this machine)`,
    }),
  );
  // Concurrent posting (group commit): the requests that arrive together share one transaction and
  // one sync to disk. One client, 8 and 50 through the same load generator, each beside the bare
  // Express route that runs only the raw transaction with the simplest group commit (its own copy of
  // the file): the most an Express API with this durability can post at once on this machine.
  const postRequests = Array.from({ length: 12 }, (_, i) => ({
    method: 'POST',
    path: '/api/journal-entries',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(entryBody(i)),
  }));
  const bareRequests = postRequests.map((r) => ({ ...r, path: '/api/raw-post-grouped' }));
  const writerRequests = postRequests.map((r) => ({ ...r, path: '/api/raw-post-writer' }));
  const bareCopy = copyOfLedger(ledgerFile, path.join(dataDir, 'bare-grouped-copy.sqlite'));
  settleDisk();
  const bare = await startChild(
    path.join(REPO, 'bench/bare-express.ts'),
    ['', bareCopy],
    {},
    /listening on (http:\S+)/,
  );
  /** A load run, and the CPU the server's main thread spent on each request meanwhile (ms). */
  const posting = async (url: string, pid: number, requests: LoadRequest[], connections: number, amount: number) => {
    const cpuBefore = mainThreadCpuMs(pid);
    const machineBefore = machineBusyMs();
    const result = await load(url, { connections, amount, requests });
    if (result.failures) throw new Error(`${result.failures} failed: ${result.firstFailure}`);
    return {
      ...result,
      cpuMs: (mainThreadCpuMs(pid) - cpuBefore) / amount,
      machineMs: (machineBusyMs() - machineBefore) / amount,
    };
  };
  await posting(bare.url, bare.pid, bareRequests, 8, 200);
  await posting(bare.url, bare.pid, writerRequests, 8, 200);
  type Posting = LoadResult & { cpuMs: number; machineMs: number };
  const rates = new Map<number, { api: Posting; bare: Posting; writer: Posting }>();
  const measured = (clients: number) => {
    const pair = rates.get(clients);
    if (!pair) throw ratesFailed instanceof Error ? ratesFailed : new Error(`no rate for ${clients} clients`);
    return pair;
  };
  let ratesFailed: unknown;
  try {
    for (const clients of [1, 8, 50]) {
      const amount = clients === 1 ? COUNTS.postSequential : COUNTS.postConcurrent;
      const api = await posting(server.url, server.pid, postRequests, clients, amount);
      const grouped = await posting(bare.url, bare.pid, bareRequests, clients, amount);
      const writer = await posting(bare.url, bare.pid, writerRequests, clients, amount);
      rates.set(clients, { api, bare: grouped, writer });
    }
  } catch (error) {
    ratesFailed = error;
  }
  await bare.stop();
  const latency = (r: LoadResult) => `latency p50 ${r.latency.p50.toFixed(1)} ms, p99 ${r.latency.p99.toFixed(1)} ms`;
  await attempt('post_one_client', 'post entries, one client', 'req/s', async () => {
    const { api, bare } = measured(1);
    return {
      value: api.rate,
      raw: { label: 'bare route with group commit, one client', value: bare.rate },
      ratio: api.rate / bare.rate,
      note: `${latency(api)}; the raw single-transaction rate ${rawPostRate.toFixed(0)}/s`,
    };
  });
  // Sharing the sync to disk saves what one client waits for beyond the server's own work: when the
  // server's main thread is busy all the time, 8 clients post at most one entry per its CPU time an
  // entry, against one client's one entry per round trip.
  const shareCeiling = (one: Posting, many: Posting) =>
    `the server's main thread ${many.cpuMs.toFixed(2)} ms of CPU an entry at 8 clients (${((many.cpuMs * many.rate) / 10).toFixed(0)}% of a core), one client's round trip ${(1000 / one.rate).toFixed(2)} ms (${one.cpuMs.toFixed(2)} ms of it the main thread's CPU): sharing the sync can give 8 clients at most ${(1000 / one.rate / many.cpuMs).toFixed(2)}× one client`;
  // What the whole machine can give, however the server spread its work over threads: its cores
  // divided by the CPU each request cost everything that runs (the server, the load generator, the
  // kernel's networking).
  const machineCeiling = (many: Posting, against: number, what: string) => {
    const most = (os.cpus().length * 1000) / many.machineMs;
    return `the whole machine spent ${many.machineMs.toFixed(2)} ms of CPU a request (server, load generator, kernel): its ${os.cpus().length} cores give at most ${most.toFixed(0)}/s = ${(most / against).toFixed(2)}× ${what}, however the server shares out its work`;
  };
  await attempt('post_concurrent_8', 'post entries, 8 concurrent clients', 'req/s', async () => {
    const { api } = measured(8);
    return {
      value: api.rate,
      raw: { label: 'one client', value: measured(1).api.rate },
      ratio: api.rate / measured(1).api.rate,
      target: { text: '≥ 3× one client', stat: 'ratio', atLeast: 3 },
      note: `${latency(api)}; ${((api.rate / measured(8).bare.rate) * 100).toFixed(0)}% of the bare route's 8 clients; ${shareCeiling(measured(1).api, api)}; ${machineCeiling(api, measured(1).api.rate, 'one client')}`,
    };
  });
  await attempt('post_concurrent', 'post entries, 50 concurrent clients', 'req/s', async () => {
    const { api } = measured(50);
    return {
      value: api.rate,
      raw: { label: 'raw single-transaction rate', value: rawPostRate },
      ratio: api.rate / rawPostRate,
      target: { text: '≥ 1.5× the raw single-transaction rate', stat: 'ratio', atLeast: 1.5 },
      note: `${latency(api)}; ${((api.rate / measured(50).bare.rate) * 100).toFixed(0)}% of the bare route's 50 clients; ${machineCeiling(api, rawPostRate, 'the raw rate')}`,
    };
  });
  await attempt('bare_grouped_8', 'bare route with group commit, 8 clients', 'req/s', async () => {
    const { bare } = measured(8);
    return {
      value: bare.rate,
      raw: { label: 'the bare route, one client', value: measured(1).bare.rate },
      ratio: bare.rate / measured(1).bare.rate,
      note: `the ceiling of the row "8 concurrent clients": its rate against its own one client; ${latency(bare)}; ${shareCeiling(measured(1).bare, bare)}`,
    };
  });
  await attempt('bare_grouped_50', 'bare route with group commit, 50 clients', 'req/s', async () => {
    const { bare } = measured(50);
    return {
      value: bare.rate,
      raw: { label: 'raw single-transaction rate', value: rawPostRate },
      ratio: bare.rate / rawPostRate,
      note: `the ceiling of the row "50 concurrent clients"; ${latency(bare)}`,
    };
  });
  // The same bare route with its SQL on a writer thread: what taking the posting's SQL off the thread
  // that runs HTTP can give, at 8 and 50 clients.
  await attempt('bare_writer_8', 'bare route with its SQL on a writer thread, 8 clients', 'req/s', async () => {
    const { writer } = measured(8);
    const one = measured(1).writer;
    return {
      value: writer.rate,
      raw: { label: 'the same route, one client', value: one.rate },
      ratio: writer.rate / one.rate,
      note: `${latency(writer)}; the HTTP thread ${writer.cpuMs.toFixed(2)} ms of CPU a request (${one.cpuMs.toFixed(2)} with one client); ${machineCeiling(writer, one.rate, 'its one client')}`,
    };
  });
  await attempt('bare_writer_50', 'bare route with its SQL on a writer thread, 50 clients', 'req/s', async () => {
    const { writer } = measured(50);
    return {
      value: writer.rate,
      raw: { label: 'raw single-transaction rate', value: rawPostRate },
      ratio: writer.rate / rawPostRate,
      note: `${latency(writer)}; the HTTP thread ${writer.cpuMs.toFixed(2)} ms of CPU a request`,
    };
  });
  await attempt('post_batch', `post ${BATCH_ENTRIES} entries in one request (batch)`, 'ms', async () => {
    const batch = (round: number) => ({
      entries: Array.from({ length: BATCH_ENTRIES }, (_, i) => entryBody(round * BATCH_ENTRIES + i)),
    });
    await client.json('POST', '/api/journal-entries/batch', batch(0), 201);
    const api = summarize(
      await timeEach(COUNTS.postBatches, (round) =>
        client.json('POST', '/api/journal-entries/batch', batch(round + 1), 201),
      ),
    );
    const rawS = rawTimed(COUNTS.postBatches, (round) =>
      rawWrites.postEntries(
        batch(round).entries.map((e, i) => ({
          date: e.entry_date,
          debit: ids.groceries,
          credit: ids.checking,
          minor: BigInt(((round * BATCH_ENTRIES + i) % 90) + 10) * 100n + 25n,
          currency: 'USD',
        })),
      ),
    );
    return {
      summary: api,
      raw: { label: `${BATCH_ENTRIES} entries in one transaction`, summary: rawS },
      ratio: ratioOf(api, rawS),
      target: { text: '< 0.5 s', stat: 'p99', atMost: 500 },
      note: `${((BATCH_ENTRIES * 1000) / api.p50).toFixed(0)} entries/s`,
    };
  });

  return rawWrites;
}

/**
 * Runs a long operation with bench/probe.ts asking the server meanwhile: keeps the longest silence of
 * each, and the memory each takes (as the sampler's phase `during <op>`).
 */
class ProbedRuns {
  readonly stalls: ({ op: string } & ProbeStall)[] = [];
  private readonly bench: Bench;
  private readonly memorySampler: MemorySampler;
  constructor(bench: Bench, memorySampler: MemorySampler) {
    this.bench = bench;
    this.memorySampler = memorySampler;
  }

  async run<T>(op: string, fn: () => Promise<T>): Promise<{ result: T; ms: number; stall: ProbeStall }> {
    this.memorySampler.phase(`during ${op}`);
    const probe = new Probe(
      this.bench.server.url,
      this.bench.token,
      `/api/accounts/${this.bench.ids.groceries}/balance`,
    );
    await probe.start();
    try {
      await new Promise((r) => setTimeout(r, 100));
      const start = process.hrtime.bigint();
      const result = await fn();
      const ms = since(start);
      const stall = await probe.stop();
      this.stalls.push({ op, ...stall });
      return { result, ms, stall };
    } finally {
      await probe.stop();
    }
  }
}

/** Statement imports (10k and 100k rows) and reconciliation runs, beside raw inserts and reads. */
async function measureStatements(bench: Bench, probes: ProbedRuns, rawWrites: RawLedger): Promise<void> {
  const { client, ids, booksDir, manifest } = bench;
  const withProbe = <T>(op: string, fn: () => Promise<T>) => probes.run(op, fn);
  settleDisk();
  const checkingStatement = JSON.parse(fs.readFileSync(path.join(booksDir, 'statement-checking.json'), 'utf8')) as {
    transactions: BankRow[];
  };
  const cardStatement = JSON.parse(fs.readFileSync(path.join(booksDir, 'statement-card.json'), 'utf8')) as {
    transactions: BankRow[];
  };
  let statementId = '';
  let rawStatementId = '';
  await attempt(
    'statement_10k',
    `statement import, ${checkingStatement.transactions.length} rows (JSON)`,
    's',
    async () => {
      const times: number[] = [];
      const targets = [ids.checking, ids.savings, ids.amex].slice(0, COUNTS.statementCopies);
      for (const [i, accountId] of targets.entries()) {
        const transactions =
          i === 0
            ? checkingStatement.transactions
            : checkingStatement.transactions.map((t) => ({ ...t, external_id: `${t.external_id}-copy${i}` }));
        const { result, ms } = await withProbe('statement_10k', () =>
          client.json(
            'POST',
            '/api/statements',
            { account_id: accountId, name: `Bench statement ${i + 1}`, transactions },
            201,
          ),
        );
        if (i === 0) statementId = result.id;
        times.push(ms / 1000);
      }
      const rawStart = process.hrtime.bigint();
      rawStatementId = rawWrites.importStatement(ids.checking, checkingStatement.transactions);
      const rawS = summarize([since(rawStart) / 1000]);
      const api = summarize(times);
      return { summary: api, raw: { label: 'one transaction of inserts', summary: rawS }, ratio: rawS.p50 / api.p50 };
    },
  );
  /** A reconciliation run of the statement over HTTP, and the raw reads and inserts of the same run. */
  const reconcile = async (apiStatementId: string, rawId: string, target: Operation['target']) => {
    const { result, ms } = await withProbe('reconciliation', () =>
      client.json('POST', '/api/reconciliation/run', { statement_id: apiStatementId }, [200, 201]),
    );
    const rawStart = process.hrtime.bigint();
    rawWrites.reconciliationData(rawId, ids.checking);
    const rawMs = since(rawStart);
    return {
      summary: summarize([ms / 1000]),
      raw: { label: 'reads + match inserts, no scoring', summary: summarize([rawMs / 1000]) },
      ratio: rawMs / ms,
      ...(target ? { target } : {}),
      note: `auto-accepted ${result.summary?.auto_accepted}, review ${result.summary?.pending_review}, unmatched ${result.summary?.unmatched}`,
    };
  };
  const runTarget = { text: '≤ 3 s', stat: 'max', atMost: 3 } as const;
  const recent = manifest.recentStatement;
  // The target is for 10,000 bank rows against 100,000 entries: the whole statement at 100k; at 1m,
  // where it spans checking's 450,000 entries, the recent statement below.
  await attempt(
    'reconciliation',
    `reconciliation run, ${checkingStatement.transactions.length} bank txns vs ${manifest.entries} entries (${manifest.checkingEntries} on checking)`,
    's',
    async () => {
      if (!statementId) throw new Error('no statement to reconcile');
      return reconcile(statementId, rawStatementId, recent ? undefined : runTarget);
    },
  );
  if (recent) {
    await attempt(
      'reconciliation_recent',
      `reconciliation run, ${recent.rows} bank txns vs the ${recent.checkingEntries} checking entries from ${recent.firstDay} on`,
      's',
      async () => {
        const rows = (
          JSON.parse(fs.readFileSync(path.join(booksDir, 'statement-checking-recent.json'), 'utf8')) as {
            transactions: BankRow[];
          }
        ).transactions;
        const { result } = await withProbe('statement_10k', () =>
          client.json(
            'POST',
            '/api/statements',
            { account_id: ids.checking, name: 'Bench recent statement', transactions: rows },
            201,
          ),
        );
        return reconcile(result.id as string, rawWrites.importStatement(ids.checking, rows), runTarget);
      },
    );
  }
  await attempt(
    'statement_100k',
    `statement import, ${cardStatement.transactions.length} rows (JSON)`,
    's',
    async () => {
      const { ms } = await withProbe('statement_100k', () =>
        client.json(
          'POST',
          '/api/statements',
          { account_id: ids.card, name: 'Bench card statement', transactions: cardStatement.transactions },
          201,
        ),
      );
      const rawStart = process.hrtime.bigint();
      rawWrites.importStatement(ids.card, cardStatement.transactions);
      const rawMs = since(rawStart);
      return {
        summary: summarize([ms / 1000]),
        raw: { label: 'one transaction of inserts', summary: summarize([rawMs / 1000]) },
        ratio: rawMs / ms,
        target: { text: '≤ 5 s', stat: 'max', atMost: 5 },
      };
    },
  );
  await attempt(
    'statement_100k_rules',
    `statement import, ${cardStatement.transactions.length} rows (JSON), with ${BENCH_RULES.length} rules applied to every row`,
    's',
    async () => {
      // Both imports go to an account of their own with no rows yet, the first without rules and
      // then, that statement deleted, the same rows with the rules: the one difference is the rules
      // (the card account already holds these rows, which makes any import of them slower).
      const account = await client.json<{ id: string }>('POST', '/api/accounts', {
        name: 'Bench card, rules',
        type: 'LIABILITY',
      });
      const body = {
        account_id: account.id,
        name: 'Bench card statement, rules',
        transactions: cardStatement.transactions,
      };
      const plain = await withProbe('statement_100k', () => client.json('POST', '/api/statements', body, 201));
      await client.ok('DELETE', `/api/statements/${plain.result.id as string}`);
      for (const rule of BENCH_RULES)
        await client.json('POST', '/api/rules', { ...rule, account_id: ids.groceries }, 201);
      const { ms, result } = await withProbe('statement_100k', () => client.json('POST', '/api/statements', body, 201));
      return {
        summary: summarize([ms / 1000]),
        raw: { label: 'the same import without rules', summary: summarize([plain.ms / 1000]) },
        ratio: plain.ms / ms,
        target: { text: '≤ 1.2 × the import without rules', stat: 'max', atMost: (1.2 * plain.ms) / 1000 },
        note: `${result.rule_matched_count} of ${body.transactions.length} rows matched a rule; without rules ${(plain.ms / 1000).toFixed(2)} s`,
      };
    },
  );
}

/**
 * Rules as a household keeps them: payee words, a few patterns, amount bands and directions. The
 * card's rows are written by bench/generate.ts ("AMAZON MKTP", "SHELL OIL", ...), so some match.
 */
const BENCH_RULES = [
  ...[
    'amazon',
    'shell',
    'whole foods',
    'trader joe',
    'starbucks',
    'uber',
    'netflix',
    'spotify',
    'costco',
    'target',
  ].map((value) => ({ name: value, description: { op: 'contains', value } })),
  ...['safeway', 'chevron', 'walgreens', 'cvs', 'apple'].map((value) => ({
    name: value,
    description: { op: 'starts_with', value },
  })),
  ...['payment thank you', 'interest charge', 'annual fee'].map((value) => ({
    name: value,
    description: { op: 'equals', value },
  })),
  { name: 'parking', description: { op: 'regex', value: '(park|garage)[a-z]* ?#?\\d+' } },
  { name: 'restaurants', description: { op: 'regex', value: '\\b(cafe|grill|bistro|pizza)\\b' } },
  { name: 'small', type: 'debit', amount_max: '2.50' },
  { name: 'refunds', type: 'credit', amount_min: '0.01', amount_max: '20' },
];

/**
 * reconcile-status of the account with the most lines, from the cleared day totals, beside the
 * raw recount from its lines that those totals replace; after ticking two lines in three cleared.
 */
async function measureReconcileStatus(bench: Bench): Promise<void> {
  const { client, ids, ledgerFile } = bench;
  await attempt('reconcile_status', 'reconcile-status of the checking account, any date', 'ms', async () => {
    const writer = new Database(ledgerFile);
    writer.pragma('busy_timeout = 10000');
    const lines = (
      writer.prepare('SELECT COUNT(*) AS n FROM journal_lines WHERE account_id = ?').get(ids.checking) as { n: number }
    ).n;
    writer
      .prepare(
        "UPDATE journal_lines SET cleared = 'cleared' WHERE account_id = ? AND cleared = 'uncleared' AND rowid % 3 <> 0",
      )
      .run(ids.checking);
    writer.close();
    const random = new Random('reconcile');
    const dates = Array.from(
      { length: COUNTS.read + 5 },
      () => `${random.int(2020, 2025)}-${String(random.int(1, 12)).padStart(2, '0')}-28`,
    );
    // a new balance each time: no kept answer is given again
    const api = await timed(
      client,
      COUNTS.read,
      (i) => `/api/accounts/${ids.checking}/reconcile?statement_date=${dates[i]}&statement_balance=${i}.00`,
    );
    const raw = new Database(ledgerFile, { readonly: true });
    const recount = raw.prepare(
      `SELECT SUM(CASE l.direction WHEN 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) AS net, SUM(l.cleared = 'uncleared') AS u
         FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
        WHERE l.account_id = ? AND l.entry_date <= ? AND e.status = 'posted' AND e.reverses_entry_id IS NULL`,
    );
    const rawS = rawTimed(Math.min(COUNTS.read, 20), (i) => recount.get(ids.checking, dates[i]!));
    raw.close();
    return {
      summary: api,
      raw: { label: 'recount from the lines', summary: rawS },
      ratio: ratioOf(api, rawS),
      target: { text: 'p50 ≤ 2 ms', stat: 'p50', atMost: 2 },
      note: `${lines} lines on the account, two in three cleared`,
    };
  });
}

/**
 * Reads that once held the event loop for seconds at 1M: the unmatched list (read from maintained
 * counts) and an export (made on the job worker and streamed), each with the probe.
 */
async function measureLongReads(bench: Bench, probes: ProbedRuns): Promise<void> {
  const { client, server, token } = bench;
  const withProbe = <T>(op: string, fn: () => Promise<T>) => probes.run(op, fn);
  for (const [id, label, pageOf] of [
    ['unmatched_first', 'unmatched list (bank lines and entries), first page', () => 1],
    ['unmatched_deep', 'unmatched list, a deep page', (total: number) => Math.max(1, Math.floor((total / 50) * 0.9))],
  ] as const) {
    await attempt(id, label, 'ms', async () => {
      const total = (await client.json('GET', '/api/reconciliation/unmatched?per_page=1')).total as number;
      const page = pageOf(total);
      const { result, stall } = await withProbe(id, () =>
        timeEach(5, () => client.ok('GET', `/api/reconciliation/unmatched?per_page=50&page=${page}`)),
      );
      return {
        summary: summarize(result),
        note: `page ${page} of ${Math.ceil(total / 50)}; longest silence ${stall.maxMs.toFixed(0)} ms, ${stall.over50}/${stall.n} probes over 50 ms`,
      };
    });
  }
  await attempt('export_ledger', 'export, ledger format (streamed)', 's', async () => {
    const {
      result: bytes,
      ms,
      stall,
    } = await withProbe('export_ledger', async () => {
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
}

/** The longest silence of the server over every probed run. */
async function reportStalls(stalls: ProbedRuns['stalls']): Promise<void> {
  await attempt(
    'event_loop',
    'longest silence of the server during imports, runs, exports and the unmatched list',
    'ms',
    async () => {
      const worst = stalls.reduce((m, s) => Math.max(m, s.maxMs), 0);
      return {
        value: worst,
        target: { text: '≤ ~50 ms', stat: 'value', atMost: 60 },
        note: stalls
          .map((s) => `${s.op}: max ${s.maxMs.toFixed(0)} ms, ${s.over50}/${s.n} probes over 50 ms`)
          .join('; '),
      };
    },
  );
}

/** The server's resident memory, at its peak and by phase; stops the server. */
async function measureMemory(bench: Bench, memorySampler: MemorySampler): Promise<void> {
  const { client, info, server } = bench;
  const memory = memoryOf(server.pid);
  const peaks = memorySampler.stop();
  info.memoryPeaksMb = peaks;
  const everyday = Math.max(
    ...Object.entries(peaks)
      .filter(([k]) => !k.startsWith('during '))
      .map(([, v]) => v),
  );
  await attempt('rss', 'server resident memory, peak', 'MB', async () => ({
    value: memory?.peakMb ?? NaN,
    raw: { label: 'bare Express process', value: (info.bareExpress as { rssMb?: number } | undefined)?.rssMb ?? NaN },
    target: { text: '≤ 250 MB', stat: 'value', atMost: 250 },
    note: `peak ${Math.round(memory?.peakMb ?? NaN)} MB; by phase ${Object.entries(peaks)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')} MB; ${Math.round(memory?.rssMb ?? NaN)} MB at the end`,
  }));
  await attempt('rss_everyday', 'server resident memory, reads and postings', 'MB', async () => ({
    value: everyday,
    target: { text: '≤ 250 MB', stat: 'value', atMost: 250 },
  }));
  client.close();
  await server.stop();
}

/** ledger, hledger and bean-query on the same books, with the server stopped: the same balances. */
function measurePeers(bench: Bench, peerFiles: PeerFiles): void {
  const peerTimes = (asOf?: string): PeerFigure[] =>
    balanceCommands(peerFiles, asOf)
      .filter((c) => installed(c.tool))
      .map((c) => {
        const r = timePeer(c, COUNTS.peerRuns);
        if (r.error) log(`    ${c.tool} failed: ${r.error}`);
        return r;
      });
  const { manifest } = bench;
  for (const [id, asOf] of [
    ['balances_today', undefined],
    ['balances_past', manifest.pastDate],
  ] as const) {
    const op = ops.find((o) => o.id === id);
    if (!op) continue;
    log(`  peers: ${op.label}`);
    op.peers = peerTimes(asOf);
    for (const p of op.peers) log(`    ${p.tool}: ${p.p50.toFixed(0)} ms (max RSS ${p.maxRssMb?.toFixed(0)} MB)`);
  }
}

/** The table on the console and everything in bench/results/latest.json. */
function writeReport(bench: Bench, started: number, loadAtStart: number[]): void {
  const { ledgerFile, manifest, served, info, dataDir } = bench;
  const fileMb = fs.statSync(ledgerFile).size / 2 ** 20;
  const sqliteVersion = (() => {
    const db = new Database(':memory:');
    const v = (db.prepare('SELECT sqlite_version() v').get() as { v: string }).v;
    db.close();
    return v;
  })();
  const output = {
    issue: 7,
    size,
    ranAt: new Date().toISOString(),
    minutes: (Date.now() - started) / 60000,
    machine: { ...machine(), sqlite: sqliteVersion },
    loadAverage: { atStart: loadAtStart, atEnd: os.loadavg() },
    books: manifest,
    ledgerFileMb: fileMb,
    counts: COUNTS,
    serverNodeFlags: [...served.nodeFlags, ...serverFlags],
    serverEntry: path.relative(REPO, served.entry),
    info,
    operations: ops,
    table: table(ops),
  };
  fs.mkdirSync(path.dirname(args.out!), { recursive: true });
  fs.writeFileSync(args.out!, JSON.stringify(output, null, 2) + '\n');
  log('');
  log(
    `Personal Ledger benchmark, ${size}: ${manifest.entries} entries, ${manifest.lines} lines, ledger file ${fileMb.toFixed(0)} MB`,
  );
  log(
    `${output.machine.cpu}, ${output.machine.cores} cores, ${output.machine.memoryGb} GB, ${output.machine.os}, Node ${output.machine.node}, SQLite ${sqliteVersion}`,
  );
  log(
    `Server started as node ${output.serverNodeFlags.join(' ')} ${output.serverEntry} (npm run serve's command${serverFlags.length ? ', with extra flags' : ''})`,
  );
  log(
    `Load average (1, 5, 15 min) at start ${loadAtStart.map((x) => x.toFixed(2)).join(', ')}, at end ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`,
  );
  log(
    `Peers read books from ${String(info.peerSource)}. Times in ms unless the unit says otherwise; peer cells: p50 (how many times the API's p50).`,
  );
  log('');
  log(output.table);
  log('');
  for (const op of ops) if (op.note) log(`- ${op.label}: ${op.note}`);
  log(`\nWrote ${args.out}`);
  if (!args.keep && !args.data) fs.rmSync(dataDir, { recursive: true, force: true });
  else log(`Data kept in ${dataDir}`);
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadAtStart = os.loadavg();
  const bench = await loadBooks();
  if (args.only !== undefined && args.only !== 'reads' && args.only !== 'writes')
    throw new Error(`--only takes "reads" or "writes", not ${args.only}`);
  if (args.only === 'writes') {
    // the posting rows alone, beside the bare route running the raw transaction
    const memorySampler = new MemorySampler(bench.server.pid);
    const pages = { perPage: 0, accountPages: 0, rangePages: 0, dates: [] };
    const bareRawPost = await measureThroughput(bench, pages, memorySampler, false);
    (await measureWrites(bench, memorySampler, bareRawPost)).close();
    memorySampler.stop();
    bench.client.close();
    await bench.server.stop();
    writeReport(bench, started, loadAtStart);
    return;
  }
  const peerFiles = args.only ? undefined : await exportForPeers(bench);
  if (!args.only) await measureServeStart(bench);
  await measureColdStart(bench);
  const memorySampler = new MemorySampler(bench.server.pid);
  memorySampler.phase('reads');
  const dates = pastDates(bench.manifest, 50);
  await measureBalances(bench, dates);
  await measureReports(bench);
  await measureConverted(bench);
  await measureBudgets(bench);
  const pages = { ...(await measureRegister(bench)), dates };
  if (args.only === 'reads') {
    memorySampler.stop();
    bench.client.close();
    await bench.server.stop();
    writeReport(bench, started, loadAtStart);
    return;
  }
  const bareRawPost = await measureThroughput(bench, pages, memorySampler);
  const rawWrites = await measureWrites(bench, memorySampler, bareRawPost);
  const probes = new ProbedRuns(bench, memorySampler);
  await measureStatements(bench, probes, rawWrites);
  rawWrites.close();
  await measureReconcileStatus(bench);
  await measureLongReads(bench, probes);
  await reportStalls(probes.stalls);
  await measureMemory(bench, memorySampler);
  if (!args['skip-peers'] && peerFiles) measurePeers(bench, peerFiles);
  writeReport(bench, started, loadAtStart);
  log('\nSuggested accounts, month by month (bench/suggestions.ts):\n');
  log(suggestionTables(await measureSuggestions({ log })));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
