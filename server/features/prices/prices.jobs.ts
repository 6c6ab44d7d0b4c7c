import { defineJob } from '../../jobs/job.ts';
import { importPriceCsv } from './prices.service.ts';

export const priceJobs = {
  /**
   * POST /api/prices/import: a CSV file of rates (up to 5 MiB, 20,000 rows) parsed, checked and
   * stored. A small file runs at once on the server's thread; its work is linear in its rows.
   */
  importPriceCsv: defineJob({
    kind: 'writes',
    words: { what: 'This price import', advice: 'Split the file into smaller ones.' },
    inline: true,
    run: (db, input: { bytes: Uint8Array }) => importPriceCsv(db, input.bytes),
  }),
};
