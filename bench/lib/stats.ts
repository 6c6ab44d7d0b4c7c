export interface Summary {
  n: number;
  p50: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
}

/** Nearest-rank percentile of sorted values (p99 of 100 samples is the 99th, not an interpolation). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1]!;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((s, x) => s + x, 0);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sorted.length ? sum / sorted.length : NaN,
    min: sorted[0] ?? NaN,
    max: sorted.at(-1) ?? NaN,
  };
}

/** Milliseconds since `start` (a process.hrtime.bigint()). */
export function since(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Runs `fn` `n` times one after another and returns each duration in ms. */
export async function timeEach(n: number, fn: (i: number) => Promise<unknown> | unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = process.hrtime.bigint();
    await fn(i);
    out.push(since(start));
  }
  return out;
}

/** `fn` run `n` times after `warmUp` runs not counted (a raw limit: the same work in this process). */
export function rawTimed(n: number, fn: (i: number) => unknown, warmUp = 5): Summary {
  for (let i = 0; i < warmUp; i++) fn(i);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = process.hrtime.bigint();
    fn(i);
    out.push(since(start));
  }
  return summarize(out);
}

/** Like rawTimed, with a 1 ms pause (a timer turn) before each call, as a server idles between requests. */
export async function rawPacedTimed(n: number, fn: (i: number) => unknown): Promise<Summary> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    const start = process.hrtime.bigint();
    fn(i);
    out.push(since(start));
  }
  return summarize(out);
}

/** What the timings below need of a client: one request that must answer 2xx. */
export interface Requester {
  ok(method: string, path: string, body?: unknown): Promise<unknown>;
}

/**
 * `n` GETs of `pathOf(i)` after 5 not counted. With `distinct`, the counted requests go on from
 * where the warm-up stopped (pathOf(5) on), so that none asks again what the warm-up asked.
 */
export async function timed(
  client: Requester,
  n: number,
  pathOf: (i: number) => string,
  distinct = false,
): Promise<Summary> {
  for (let i = 0; i < 5; i++) await client.ok('GET', pathOf(i));
  const from = distinct ? 5 : 0;
  return summarize(await timeEach(n, (i) => client.ok('GET', pathOf(from + i))));
}

/**
 * `timed`, each read made uncached: a budget written for 2030-01 (not timed) first changes the
 * ledger, so the answer the server keeps for an unchanged ledger is dropped and the read is
 * computed. `lines`: budget lines (at least two) to alternate between.
 */
export async function timedUncached(
  client: Requester,
  lines: readonly unknown[],
  n: number,
  pathOf: (i: number) => string,
): Promise<Summary> {
  const out: number[] = [];
  for (let i = 0; i < n + 5; i++) {
    await changeLedger(client, lines, i);
    const start = process.hrtime.bigint();
    await client.ok('GET', pathOf(i));
    if (i >= 5) out.push(since(start));
  }
  return summarize(out);
}

/** A change to the ledger no read below looks at (a budget of 2030-01): every answer kept before it is dropped. */
export function changeLedger(client: Requester, lines: readonly unknown[], i: number): Promise<unknown> {
  return client.ok('PUT', '/api/budgets/2030-01', { lines: lines.slice(0, 1 + (i % 2)) });
}
