import type { Manifest } from '../generate.ts';
import type { Bench } from './harness.ts';
import { Random } from './random.ts';
import { RawPages } from './raw-pages.ts';
import { besideRaw, type Target } from './results.ts';
import { rawTimed, timed, timedUncached } from './stats.ts';

/** A read measured over HTTP beside the raw reads of the same data on the same file. */
export interface ReadRow {
  id: string;
  label: string;
  /** requests counted (after 5 not counted), and as many raw reads */
  n: number;
  path: (i: number) => string;
  /** every counted request asks something the warm-up did not (see `timed`) */
  distinct?: boolean;
  /** each request after a change to the ledger alternating these budget lines (see `timedUncached`) */
  uncached?: readonly unknown[];
  raw: { label: string; read: (i: number) => unknown };
  target?: Target;
  /** said under the table, once the row is measured */
  note?: () => string;
}

/** The rows of a group, made over the group's raw connection to the ledger file. */
export type RowsOf = (raw: RawPages) => readonly ReadRow[];

/** p50 ≤ 5 ms and p99 ≤ 20 ms: the p99 is the one checked */
export const BALANCES_TARGET: Target = { text: 'p50 ≤ 5, p99 ≤ 20 ms', stat: 'p99', atMost: 20 };
export const REPORT_TARGET: Target = { text: 'p50 ≤ 20 ms', stat: 'p50', atMost: 20 };
export const PAGE_TARGET: Target = { text: 'p99 ≤ 15 ms', stat: 'p99', atMost: 15 };

/**
 * The rows `rowsOf` makes, each measured in turn, their raw reads on a connection of their own
 * to the ledger file (closed afterwards).
 */
export async function measureReads(bench: Bench, rowsOf: RowsOf): Promise<void> {
  const raw = new RawPages(bench.ledgerFile);
  try {
    for (const row of rowsOf(raw))
      await bench.attempt(row.id, row.label, 'ms', async () => {
        const api = row.uncached
          ? await timedUncached(bench.client, row.uncached, row.n, row.path)
          : await timed(bench.client, row.n, row.path, row.distinct);
        const rawSummary = rawTimed(row.n, row.raw.read);
        return { ...besideRaw(api, row.raw.label, rawSummary, row.target), ...(row.note ? { note: row.note() } : {}) };
      });
  } finally {
    raw.close();
  }
}

/** `n` random days of the books, a month or more after their first, the same for a seed. */
export function pastDates(manifest: Manifest, n: number): string[] {
  const random = new Random('past-dates');
  const first = new Date(`${manifest.firstDay}T00:00:00Z`).getTime();
  const span = (new Date(`${manifest.lastDay}T00:00:00Z`).getTime() - first) / 86_400_000;
  return Array.from({ length: n }, () =>
    new Date(first + random.int(30, span) * 86_400_000).toISOString().slice(0, 10),
  );
}
