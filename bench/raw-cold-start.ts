/**
 * The raw floor of a cold start: a fresh Node process that opens the ledger file with
 * better-sqlite3 and reads every balance from the maintained totals, then says "done".
 */
import { RawLedger } from './lib/raw.ts';

const raw = new RawLedger(process.argv[2]!);
raw.balances(new Date().toISOString().slice(0, 10));
process.stdout.write('done\n');
raw.close();
process.once('SIGTERM', () => process.exit(0));
setInterval(() => {}, 1 << 30);
