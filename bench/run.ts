/**
 * The benchmark: `npm run bench -- --size 10k|100k|1m` (bench/README.md).
 *
 * Generates (or reuses) seeded books, loads them through the product's own journal import into a
 * fresh data folder, starts the real server as `npm run serve` does and measures each area of the
 * app over HTTP on loopback from this process, with a fixed number of requests per operation,
 * beside the raw better-sqlite3 equivalent on the same file, a bare Express route (the HTTP
 * ceiling) and ledger, hledger and bean-query on the same books exported by the app. Prints one
 * table and writes bench/results/latest.json. Each area is a file of its own that also runs alone
 * (`node bench/writes.ts --size 10k`) over the harness in bench/lib/harness.ts.
 */
import { commitPolicy } from './commit-policy.ts';
import { bookExport } from './exports.ts';
import { parseOptions, runBench, type Area } from './lib/harness.ts';
import { memory } from './memory.ts';
import { peers } from './peers.ts';
import { reads } from './reads.ts';
import { reconcile } from './reconcile.ts';
import { register } from './register.ts';
import { screens } from './screens.ts';
import { coldStart, serveStart } from './start.ts';
import { statements } from './statements.ts';
import { sync } from './sync.ts';
import { measureSuggestions, suggestionTables } from './suggestions.ts';
import { throughput } from './throughput.ts';
import { writes } from './writes.ts';

/**
 * Every area in the order a full run measures them (each area's `prepare` runs first, in this
 * order: the peers' export is made before anything is measured). A new area is one line here.
 */
const AREAS: readonly Area[] = [
  serveStart,
  coldStart,
  reads,
  register,
  throughput,
  writes,
  commitPolicy,
  statements,
  reconcile,
  bookExport,
  screens,
  memory,
  peers,
  // last: it stops the run's server and works on a copy of its folder
  sync,
];

/** What `--only` takes beside an area's name. */
const GROUPS: Record<string, readonly Area[]> = {
  /** one cold start series and the reads: balances, reports, the same in USD, budgets, registers */
  reads: [coldStart, reads, register],
};

/** The areas `--only a,b` names (a group or an area each), in the order a full run has them. */
function only(names: string): Area[] {
  const chosen = new Set<Area>();
  for (const name of names.split(',')) {
    const areas = GROUPS[name] ?? AREAS.filter((a) => a.name === name);
    if (areas.length === 0)
      throw new Error(`--only takes ${[...Object.keys(GROUPS), ...AREAS.map((a) => a.name)].join(', ')}; not ${name}`);
    for (const area of areas) chosen.add(area);
  }
  return AREAS.filter((a) => chosen.has(a));
}

const options = parseOptions();
const areas = options.only ? only(options.only) : AREAS.filter((a) => a !== peers || !options.skipPeers);
runBench(areas, options)
  .then(async () => {
    // the suggestions are measured on their own generated lines, not the run's books
    if (options.only) return;
    console.log('\nSuggested accounts, month by month (bench/suggestions.ts):\n');
    console.log(suggestionTables(await measureSuggestions({ log: console.log })));
  })
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
