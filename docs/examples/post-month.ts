/**
 * Posts a month of entries from a CSV file in one request, all or none.
 *
 *   LEDGER_URL=http://127.0.0.1:8000 LEDGER_TOKEN=... node docs/examples/post-month.ts march.csv
 *
 * The file has a header and one entry per row: `date,description,amount,debit,credit`, where
 * debit and credit are account names and amount a decimal (`82.50`), sent as text: amounts never
 * pass through a float. The rows go to POST /api/journal-entries/batch as posted entries; when one
 * is refused nothing is stored, and the answer names each refused row by its index
 * (`entries.3.lines.1.amount`), printed here as the file's line.
 */
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { accountsByName, clientFromEnv, LedgerError, type Schemas } from '../../client/index.ts';

/** The most entries one batch takes (CONTRACT §18); a longer file is refused before anything is sent. */
const MAX_BATCH = 1000;

const file = process.argv[2];
if (!file) {
  console.error('usage: node docs/examples/post-month.ts <entries.csv>');
  process.exit(2);
}
const rows = parse(fs.readFileSync(file, 'utf8'), { columns: true, skip_empty_lines: true, trim: true }) as Record<
  'date' | 'description' | 'amount' | 'debit' | 'credit',
  string
>[];
if (rows.length === 0 || rows.length > MAX_BATCH) {
  console.error(`${file}: ${rows.length} rows; one batch takes 1 to ${MAX_BATCH}`);
  process.exit(1);
}

const ledger = await clientFromEnv();
const accounts = await accountsByName(ledger);
const idOf = (name: string, line: number): string => {
  const account = accounts.get(name);
  if (!account) {
    console.error(`${file}:${line}: no account named ${name}`);
    process.exit(1);
  }
  return account.id;
};

const entryOf = (row: (typeof rows)[number], index: number) => ({
  entry_date: row.date,
  memo: row.description,
  auto_post: true,
  lines: [
    { account_id: idOf(row.debit, index + 2), direction: 'DEBIT' as const, amount: row.amount },
    { account_id: idOf(row.credit, index + 2), direction: 'CREDIT' as const, amount: row.amount },
  ],
});

const { data, error, response } = await ledger.POST('/api/journal-entries/batch', {
  body: { entries: rows.map(entryOf) },
});
if (error) {
  if (response.status !== 400) throw new LedgerError('post', error);
  console.error(`Nothing was posted: ${error.detail}`);
  for (const e of error.errors ?? []) {
    const [, index, field] = /^entries\.(\d+)\.?(.*)$/.exec(e.field) ?? [];
    console.error(
      index === undefined ? `  ${e.field}: ${e.message}` : `  ${file}:${Number(index) + 2} ${field}: ${e.message}`,
    );
  }
  process.exit(1);
}
console.log(`Posted ${data.items.length} entries, ${data.items[0]!.entry_date} to ${data.items.at(-1)!.entry_date}`);
