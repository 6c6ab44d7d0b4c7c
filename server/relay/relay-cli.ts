/**
 * `npm run relay [-- --host <address>] [--port <n>]`: the sync relay from the same build as the
 * server. Its data folder is RELAY_DATA_DIR, or `personal-ledger-relay` beside the app's default
 * data folder; it prints one line on stdout once it listens: `Sync relay listening on <url>`.
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, defaultDataDir } from '../config.ts';
import { DEFAULT_RELAY_PORT, LOOPBACK, startRelay } from './index.ts';

const RELAY_DATA_FOLDER = 'personal-ledger-relay';

interface RelaySettings {
  dataDir: string;
  host: string;
  port: number;
  trustProxy: boolean;
}

/** The relay's settings from its arguments and environment; anything malformed is a ConfigError. */
function relaySettings(args: string[], env: NodeJS.ProcessEnv): RelaySettings {
  let values: { host?: string; port?: string };
  try {
    ({ values } = parseArgs({ args, options: { host: { type: 'string' }, port: { type: 'string' } }, strict: true }));
  } catch (error) {
    throw new ConfigError(`${(error as Error).message}; use --host <address> and --port <number>`);
  }
  const portText = values.port ?? String(DEFAULT_RELAY_PORT);
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
    throw new ConfigError(`--port must be a whole number from 0 to 65535, not "${portText}"`);
  }
  const host = values.host ?? LOOPBACK;
  if (!/^[A-Za-z0-9.:-]{1,253}$/.test(host))
    throw new ConfigError(`--host must be an address or a name, not "${host}"`);
  const given = env.RELAY_DATA_DIR?.trim();
  const appDefault = defaultDataDir(process.platform, {}, os.homedir());
  return {
    dataDir: given ? path.resolve(given) : path.join(path.dirname(appDefault), RELAY_DATA_FOLDER),
    host,
    port: Number(portText),
    trustProxy: ['true', '1'].includes((env.TRUST_PROXY ?? '').trim().toLowerCase()),
  };
}

/** Starts the relay, says where it listens, and stops it cleanly on SIGTERM or SIGINT. */
export async function runRelay(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const settings = relaySettings(args, env);
  const relay = await startRelay({
    dataDir: settings.dataDir,
    host: settings.host,
    port: settings.port,
    trustProxy: settings.trustProxy,
  });
  const stop = () => {
    relay.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdout.write(`Sync relay listening on ${relay.url}\n`);
}
