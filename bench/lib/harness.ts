/**
 * The harness every area of the benchmark (bench/<area>.ts) runs on: the options, the books in the
 * server under test (loaded through the product's bulk path into a fresh data folder, or reused
 * from a folder a run kept), the server's start and stop, the rows measured so far, and a run of a
 * list of areas with its report. `npm run bench` (bench/run.ts) runs the areas in turn; each area's
 * file runs alone as well (`node bench/writes.ts --size 10k`).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { defaultOutDir, ensureBooks, sizeArg, type Manifest, type SizeName } from '../generate.ts';
import { Client } from './client.ts';
import { journalChunks } from './journal-file.ts';
import {
  buildServer,
  MemorySampler,
  Probe,
  REPO,
  startLedgerServer,
  type Child,
  type ProbeStall,
} from './processes.ts';
import { RawWriter } from './raw-writer.ts';
import { writeReport } from './report.ts';
import { Results, type Figures, type Operation } from './results.ts';
import {
  accountIds,
  importPieces,
  importRates,
  rememberLoaded,
  signInAgain,
  signUp,
  voidSample,
  type Ids,
} from './setup.ts';
import { since, summarize } from './stats.ts';

export interface Options {
  size: SizeName;
  seed: string;
  /** where the generated books are kept */
  books: string;
  /** the server's data folder; a fresh temporary one when not given */
  data: string | undefined;
  /** entries per import request */
  chunk: number;
  skipPeers: boolean;
  /** flags for the server's node beside those of `npm run serve`, e.g. "--max-semi-space-size=2" */
  serverFlags: string[];
  keep: boolean;
  /** bench/run.ts: the areas to run (`reads`, `writes`, or area names, comma-separated) */
  only: string | undefined;
  out: string;
}

export function parseOptions(argv: string[] = process.argv.slice(2)): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      size: { type: 'string', default: '10k' },
      seed: { type: 'string', default: 'ledger-bench-1' },
      books: { type: 'string' },
      data: { type: 'string' },
      chunk: { type: 'string', default: '25000' },
      'skip-peers': { type: 'boolean', default: false },
      'server-node-flags': { type: 'string', default: '' },
      keep: { type: 'boolean', default: false },
      only: { type: 'string' },
      out: { type: 'string', default: path.join(REPO, 'bench/results/latest.json') },
    },
  });
  const size = sizeArg(values.size);
  return {
    size,
    seed: values.seed!,
    books: values.books ?? defaultOutDir(size),
    data: values.data,
    chunk: Number(values.chunk),
    skipPeers: values['skip-peers']!,
    serverFlags: values['server-node-flags']!.split(/\s+/).filter(Boolean),
    keep: values.keep!,
    only: values.only,
    out: values.out!,
  };
}

/** Requests per operation: fixed for a size, so runs compare. */
export function countsFor(size: SizeName) {
  return {
    read: 200,
    page: 100,
    report: 100,
    postSequential: 500,
    postPaced: 200,
    postConcurrent: 2000,
    /** requests of BATCH_ENTRIES entries each (bench/writes.ts) */
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
    /** navigations to each screen, after one not counted (bench/screens.ts) */
    screenRuns: size === '1m' ? 7 : 10,
  } as const;
}
export type Counts = ReturnType<typeof countsFor>;

/** One area of the benchmark: its rows, measured by `run`. */
export interface Area {
  /** the name `--only` knows it by */
  name: string;
  /** `running` (the default): started first if stopped; `stopped`: stopped first, and what it wrote written back (the area starts its own or none) */
  server?: 'running' | 'stopped';
  /** run before any area of the run measures, the server as the load left it */
  prepare?: (bench: Bench) => Promise<void>;
  run: (bench: Bench) => Promise<void>;
}

/**
 * Writes back every file page waiting in memory (`sync`) before a group of measurements: hundreds
 * of MB of them (the load, the exports, the copies) would otherwise slow the next commits' syncs,
 * the server's and the raw limits' alike, by up to a second each, at random.
 */
export function settleDisk(): void {
  execFileSync('sync');
}

/** What the areas share: the books, the server under test, its one user and their accounts, the rows. */
export class Bench {
  readonly options: Options;
  readonly counts: Counts;
  readonly log = (line: string) => console.log(line);
  readonly results = new Results(this.log);
  readonly info: Record<string, unknown> = {};
  /** the longest silence of the server during each probed run (Bench.probed) */
  readonly stalls: ({ op: string } & ProbeStall)[] = [];
  readonly manifest: Manifest;
  readonly dataDir: string;
  /** the server as `npm run serve` starts it */
  readonly served: { entry: string; nodeFlags: string[] };
  token = '';
  /** how the bench's user signs in */
  user = { email: '', password: '' };
  ledgerFile = '';
  ids!: Ids;
  /** the running server's resident memory, by phase */
  memory: MemorySampler | undefined;
  private child: Child | undefined;
  private http: Client | undefined;
  private raw: RawWriter | undefined;
  private readonly kept = new Map<string, Promise<unknown>>();

  private constructor(options: Options) {
    this.options = options;
    this.counts = countsFor(options.size);
    this.manifest = ensureBooks(options.size, options.seed, options.books, this.log);
    this.log(`Books: ${this.manifest.entries} entries, ${this.manifest.lines} lines (${options.books})`);
    this.dataDir = options.data ?? fs.mkdtempSync(path.join(os.tmpdir(), `ledger-bench-${options.size}-`));
    fs.mkdirSync(this.dataDir, { recursive: true });
    this.served = buildServer();
    this.log(
      `Server: node ${[...this.served.nodeFlags, ...options.serverFlags].join(' ')} ${path.relative(REPO, this.served.entry)} (as npm run serve)`,
    );
  }

  /** The books in a running server: loaded now into a fresh data folder, or those a kept folder holds. */
  static async open(options: Options): Promise<Bench> {
    const bench = new Bench(options);
    try {
      await bench.signInAndLoad();
    } catch (error) {
      await bench.close();
      throw error;
    }
    return bench;
  }

  /** The bench's user signed in, and the books loaded unless the data folder holds them already. */
  private async signInAndLoad(): Promise<void> {
    const url = (await this.startServer()).url;
    const again = await signInAgain(url, this.dataDir, this.manifest);
    const user = again ?? (await signUp(url));
    this.token = user.token;
    this.user = { email: user.email, password: user.password };
    this.client.token = user.token;
    this.ledgerFile = path.join(this.dataDir, 'ledgers', `${user.userId}.sqlite`);
    if (again) {
      this.log(`Reusing the books loaded before in ${this.dataDir}`);
      this.info.reused = true;
      this.ids = await accountIds(this.client, this.manifest);
    } else {
      await this.load();
      rememberLoaded(this.dataDir, user, this.manifest);
    }
  }

  /** The books through POST /api/import/journal, the rates, and a sample of voids, each measured. */
  private async load(): Promise<void> {
    const { manifest, client, log } = this;
    log('Loading through POST /api/import/journal');
    const start = process.hrtime.bigint();
    const pieces = journalChunks(path.join(this.options.books, 'books.journal'), this.options.chunk);
    const probe = new Probe(this.server.url, this.token, '/api/auth/me');
    await probe.start();
    try {
      await importPieces(client, pieces, log);
    } finally {
      await probe.stop();
    }
    const stall = await probe.stop();
    const ms = since(start);
    const perSecond = manifest.entries / (ms / 1000);
    this.info.load = { mode: 'import', seconds: ms / 1000, entriesPerSecond: perSecond, longestStallMs: stall.maxMs };
    await this.attempt('bulk_load', `bulk load of ${manifest.entries} entries (import)`, 's', async () => ({
      value: ms / 1000,
      note: `${Math.round(perSecond)} entries/s; the server's longest silence meanwhile ${stall.maxMs.toFixed(0)} ms`,
    }));
    this.ids = await accountIds(client, manifest);
    await importRates(client);
    await this.attempt('void', 'void one entry (HTTP)', 'ms', async () => ({
      summary: summarize(await voidSample(client, manifest, this.counts.voids)),
    }));
    settleDisk();
  }

  get server(): Child {
    if (!this.child) throw new Error('the server is not running');
    return this.child;
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  /** The server's client, signed in as the bench's user. */
  get client(): Client {
    if (!this.http) throw new Error('the server is not running');
    return this.http;
  }

  /** The server over the data folder, with a client and a memory sampler of its own. */
  async startServer(): Promise<Child> {
    this.child = await startLedgerServer(this.served, this.dataDir, this.options.serverFlags);
    this.http = new Client(this.child.url, this.token || undefined);
    this.memory?.stop();
    this.memory = new MemorySampler(this.child.pid);
    return this.child;
  }

  async stopServer(): Promise<void> {
    this.http?.close();
    this.http = undefined;
    await this.child?.stop();
    this.child = undefined;
  }

  async ensureServer(): Promise<void> {
    if (!this.child) await this.startServer();
  }

  /** Names the phase the server's memory is sampled in from now on. */
  phase(label: string): void {
    this.memory?.phase(label);
  }

  attempt(id: string, label: string, unit: Operation['unit'], fn: () => Promise<Figures>): Promise<Operation> {
    return this.results.attempt(id, label, unit, fn);
  }

  /** What `make` gives, made once a run: what one area finds and another uses. */
  once<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (!this.kept.has(key)) this.kept.set(key, make());
    return this.kept.get(key) as Promise<T>;
  }

  /** A copy of the ledger as committed so far (its WAL checkpointed first), for raw writes beside the server's. */
  copyOfLedger(name: string): string {
    const db = new Database(this.ledgerFile);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const to = path.join(this.dataDir, name);
    fs.copyFileSync(this.ledgerFile, to);
    return to;
  }

  /** The raw limits' writer: a copy of the ledger made at the first call, written by every raw write of the run. */
  rawWriter(): RawWriter {
    this.raw ??= new RawWriter(this.copyOfLedger('raw-copy.sqlite'));
    return this.raw;
  }

  /**
   * Runs a long operation with bench/probe.ts asking the server meanwhile: keeps the longest silence
   * of each, and the memory each takes (as the sampler's phase `during <op>`).
   */
  async probed<T>(op: string, fn: () => Promise<T>): Promise<{ result: T; ms: number; stall: ProbeStall }> {
    this.phase(`during ${op}`);
    const probe = new Probe(this.server.url, this.token, `/api/accounts/${this.ids.groceries}/balance`);
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

  async close(): Promise<void> {
    this.memory?.stop();
    this.raw?.close();
    await this.stopServer();
  }
}

/** Opens the books, runs each area in turn (every `prepare` first), and writes the report. */
export async function runBench(areas: readonly Area[], options: Options = parseOptions()): Promise<void> {
  const started = Date.now();
  const loadAtStart = os.loadavg();
  const bench = await Bench.open(options);
  try {
    for (const area of areas) await area.prepare?.(bench);
    for (const area of areas) {
      if (area.server !== 'stopped') await bench.ensureServer();
      else if (bench.running) {
        await bench.stopServer();
        settleDisk();
      }
      await area.run(bench);
    }
  } finally {
    await bench.close();
  }
  writeReport(bench, started, loadAtStart);
}

/** Runs `areas` when `meta`'s file is the script node was started with (`node bench/<area>.ts`). */
export function runAlone(meta: ImportMeta, areas: readonly Area[]): void {
  if (process.argv[1] !== fileURLToPath(meta.url)) return;
  runBench(areas).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
