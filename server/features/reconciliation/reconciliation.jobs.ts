import type { Thresholds } from '../../domain/reconciliation/index.ts';
import { defineJob } from '../../jobs/job.ts';
import { createEntries, type CreateEntriesInput } from './reconciliation.booking.service.ts';
import { runReconciliation, type RunInput } from './reconciliation.run.service.ts';

export const reconciliationJobs = {
  /** POST /api/reconciliation/run: scoring 10,000 bank transactions against their candidates takes seconds. */
  runReconciliation: defineJob({
    kind: 'writes',
    words: { what: 'This reconciliation run', advice: 'Run it on a shorter date range.' },
    run: (db, input: { run: RunInput; thresholds: Thresholds }) => runReconciliation(db, input.run, input.thresholds),
  }),
  /** POST /api/reconciliation/unmatched/create-entries: a statement's lines booked by rules may number 100,000. */
  createEntries: defineJob({
    kind: 'writes',
    words: { what: 'Booking these bank lines', advice: 'Book fewer lines at once.' },
    run: (db, input: { booking: CreateEntriesInput; thresholds: Thresholds }) =>
      createEntries(db, input.booking, input.thresholds),
  }),
};
