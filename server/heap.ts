import v8 from 'node:v8';

/**
 * How far V8 lets each heap's old generation grow past its live size before the next full
 * collection. It is a flag of the process, read at every collection, so setting it at any time
 * takes effect for every heap (the young generation's size is fixed at start-up: `npm run serve`'s
 * `--max-semi-space-size=4`). V8's default (four times) lets a busy server's small live heap sit
 * many times its size; serving keeps 75 %, and while the job worker runs a job (whose garbage lives
 * long in a walk over many entries) every heap collects sooner, at 25 %. The figures behind both
 * values are in bench/README.md ("Memory settings").
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
