import { ConfigError, settingsFromEnv } from './config.ts';
import { MigrationError } from './db/migrate.ts';
import { startServer } from './index.ts';

/** `npm run serve`: the headless server, configured by the environment (CONTRACT §1). */
async function main(): Promise<void> {
  const settings = settingsFromEnv(process.env);
  const server = await startServer({
    dataDir: settings.dataDir,
    port: settings.port,
    secretKey: process.env.SECRET_KEY,
    env: process.env,
  });
  process.stdout.write(`Ledger API listening on ${server.url}\n`);
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof MigrationError;
  const code = (error as NodeJS.ErrnoException).code;
  if (known) console.error(`Cannot start: ${(error as Error).message}`);
  else if (code === 'EADDRINUSE') console.error('Cannot start: the port is already in use; set PORT to another one (0 picks a free port)');
  else if (code === 'EACCES' || code === 'EROFS') console.error(`Cannot start: the data folder is not writable (${(error as Error).message})`);
  else console.error(`Cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
