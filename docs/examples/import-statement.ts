/**
 * Imports a bank statement, books what the books do not have yet, and prints the balance sheet.
 *
 *   LEDGER_URL=http://127.0.0.1:8000 LEDGER_TOKEN=... \
 *     node docs/examples/import-statement.ts statement.csv Checking Groceries
 *
 * 1. The CSV file goes to POST /api/statements/import as text/csv, into the account named by the
 *    second argument (the columns are guessed; the answer says which it took).
 * 2. Reconciliation matches its rows against the entries already there (POST /api/reconciliation/run).
 * 3. Each row still unmatched becomes a posted entry against the account named by the third
 *    argument (POST /api/reconciliation/unmatched/{id}/create-entry).
 * 4. The balance sheet as of today, per currency (GET /api/reports/balance-sheet).
 */
import fs from 'node:fs';
import path from 'node:path';
import { accountsByName, clientFromEnv, LedgerError, type Schemas } from '../../client/index.ts';

const [file, bankName, otherName] = process.argv.slice(2);
if (!file || !bankName || !otherName) {
  console.error('usage: node docs/examples/import-statement.ts <statement.csv> <bank account> <other account>');
  process.exit(2);
}

const ledger = await clientFromEnv();
const accounts = await accountsByName(ledger);
const bank = accounts.get(bankName);
const other = accounts.get(otherName);
if (!bank || !other) throw new Error(`No account named ${bank ? otherName : bankName}`);

const imported = await ledger.POST('/api/statements/import', {
  params: { query: { account_id: bank.id, name: path.basename(file) } },
  body: fs.readFileSync(file, 'utf8'),
  bodySerializer: (csv) => csv, // sent as it is, not as JSON
  headers: { 'content-type': 'text/csv' },
});
if (imported.error) throw new LedgerError('import', imported.error);
const statement = imported.data as Schemas['StatementImportResult'];
console.log(`Imported ${statement.imported_count} rows (${statement.duplicate_count} already there)`);

const run = await ledger.POST('/api/reconciliation/run', { body: { account_id: bank.id } });
if (run.error) throw new LedgerError('reconcile', run.error);

// Each booking changes the list, so the first page is read again until nothing is left on it.
let booked = 0;
for (;;) {
  const unmatched = await ledger.GET('/api/reconciliation/unmatched', {
    params: { query: { account_id: bank.id, type: 'bank_transaction', per_page: 100 } },
  });
  if (unmatched.error) throw new LedgerError('unmatched', unmatched.error);
  if (unmatched.data.items.length === 0) break;
  for (const item of unmatched.data.items) {
    const created = await ledger.POST('/api/reconciliation/unmatched/{id}/create-entry', {
      params: { path: { id: item.transaction.id } },
      body: { account_id: other.id },
    });
    if (created.error) throw new LedgerError(`book ${item.transaction.description}`, created.error);
    booked += 1;
  }
}
console.log(`Booked ${booked} entries against ${other.name}`);

const sheet = await ledger.GET('/api/reports/balance-sheet');
if (sheet.error) throw new LedgerError('balance sheet', sheet.error);
const print = (nodes: Schemas['AccountTreeNode'][], depth: number): void => {
  for (const node of nodes) {
    console.log(`${'  '.repeat(depth)}${node.name.padEnd(30 - 2 * depth)} ${node.total.padStart(14)}`);
    print(node.children, depth + 1);
  }
};
console.log(`\nBalance sheet as of ${sheet.data.as_of}`);
for (const c of sheet.data.currencies) {
  console.log(`\n${c.currency}`);
  console.log('Assets');
  print(c.assets, 1);
  console.log('Liabilities');
  print(c.liabilities, 1);
  console.log('Equity');
  print(c.equity, 1);
  console.log(`${'  Retained earnings'.padEnd(30)} ${c.retained_earnings.padStart(14)}`);
  console.log(`${'Net worth'.padEnd(30)} ${c.net_worth.padStart(14)}`);
}
