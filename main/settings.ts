/**
 * The desktop settings file (`desktop.json` in the data folder) and the choice of the server's port.
 *
 * Why keep a port at all: the renderer's storage (localStorage, IndexedDB) belongs to its origin,
 * `http://127.0.0.1:<port>`. Keeping the same port across launches keeps that origin, so the first
 * free port we get is remembered and asked for again next time; if it is taken then, a free port (0)
 * is used for that run.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const SETTINGS_FILE = 'desktop.json';

export interface DesktopSettings {
  /** Preferred port of the local server; absent means "none yet". */
  port?: number;
}

/** A port we are willing to ask for: an integer in the unprivileged range. */
export function isUsablePort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1024 && value <= 65535;
}

/** Parses the settings file's text; anything missing, malformed or out of range is ignored, never fatal. */
export function parseSettings(text: string | null): DesktopSettings {
  if (text === null) return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return {};
  const port = (data as Record<string, unknown>).port;
  return isUsablePort(port) ? { port } : {};
}

/** The ports to try, in order: the remembered port, then any free port; with none remembered, any free port. */
export function portAttempts(settings: DesktopSettings): number[] {
  if (isUsablePort(settings.port)) return [settings.port, 0];
  return [0];
}

/** The error and its causes (a wrapper may carry the listen error as `cause`). */
function errorChain(error: unknown): Array<{ code?: unknown; syscall?: unknown }> {
  const chain: Array<{ code?: unknown; syscall?: unknown }> = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    chain.push(current as { code?: unknown; syscall?: unknown });
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/**
 * True when listening failed because the port is taken (EADDRINUSE) or not allowed (EACCES from
 * `listen`); another port may then work. An EACCES on the data folder is not a port problem.
 */
export function isPortUnavailable(error: unknown): boolean {
  return errorChain(error).some(
    ({ code, syscall }) => code === 'EADDRINUSE' || (code === 'EACCES' && syscall === 'listen'),
  );
}

/** The settings to write after the server listened on `boundPort`, or null when nothing needs saving. */
export function settingsAfterListen(settings: DesktopSettings, boundPort: number): DesktopSettings | null {
  if (isUsablePort(settings.port)) return null; // keep the preference even if it was busy this once
  if (!isUsablePort(boundPort)) return null;
  return { ...settings, port: boundPort };
}

/** Tries each port in turn with `listen`, moving on only when a port is unavailable. */
export async function listenWithFallback<T>(
  ports: readonly number[],
  listen: (port: number) => Promise<T>,
): Promise<T> {
  let lastError: unknown = new Error('No port to try');
  for (const [index, port] of ports.entries()) {
    try {
      return await listen(port);
    } catch (error) {
      lastError = error;
      if (!isPortUnavailable(error) || index === ports.length - 1) throw error;
    }
  }
  throw lastError;
}

export async function readSettings(dataDir: string): Promise<DesktopSettings> {
  try {
    return parseSettings(await readFile(path.join(dataDir, SETTINGS_FILE), 'utf8'));
  } catch {
    return {};
  }
}

/** Writes atomically (temp file + rename) so a crash never leaves half a file. */
export async function writeSettings(dataDir: string, settings: DesktopSettings): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const target = path.join(dataDir, SETTINGS_FILE);
  const temp = `${target}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(settings, null, 2)}\n`, 'utf8');
  await rename(temp, target);
}

/**
 * Starts something that listens (the server) on the preferred port, falling back to a free one, and
 * remembers the port it got. Failing to save the preference is not fatal (reported through `onWarning`).
 */
export async function startOnPreferredPort<T extends { port: number }>(options: {
  dataDir: string;
  listen: (port: number) => Promise<T>;
  onWarning?: (message: string) => void;
}): Promise<T> {
  const settings = await readSettings(options.dataDir);
  const running = await listenWithFallback(portAttempts(settings), options.listen);
  const next = settingsAfterListen(settings, running.port);
  if (next !== null) {
    try {
      await writeSettings(options.dataDir, next);
    } catch (error) {
      options.onWarning?.(`Could not save ${SETTINGS_FILE}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return running;
}
