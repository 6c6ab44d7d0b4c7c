/**
 * The only place the desktop shell touches the server: its public entry point and its pure
 * settings (the default data folder), nothing deeper. The server's code loads on the first
 * `startServer` call, not with this file: `npm start` reads the settings before it knows whether
 * it runs the server itself (headless) or leaves it to the Electron app it starts.
 */
import type { RunningServer, StartServerOptions } from '../server/index.ts';
import type { runResetPassword as RunResetPassword } from '../server/index.ts';

export type { RunningServer, StartServerOptions };
export { defaultDataDir, type Env } from '../server/config.ts';

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const server = await import('../server/index.ts');
  return server.startServer(options);
}

/** The data folder owner's way back into an account (the desktop app's --reset-password). */
export async function runResetPassword(...args: Parameters<typeof RunResetPassword>): Promise<number> {
  const server = await import('../server/index.ts');
  return server.runResetPassword(...args);
}
