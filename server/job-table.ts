import { migrate, type Migration } from './db/migrate.ts';
import { backupJobs } from './features/backup/backup.jobs.ts';
import { exportJobs } from './features/export/export.jobs.ts';
import { journalImportJobs } from './features/journal-import/journal-import.jobs.ts';
import { priceJobs } from './features/prices/prices.jobs.ts';
import { reconciliationJobs } from './features/reconciliation/reconciliation.jobs.ts';
import { statementJobs } from './features/statements/statements.jobs.ts';
import { defineJob } from './jobs/job.ts';

/**
 * The composition of the long use cases: which job runs which feature's work. The server's thread
 * (JobRunner) and the job worker both load this module: the worker by its URL (JOB_TABLE_MODULE),
 * so that server/jobs knows no feature and every arrow points down.
 */
export const JOB_TABLE = {
  ...statementJobs,
  ...journalImportJobs,
  ...priceJobs,
  ...reconciliationJobs,
  ...exportJobs,
  ...backupJobs,
  /** The first request after an app upgrade: migrations may rewrite every row. */
  migrateLedger: defineJob({
    kind: 'opens',
    words: { what: 'Upgrading your ledger', advice: 'Try again when the computer is less busy.' },
    run: (db, input: { migrations: Migration[] }): null => {
      migrate(db.sqlite, input.migrations, db.sqlite.name);
      return null;
    },
  }),
};

export type AppJobs = typeof JOB_TABLE;

/**
 * This module, as the worker imports it (`.ts` from the sources, `.js` compiled or bundled). Named,
 * not `import.meta.url`: in the bundle this code sits in a shared chunk beside the `job-table.js`
 * entry that exports JOB_TABLE by name.
 */
export const JOB_TABLE_MODULE = new URL(
  import.meta.url.endsWith('.ts') ? './job-table.ts' : './job-table.js',
  import.meta.url,
).href;
