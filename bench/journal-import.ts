/**
 * The journal import as a bulk load: `node bench/journal-import.ts [entries]`
 * (default 100000) writes a deterministic hledger journal of that many entries over ten years,
 * imports it into a fresh ledger file through the service (one transaction), and exports it back.
 * Prints entries per second and the export time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Stores } from '../server/db/stores.ts';
import { exportBooks } from '../server/features/export/export.service.ts';
import { importJournal } from '../server/features/journal-import/journal-import.service.ts';

const count = Number(process.argv[2] ?? 100_000);
const accounts = [
  'Expenses:Food:Groceries',
  'Expenses:Food:Dining',
  'Expenses:Home:Rent',
  'Liabilities:Card',
  'Income:Salary',
];
let seed = 1;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const parts: string[] = [];
for (let i = 0; i < count; i++) {
  const date = new Date(Date.UTC(2015, 0, 1) + Math.floor((i * 3650) / count) * 86_400_000).toISOString().slice(0, 10);
  const cents = 1 + Math.floor(random() * 100_000);
  parts.push(
    `${date} * Entry ${i}\n    ${accounts[i % accounts.length]}    ${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')} USD\n    Assets:Bank:Checking\n`,
  );
}
const text = parts.join('\n');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-import-benchmark-'));
const stores = new Stores(dir);
try {
  const db = stores.ledger('00000000-0000-4000-8000-000000000001');
  let started = performance.now();
  const result = importJournal(db, text, 'hledger');
  const importMs = performance.now() - started;
  started = performance.now();
  const exported = exportBooks(db, { format: 'hledger' });
  const exportMs = performance.now() - started;
  console.log(
    `imported ${result.entries_imported} entries (${(text.length / 1048576).toFixed(1)} MiB) in ${(importMs / 1000).toFixed(1)} s: ` +
      `${Math.round((result.entries_imported / importMs) * 1000)} entries/s; exported ${(exported.text.length / 1048576).toFixed(1)} MiB in ${(exportMs / 1000).toFixed(1)} s`,
  );
} finally {
  stores.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
