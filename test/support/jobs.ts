import type { Stores } from '../../server/db/stores.ts';
import { JOB_TABLE, JOB_TABLE_MODULE, type AppJobs } from '../../server/job-table.ts';
import { JobRunner, type JobRunnerOptions } from '../../server/jobs/job-runner.ts';

/** A job runner over a data folder's stores with the app's own jobs, as startServer makes it. */
export function appJobRunner(
  stores: Stores,
  options: Partial<Omit<JobRunnerOptions<AppJobs>, 'table' | 'tableModule'>> = {},
): JobRunner<AppJobs> {
  return new JobRunner({
    table: JOB_TABLE,
    tableModule: JOB_TABLE_MODULE,
    fileOf: (userId) => stores.ledgerFile(userId),
    leaseOf: (userId) => stores.lease(userId),
    ...options,
  });
}
