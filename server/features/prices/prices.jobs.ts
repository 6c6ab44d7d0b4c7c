import { defineJob } from '../../jobs/job.ts';
import { importPriceCsv, type SecurityPriceRows } from './prices.service.ts';

/**
 * POST /api/prices/import: a CSV file of rates (up to 5 MiB, 20,000 rows) parsed, checked and
 * stored. A small file runs at once on the server's thread; its work is linear in its rows.
 * `securities` reads the rows that are securities' prices (the job table gives the investments
 * feature's reader).
 */
export function importPriceCsvJob(securities?: () => SecurityPriceRows) {
  return defineJob({
    kind: 'writes',
    words: { what: 'This price import', advice: 'Split the file into smaller ones.' },
    inline: true,
    run: (db, input: { bytes: Uint8Array }) => importPriceCsv(db, input.bytes, securities?.()),
  });
}

export const priceJobs = {
  importPriceCsv: importPriceCsvJob(),
};
