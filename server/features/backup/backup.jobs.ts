import { stageLedgerCopy } from '../../db/stores.ts';
import type { Migration } from '../../db/migrate.ts';
import { defineJob } from '../../jobs/job.ts';
import { backupLedger } from './backup.repository.ts';

export const backupJobs = {
  /** POST /api/backup and the daily backup: a copy of a GB-sized file, and its sync to disk. */
  backupLedger: defineJob({
    kind: 'reads',
    words: { what: 'This backup', advice: 'Try again when the computer is less busy.' },
    run: (db, input: { to: string }) => backupLedger(db, input.to),
  }),
  /** A restore's copy of the backup, checked and migrated before it is swapped in. */
  stageRestore: defineJob({
    kind: 'reads',
    words: { what: 'This restore', advice: 'Try again when the computer is less busy.' },
    run: (_db, input: { from: string; to: string; migrations: Migration[] }): null => {
      stageLedgerCopy(input.from, input.to, input.migrations);
      return null;
    },
  }),
};
