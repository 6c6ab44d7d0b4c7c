/**
 * What a benchmark that runs on its own books needs (bench/investments.ts, bench/reconcile-status.ts):
 * a fresh data folder removed at the end, the real server on it, a user signed up, and the figures
 * printed alike.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../../server/index.ts';
import type { Summary } from './stats.ts';

const SECRET = 'bench-secret-key-that-is-long-enough-0123456789';

/** The real server on `dataDir`, on a free port, quiet. */
export function serve(dataDir: string) {
  return startServer({ dataDir, port: 0, secretKey: SECRET, rendererDir: null, backupIntervalMs: 0, log: () => {} });
}

/** Signs up the bench's user; its id names its ledger file (`ledgers/<id>.sqlite`). */
export async function signUpBenchUser(url: string): Promise<{ id: string; access_token: string }> {
  const res = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', name: 'Bench', password: 'correct horse battery' }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; access_token: string };
}

/** A latency summary as the bench READMEs quote it. */
export function fmt(s: Summary): string {
  return `p50 ${s.p50.toFixed(3)} ms, p99 ${s.p99.toFixed(3)} ms (n=${s.n})`;
}

/** The machine's load averages (1, 5, 15 minutes), to read the figures beside. */
export function loadAverages(): string {
  return os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');
}

/** Runs `bench` in a fresh data folder named after `name`, removes the folder after, and exits 1 on failure. */
export function runInFreshFolder(name: string, bench: (dataDir: string) => Promise<void>): void {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `ledger-${name}-bench-`));
  bench(dataDir)
    .finally(() => fs.rmSync(dataDir, { recursive: true, force: true }))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
