import { DomainError } from '../domain/errors.ts';
import type { JobWords } from './job.ts';

/**
 * What one job may take on the worker before it is stopped (JOB_BUDGET_EXCEEDED, nothing changed):
 * `ms` from its start to its end, and `heapMb`, the worker's V8 old generation.
 */
export interface JobBudget {
  ms: number;
  heapMb: number;
}

/**
 * The biggest legitimate jobs of the benchmark at a million entries (bench/README.md) take at most
 * 17 s (a restore's check of a 1.3 GB ledger; a reconciliation run 4 s, an export 6 s, a
 * 100,000-row import 3 s) and a worker heap below 150 MB: the defaults leave room for a machine
 * several times slower, and are what another user's import waits at most (fair turns).
 */
export const DEFAULT_JOB_BUDGET: JobBudget = { ms: 120_000, heapMb: 512 };

/**
 * While a job runs, the runner reads the worker's heap this often (ms) and stops the job once its
 * used heap passes the budget's `heapMb`. V8's own limit on the worker (resourceLimits) is twice
 * the budget: it stops only what outgrows the budget between two reads. At V8's limit a worker is
 * stopped only on a best-effort basis: one large allocation there (a Map or an array of a million
 * entries growing) aborts the whole process instead (nodejs/node#47224), so the budget is enforced
 * well below it.
 */
export const HEAP_WATCH_MS = 50;

/** What a job past its budget answers: 422, nothing changed, and what to do, in the job's own words. */
export function budgetExceeded(words: JobWords, why: 'time' | 'memory', budget: JobBudget): DomainError {
  const time = budget.ms >= 1000 ? `${Math.round(budget.ms / 1000)} s` : `${budget.ms} ms`;
  const limit = why === 'time' ? `${time} of work` : `${budget.heapMb} MB of memory`;
  return new DomainError(
    'JOB_BUDGET_EXCEEDED',
    `${words.what} needed more than ${limit} and was stopped; nothing was changed. ${words.advice}`,
  );
}
