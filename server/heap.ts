import v8 from 'node:v8';

/**
 * How far V8 lets each heap's old generation grow past its live size before the next full
 * collection. It is a flag of the process, read at every collection, so setting it at any time
 * takes effect for every heap (the young generation's size is fixed at start-up: `npm run serve`'s
 * `--max-semi-space-size=4`). V8 would allow four times: a busy server's live heap is small
 * (~30 MB), yet it sat at ~290 MB under 50 clients. Serving: 75 % (at 50 %, reads lost 2–7 % of
 * their throughput). While the job worker runs a job, the process's peak: 25 %. A reconciliation
 * run over a million entries makes hundreds of MB of garbage that lives for weeks of its walk; the
 * worker's heap during it peaked near 100 MB at 100 %, 84 at 50 %, 75 at 25 % (no slower).
 */
export const HEAP_GROWTH = { serving: '--heap-growing-percent=75', duringJobs: '--heap-growing-percent=25' } as const;

/** The heaps grow as suits a server answering requests. */
export function heapForServing(): void {
  v8.setFlagsFromString(HEAP_GROWTH.serving);
}

/** A job starts on the worker: every heap collects sooner until it is done. */
export function heapForJobs(): void {
  v8.setFlagsFromString(HEAP_GROWTH.duringJobs);
}
