/**
 * The real server, from the sources, over a data folder, with its ledgers' group commit on or off
 * (bench/commit-policy.ts): `node bench/lib/commit-server.ts DATA_DIR grouped|ungrouped`. Prints
 * the same ready line as `npm run serve`.
 */
import { startServer } from '../../server/index.ts';
import { BENCH_SECRET } from './processes.ts';

const [dataDir, mode = 'grouped'] = process.argv.slice(2);
const server = await startServer({
  dataDir: dataDir!,
  port: 0,
  secretKey: BENCH_SECRET,
  env: { OLLAMA_HOST: 'http://127.0.0.1:9' },
  rendererDir: null,
  backupIntervalMs: 0,
  syncIntervalMs: 0,
  ledgers: { groupCommit: mode === 'grouped' },
});
process.stdout.write(`Ledger API listening on ${server.url}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
