/**
 * `startRelay`: the sync relay on its own port over its own file (`npm run relay`). It holds only
 * ciphertext, timestamps, group ids, salts, key tests and password and token hashes (docs/sync.md).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { secureDataDir } from '../config.ts';
import { answerClientError } from '../http/client-error.ts';
import { createRelayApp } from './relay-app.ts';
import { openRelayDb, RELAY_MIGRATIONS_DIR } from './relay-db.ts';
import { relayRoutes } from './relay.router.ts';
import { RelayService, type RelayLimitOptions } from './relay.service.ts';

export const DEFAULT_RELAY_PORT = 4600;
export const LOOPBACK = '127.0.0.1';

export interface StartRelayOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  /** The address to listen on; loopback unless the relay is to be reached from other machines. */
  host?: string;
  /** bcrypt cost; 12 unless a test needs speed. */
  bcryptCost?: number;
  trustProxy?: boolean;
  limits?: RelayLimitOptions;
  now?: () => number;
  log?: (line: string) => void;
  migrationsDir?: string;
}

export interface RunningRelay {
  url: string;
  port: number;
  close(): Promise<void>;
}

function isLoopback(host: string): boolean {
  return host === LOOPBACK || host === 'localhost' || host === '::1';
}

export async function startRelay(options: StartRelayOptions): Promise<RunningRelay> {
  const log = options.log ?? ((line: string) => console.error(line));
  const host = options.host ?? LOOPBACK;
  for (const loose of secureDataDir(options.dataDir)) log(`relay data folder: tightened ${loose}`);
  const db = openRelayDb(options.dataDir, options.migrationsDir ?? RELAY_MIGRATIONS_DIR);
  const relay = new RelayService({
    db,
    bcryptCost: options.bcryptCost ?? 12,
    now: options.now,
    limits: options.limits,
  });
  let port = 0;
  const app = createRelayApp({
    routes: relayRoutes(relay),
    relay,
    port: () => port,
    loopbackOnly: isLoopback(host),
    trustProxy: options.trustProxy ?? false,
    log,
  });
  const server = http.createServer(app);
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      void db.destroy();
      reject(error);
    });
    server.listen(options.port, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      server.close(() => {
        clearTimeout(cutOff);
        void db.destroy().finally(resolve);
      });
      server.closeIdleConnections();
      const cutOff = setTimeout(() => server.closeAllConnections(), 5000).unref();
    }));
  return { url, port, close };
}
