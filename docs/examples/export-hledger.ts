/**
 * Exports the books as an hledger journal, for hledger's own reports.
 *
 *   LEDGER_URL=http://127.0.0.1:8000 LEDGER_TOKEN=... node docs/examples/export-hledger.ts books.journal
 *   hledger -f books.journal balance
 *
 * GET /api/export?format=hledger answers the journal as text (posted entries, voids with their
 * reversals, every account declared); `--as-of YYYY-MM-DD` leaves out what comes after that day.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { clientFromEnv, LedgerError } from '../../client/index.ts';

const { values, positionals } = parseArgs({ options: { 'as-of': { type: 'string' } }, allowPositionals: true });
const file = positionals[0];
if (!file) {
  console.error('usage: node docs/examples/export-hledger.ts [--as-of YYYY-MM-DD] <file.journal>');
  process.exit(2);
}

const ledger = await clientFromEnv();
const { data, error } = await ledger.GET('/api/export', {
  params: { query: { format: 'hledger', as_of: values['as-of'] } },
  parseAs: 'text',
});
if (error) throw new LedgerError('export', error);
fs.writeFileSync(file, data);
console.log(`Wrote ${file}: ${data.split('\n').filter((line) => /^\d{4}-\d\d-\d\d/.test(line)).length} transactions`);
