import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Bench } from './harness.ts';
import { REPO } from './processes.ts';
import { machine, table } from './results.ts';

function sqliteVersion(): string {
  const db = new Database(':memory:');
  const v = (db.prepare('SELECT sqlite_version() v').get() as { v: string }).v;
  db.close();
  return v;
}

const loads = (averages: number[]) => averages.map((x) => x.toFixed(2)).join(', ');

/**
 * The table on the console (Markdown, to paste into bench/README.md as it is) under the books, the
 * machine and its load, and everything in the output file; then the data folder goes unless kept.
 */
export function writeReport(bench: Bench, started: number, loadAtStart: number[]): void {
  const { ledgerFile, manifest, served, info, dataDir, options, log } = bench;
  const ops = bench.results.ops;
  const fileMb = fs.statSync(ledgerFile).size / 2 ** 20;
  const extraFlags = options.serverFlags;
  const output = {
    issue: 7,
    size: options.size,
    ranAt: new Date().toISOString(),
    minutes: (Date.now() - started) / 60000,
    machine: { ...machine(), sqlite: sqliteVersion() },
    loadAverage: { atStart: loadAtStart, atEnd: os.loadavg() },
    books: manifest,
    ledgerFileMb: fileMb,
    counts: bench.counts,
    serverNodeFlags: [...served.nodeFlags, ...extraFlags],
    serverEntry: path.relative(REPO, served.entry),
    info,
    operations: ops,
    table: table(ops),
  };
  fs.mkdirSync(path.dirname(options.out), { recursive: true });
  fs.writeFileSync(options.out, JSON.stringify(output, null, 2) + '\n');
  const m = output.machine;
  log('');
  log(
    `Personal Ledger benchmark, ${options.size}: ${manifest.entries} entries, ${manifest.lines} lines, ledger file ${fileMb.toFixed(0)} MB`,
  );
  log(`${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, ${m.os}, Node ${m.node}, SQLite ${m.sqlite}`);
  log(
    `Server started as node ${output.serverNodeFlags.join(' ')} ${output.serverEntry} (npm run serve's command${extraFlags.length ? ', with extra flags' : ''})`,
  );
  log(`Load average (1, 5, 15 min) at start ${loads(loadAtStart)}, at end ${loads(os.loadavg())}`);
  log(
    `Peers read books from ${String(info.peerSource ?? 'nowhere (not run)')}. Times in ms unless the unit says otherwise; peer cells: p50 (how many times the API's p50).`,
  );
  log('');
  log(output.table);
  log('');
  for (const op of ops) if (op.note) log(`- ${op.label}: ${op.note}`);
  log(`\nWrote ${options.out}`);
  if (!options.keep && !options.data) fs.rmSync(dataDir, { recursive: true, force: true });
  else log(`Data kept in ${dataDir} (a later run with --data ${dataDir} reuses its books)`);
}
