import type { ExportQuery } from '../../contract/export.ts';
import { defineJob } from '../../jobs/job.ts';
import { writeExport } from './export.service.ts';

export const exportJobs = {
  /** GET /api/export: the text goes out in pieces (hundreds of MB at a million entries). */
  exportBooks: defineJob({
    kind: 'reads',
    words: { what: 'This export', advice: 'Export a shorter date range.' },
    run: (db, input: ExportQuery & { withDocuments?: boolean }, context): null => {
      writeExport(db, input, (text) => context.write(text));
      return null;
    },
  }),
};
