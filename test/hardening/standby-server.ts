/**
 * A warm standby of `node server/cli.ts` for the crash test: it loads the whole server first, then
 * waits for a line on stdin before it opens the data folder and listens, exactly as the CLI does
 * (same settings from the environment, same ready line). The crash test spawns the next server
 * while the current one is still taking writes, so that a restart after each SIGKILL costs
 * milliseconds instead of a cold start; the data folder is untouched until the line arrives.
 */
import { ConfigError, settingsFromEnv } from '../../server/config.ts';
import { MigrationError } from '../../server/db/migrate.ts';
import { startServer } from '../../server/index.ts';

process.stdin.once('data', () => {
  const settings = settingsFromEnv(process.env);
  startServer({
    dataDir: settings.dataDir,
    port: settings.port,
    secretKey: process.env.SECRET_KEY,
    env: process.env,
  }).then(
    (server) => process.stdout.write(`Ledger API listening on ${server.url}\n`),
    (error: unknown) => {
      const known = error instanceof ConfigError || error instanceof MigrationError;
      console.error(`Cannot start: ${known || error instanceof Error ? (error as Error).message : String(error)}`);
      process.exit(1);
    },
  );
});
