/**
 * What `npm start` does under plain Node (`main/start.ts` wires the real side effects in).
 *
 * With the Electron binary on disk, it runs the desktop app. Without it (installed offline, so the
 * electron package could not download its binary) or without a display, it prints one line and
 * runs the same local server headless, for use in a browser. It never ends with a stack trace.
 */
import { defaultDataDir, type Env, type RunningServer, type StartServerOptions } from './server.ts';
import { isPortUnavailable, listenWithFallback } from './settings.ts';

export const NOTICE_NO_ELECTRON =
  'Electron binary is not installed (no network at install time); falling back to the headless server.';
export const NOTICE_NO_DISPLAY =
  'No graphical display found (DISPLAY and WAYLAND_DISPLAY are unset); falling back to the headless server.';
export const NOTICE_HEADLESS_REQUESTED = 'LEDGER_HEADLESS is set; starting the headless server.';

export type LaunchPlan = { mode: 'electron'; binary: string } | { mode: 'headless'; notice: string };

/** Pure decision: desktop app when the binary is present and can show a window, headless otherwise. */
export function decideLaunch(input: { binary: string | null; platform: NodeJS.Platform; env: Env }): LaunchPlan {
  const { binary, platform, env } = input;
  if (env.LEDGER_HEADLESS === '1' || env.LEDGER_HEADLESS === 'true')
    return { mode: 'headless', notice: NOTICE_HEADLESS_REQUESTED };
  if (binary === null) return { mode: 'headless', notice: NOTICE_NO_ELECTRON };
  const unixLike = platform !== 'win32' && platform !== 'darwin';
  if (unixLike && !env.DISPLAY && !env.WAYLAND_DISPLAY) return { mode: 'headless', notice: NOTICE_NO_DISPLAY };
  return { mode: 'electron', binary };
}

/** The environment for the Electron child: ELECTRON_RUN_AS_NODE would turn it into plain Node. */
export function electronChildEnv(env: Env): Record<string, string> {
  const childEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && key !== 'ELECTRON_RUN_AS_NODE') childEnv[key] = value;
  }
  return childEnv;
}

/** `npm run serve`'s default port (CONTRACT §1). */
export const DEFAULT_HEADLESS_PORT = 4599;

export interface HeadlessConfig {
  dataDir: string;
  /** Ports to try in order: PORT alone when set; otherwise the default, then any free port. */
  ports: number[];
  secretKey?: string;
}

/**
 * The headless server's settings, with the same defaults as `npm run serve` (CONTRACT §1): PORT
 * (default 4599, 0 = any free port), LEDGER_DATA_DIR (default: the OS app-data folder), SECRET_KEY
 * (default: the server generates one and keeps it in the data folder). One difference, because
 * `npm start` must not just fail: when PORT is not set and 4599 is taken, a free port is used.
 */
export function headlessConfig(input: {
  platform: NodeJS.Platform;
  env: Env;
  homedir: string;
  cwd: string;
}): HeadlessConfig | { error: string } {
  const { env } = input;
  const dataDir = defaultDataDir(input.platform, env, input.homedir, input.cwd);
  const rawPort = env.PORT?.trim() ?? '';
  let ports: number[];
  if (rawPort === '') {
    ports = [DEFAULT_HEADLESS_PORT, 0];
  } else if (/^\d{1,5}$/.test(rawPort) && Number(rawPort) <= 65535) {
    ports = [Number(rawPort)];
  } else {
    return { error: `PORT must be a whole number from 0 to 65535, not "${env.PORT ?? ''}"` };
  }
  const secretKey = env.SECRET_KEY;
  return secretKey !== undefined && secretKey !== '' ? { dataDir, ports, secretKey } : { dataDir, ports };
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.name;
  return String(error);
}

export interface ChildLike {
  on(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  kill(signal?: NodeJS.Signals): boolean;
}

/** What the launcher needs of a running server (the real `RunningServer` has more). */
export type ServerHandle = Pick<RunningServer, 'url' | 'port' | 'close'>;
export type StartServer = (options: StartServerOptions) => Promise<ServerHandle>;

export interface LauncherDeps {
  platform: NodeJS.Platform;
  env: Env;
  homedir: string;
  cwd: string;
  /** Folder whose package.json `main` Electron runs (the project root). */
  appDir: string;
  findElectronBinary(): string | null;
  spawnElectron(binary: string, args: string[], env: Record<string, string>): ChildLike;
  /** Loads and starts the server (loaded lazily, so the desktop path never opens databases in this process). */
  startServer: StartServer;
  log(line: string): void;
  error(line: string): void;
  onSignal(signal: 'SIGINT' | 'SIGTERM', handler: () => void): void;
  exit(code: number): void;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Starts the headless server and keeps it until SIGINT/SIGTERM. Resolves once started (or failed). */
export async function runHeadless(deps: LauncherDeps): Promise<void> {
  const config = headlessConfig(deps);
  if ('error' in config) {
    deps.error(`Could not start the ledger server: ${config.error}`);
    deps.exit(1);
    return;
  }
  const { dataDir, secretKey } = config;
  let running: ServerHandle;
  try {
    running = await listenWithFallback(config.ports, (port) =>
      deps.startServer({ dataDir, port, env: { ...deps.env }, ...(secretKey === undefined ? {} : { secretKey }) }),
    );
  } catch (error) {
    const reason = isPortUnavailable(error)
      ? `port ${config.ports.at(-1) ?? ''} is not available (${errorMessage(error)}); set PORT to another one (0 picks a free port)`
      : errorMessage(error);
    deps.error(`Could not start the ledger server: ${reason}`);
    deps.exit(1);
    return;
  }
  deps.log(`Ledger API listening on ${running.url}`);
  deps.log(`Open ${running.url} in your browser`);

  let closing = false;
  const stop = (): void => {
    if (closing) {
      deps.exit(1); // a second signal while closing: stop waiting
      return;
    }
    closing = true;
    running.close().then(
      () => deps.exit(0),
      (error: unknown) => {
        deps.error(`Error while closing the ledger server: ${errorMessage(error)}`);
        deps.exit(0);
      },
    );
  };
  for (const signal of SIGNALS) deps.onSignal(signal, stop);
}

/** Runs the desktop app as a child process, forwarding signals and its exit code. */
function runElectron(deps: LauncherDeps, binary: string): void {
  let forwarded = false;
  let done = false;
  let child: ChildLike;
  try {
    child = deps.spawnElectron(binary, [deps.appDir], electronChildEnv(deps.env));
  } catch (error) {
    deps.log(`Could not start Electron (${errorMessage(error)}); falling back to the headless server.`);
    void runHeadless(deps);
    return;
  }
  child.on('error', (error) => {
    if (done) return;
    done = true;
    deps.log(`Could not start Electron (${errorMessage(error)}); falling back to the headless server.`);
    void runHeadless(deps);
  });
  child.on('exit', (code, signal) => {
    if (done) return;
    done = true;
    deps.exit(code ?? (signal === null || forwarded ? 0 : 1));
  });
  for (const signal of SIGNALS) {
    deps.onSignal(signal, () => {
      forwarded = true;
      if (!done) child.kill(signal);
    });
  }
}

export async function runLauncher(deps: LauncherDeps): Promise<void> {
  const plan = decideLaunch({ binary: deps.findElectronBinary(), platform: deps.platform, env: deps.env });
  if (plan.mode === 'electron') {
    runElectron(deps, plan.binary);
    return;
  }
  deps.log(plan.notice);
  await runHeadless(deps);
}
