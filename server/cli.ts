import { ConfigError, settingsFromEnv } from './config.ts';
import { MigrationError } from './db/migrate.ts';
import { startServer } from './index.ts';
import { runResetPassword } from './reset-password.ts';
import { runRelay } from './relay/relay-cli.ts';

/** `npm run serve`: the headless server, configured by the environment (CONTRACT §1). */
async function main(): Promise<void> {
  const settings = settingsFromEnv(process.env);
  const server = await startServer({
    dataDir: settings.dataDir,
    port: settings.port,
    secretKey: process.env.SECRET_KEY,
    env: process.env,
  });
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // Only now: a SIGTERM sent as soon as the line is read must find its handler in place.
  process.stdout.write(`Ledger API listening on ${server.url}\n`);
}

/** Says in one line why the server cannot start, and exits 1. */
function cannotStart(error: unknown): never {
  const known = error instanceof ConfigError || error instanceof MigrationError;
  const code = (error as NodeJS.ErrnoException).code;
  if (known) console.error(`Cannot start: ${(error as Error).message}`);
  else if (code === 'EADDRINUSE')
    console.error(
      command === 'relay'
        ? 'Cannot start: the port is already in use; give another with --port (0 picks a free port)'
        : 'Cannot start: the port is already in use; set PORT to another one (0 picks a free port)',
    );
  else if (
    code === 'EACCES' ||
    code === 'EROFS' ||
    code === 'EPERM' ||
    /^SQLITE_(CANTOPEN|READONLY|PERM)/.test(code ?? '')
  ) {
    console.error(`Cannot start: the data folder is not writable (${(error as Error).message})`);
  } else if (code === 'ENOSPC' || code === 'SQLITE_FULL')
    console.error(`Cannot start: the disk holding the data folder is full (${(error as Error).message})`);
  else console.error(`Cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

// `node server/cli.ts reset-password <email>` (npm run reset-password): the data folder owner's way back in.
const [command, ...args] = process.argv.slice(2);
if (command === 'reset-password') {
  const code = await runResetPassword(args, { input: process.stdin, output: process.stdout, env: process.env });
  process.exit(code);
}
if (command === 'relay') runRelay(args, process.env).catch(cannotStart);
else main().catch(cannotStart);
