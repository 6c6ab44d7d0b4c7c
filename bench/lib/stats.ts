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
