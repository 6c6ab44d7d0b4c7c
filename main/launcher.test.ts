import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  NOTICE_HEADLESS_REQUESTED,
  NOTICE_NO_DISPLAY,
  NOTICE_NO_ELECTRON,
  decideLaunch,
  electronChildEnv,
  headlessConfig,
  runLauncher,
  type ChildLike,
  type LauncherDeps,
} from './launcher.ts';

describe('decideLaunch', () => {
  it('when the Electron binary is present and a display is available, then the desktop app runs', () => {
    expect(decideLaunch({ binary: '/e/electron', platform: 'linux', env: { DISPLAY: ':0' } })).toEqual({
      mode: 'electron',
      binary: '/e/electron',
    });
    expect(decideLaunch({ binary: '/e/electron', platform: 'linux', env: { WAYLAND_DISPLAY: 'wayland-0' } }).mode).toBe(
      'electron',
    );
    expect(decideLaunch({ binary: 'C:\\e\\electron.exe', platform: 'win32', env: {} }).mode).toBe('electron');
    expect(decideLaunch({ binary: '/e/Electron.app/Contents/MacOS/Electron', platform: 'darwin', env: {} }).mode).toBe(
      'electron',
    );
  });

  it('when the Electron binary is absent, then the headless server runs with the "not installed" notice', () => {
    expect(decideLaunch({ binary: null, platform: 'linux', env: { DISPLAY: ':0' } })).toEqual({
      mode: 'headless',
      notice: NOTICE_NO_ELECTRON,
    });
    expect(decideLaunch({ binary: null, platform: 'win32', env: {} })).toEqual({
      mode: 'headless',
      notice: NOTICE_NO_ELECTRON,
    });
  });

  it('when on Linux without any display, then the headless server runs with the "no display" notice', () => {
    expect(decideLaunch({ binary: '/e/electron', platform: 'linux', env: {} })).toEqual({
      mode: 'headless',
      notice: NOTICE_NO_DISPLAY,
    });
  });

  it('when LEDGER_HEADLESS=1, then the headless server runs even with Electron present', () => {
    expect(decideLaunch({ binary: '/e/electron', platform: 'darwin', env: { LEDGER_HEADLESS: '1' } })).toEqual({
      mode: 'headless',
      notice: NOTICE_HEADLESS_REQUESTED,
    });
  });

  it('when the notice is printed, then it is a single line naming the missing binary and the fallback', () => {
    expect(NOTICE_NO_ELECTRON).not.toContain('\n');
    expect(NOTICE_NO_ELECTRON).toMatch(/Electron binary is not installed/);
    expect(NOTICE_NO_ELECTRON).toMatch(/headless server/);
  });
});

describe('headlessConfig', () => {
  const base = { platform: 'linux' as const, homedir: '/home/ann', cwd: '/work' };

  it('when nothing is configured, then the CLI defaults apply: port 4599 (then any free port), the OS data folder, no secret', () => {
    expect(headlessConfig({ ...base, env: {} })).toEqual({
      dataDir: '/home/ann/.config/personal-ledger',
      ports: [4599, 0],
    });
  });

  it('when PORT, LEDGER_DATA_DIR and SECRET_KEY are set, then they are used as given', () => {
    expect(
      headlessConfig({ ...base, env: { PORT: '0', LEDGER_DATA_DIR: '/srv/l', SECRET_KEY: 's'.repeat(40) } }),
    ).toEqual({
      dataDir: '/srv/l',
      ports: [0],
      secretKey: 's'.repeat(40),
    });
    expect(headlessConfig({ ...base, env: { PORT: '8123' } })).toMatchObject({ ports: [8123] });
  });

  it.each(['abc', '-1', '65536', '12.5', '1e3'])('when PORT is %j, then it is refused with a clear message', (port) => {
    expect(headlessConfig({ ...base, env: { PORT: port } })).toEqual({
      error: `PORT must be a whole number from 0 to 65535, not "${port}"`,
    });
  });
});

describe('electronChildEnv', () => {
  it('when ELECTRON_RUN_AS_NODE is set, then the child does not inherit it (Electron would run as plain Node)', () => {
    expect(electronChildEnv({ ELECTRON_RUN_AS_NODE: '1', HOME: '/home/ann', EMPTY: undefined })).toEqual({
      HOME: '/home/ann',
    });
  });
});

class FakeChild extends EventEmitter implements ChildLike {
  killed: NodeJS.Signals[] = [];
  kill(signal?: NodeJS.Signals): boolean {
    this.killed.push(signal ?? 'SIGTERM');
    return true;
  }
}

interface Harness {
  deps: LauncherDeps;
  out: string[];
  err: string[];
  exits: number[];
  signals: Map<string, Array<() => void>>;
  startServer: ReturnType<typeof vi.fn<LauncherDeps['startServer']>>;
  close: ReturnType<typeof vi.fn<() => Promise<void>>>;
  child: FakeChild;
  spawnElectron: ReturnType<typeof vi.fn<LauncherDeps['spawnElectron']>>;
}

function harness(dataDir: string, overrides: Partial<LauncherDeps> = {}): Harness {
  const out: string[] = [];
  const err: string[] = [];
  const exits: number[] = [];
  const signals = new Map<string, Array<() => void>>();
  const close = vi.fn(async (): Promise<void> => undefined);
  const startServer = vi.fn<LauncherDeps['startServer']>(async ({ port }) => {
    const bound = port === 0 ? 50123 : port;
    return { url: `http://127.0.0.1:${bound}`, port: bound, close };
  });
  const child = new FakeChild();
  const spawnElectron = vi.fn<LauncherDeps['spawnElectron']>(() => child);
  const deps: LauncherDeps = {
    platform: 'linux',
    env: { LEDGER_DATA_DIR: dataDir, DISPLAY: ':0' },
    homedir: '/home/nobody',
    cwd: '/',
    appDir: '/app',
    findElectronBinary: () => null,
    spawnElectron,
    startServer,
    log: (line) => out.push(line),
    error: (line) => err.push(line),
    onSignal: (signal, handler) => signals.set(signal, [...(signals.get(signal) ?? []), handler]),
    exit: (code) => exits.push(code),
    ...overrides,
  };
  return { deps, out, err, exits, signals, startServer, close, child, spawnElectron };
}

const raise = (h: Harness, signal: string): void => {
  for (const handler of h.signals.get(signal) ?? []) handler();
};

describe('runLauncher', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'ledger-launch-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('when the Electron binary is absent, then one notice line is printed and the server starts in the data folder', async () => {
    const h = harness(dataDir);
    await runLauncher(h.deps);
    expect(h.out).toEqual([
      NOTICE_NO_ELECTRON,
      'Ledger API listening on http://127.0.0.1:4599',
      'Open http://127.0.0.1:4599 in your browser',
    ]);
    expect(h.err).toEqual([]);
    expect(h.startServer).toHaveBeenCalledOnce();
    const options = h.startServer.mock.calls[0]?.[0];
    expect(options).toMatchObject({ dataDir, port: 4599 });
    expect(options?.secretKey).toBeUndefined();
    expect(h.spawnElectron).not.toHaveBeenCalled();
  });

  it('when PORT is not set and 4599 is taken, then a free port is used and printed', async () => {
    const h = harness(dataDir);
    h.startServer.mockImplementationOnce(async () => {
      throw Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:4599'), {
        code: 'EADDRINUSE',
        syscall: 'listen',
      });
    });
    await runLauncher(h.deps);
    expect(h.startServer.mock.calls.map(([options]) => options.port)).toEqual([4599, 0]);
    expect(h.out.slice(1)).toEqual([
      'Ledger API listening on http://127.0.0.1:50123',
      'Open http://127.0.0.1:50123 in your browser',
    ]);
  });

  it('when the PORT asked for is taken, then one line says so and the process exits 1', async () => {
    const h = harness(dataDir, {
      env: { LEDGER_DATA_DIR: dataDir, PORT: '5180' },
      startServer: async () => {
        throw Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:5180'), {
          code: 'EADDRINUSE',
          syscall: 'listen',
        });
      },
    });
    await runLauncher(h.deps);
    expect(h.err).toEqual([
      'Could not start the ledger server: port 5180 is not available (listen EADDRINUSE: address already in use 127.0.0.1:5180); set PORT to another one (0 picks a free port)',
    ]);
    expect(h.exits).toEqual([1]);
  });

  it('when PORT is malformed, then one line says so, the server is not started and the process exits 1', async () => {
    const h = harness(dataDir, { env: { LEDGER_DATA_DIR: dataDir, PORT: 'http' } });
    await runLauncher(h.deps);
    expect(h.err).toEqual([
      'Could not start the ledger server: PORT must be a whole number from 0 to 65535, not "http"',
    ]);
    expect(h.startServer).not.toHaveBeenCalled();
    expect(h.exits).toEqual([1]);
  });

  it('when SECRET_KEY is set, then it is handed to the server like the CLI does', async () => {
    const h = harness(dataDir, { env: { LEDGER_DATA_DIR: dataDir, SECRET_KEY: 'k'.repeat(48) } });
    await runLauncher(h.deps);
    expect(h.startServer.mock.calls[0]?.[0].secretKey).toBe('k'.repeat(48));
  });

  it('when SIGTERM or SIGINT arrives, then the server is closed and the process exits 0', async () => {
    for (const signal of ['SIGTERM', 'SIGINT']) {
      const h = harness(dataDir);
      await runLauncher(h.deps);
      raise(h, signal);
      await vi.waitFor(() => expect(h.exits).toEqual([0]));
      expect(h.close).toHaveBeenCalledOnce();
    }
  });

  it('when closing the server fails, then one line is printed and the process still exits 0', async () => {
    const h = harness(dataDir);
    h.close.mockRejectedValueOnce(new Error('database busy'));
    await runLauncher(h.deps);
    raise(h, 'SIGTERM');
    await vi.waitFor(() => expect(h.exits).toEqual([0]));
    expect(h.err).toEqual(['Error while closing the ledger server: database busy']);
  });

  it('when the server cannot start, then one line (no stack trace) is printed and the process exits 1', async () => {
    const failing = new Error('Cannot find module server/index.ts\n    at someStackFrame (file.js:1:1)');
    const h = harness(dataDir, { startServer: async () => Promise.reject(failing) });
    await runLauncher(h.deps);
    expect(h.err).toEqual(['Could not start the ledger server: Cannot find module server/index.ts']);
    expect(h.exits).toEqual([1]);
  });

  it('when the Electron binary is present, then Electron runs on the app folder and its exit code is passed on', async () => {
    const h = harness(dataDir, {
      findElectronBinary: () => '/e/electron',
      env: { LEDGER_DATA_DIR: dataDir, DISPLAY: ':0', ELECTRON_RUN_AS_NODE: '1' },
    });
    await runLauncher(h.deps);
    expect(h.spawnElectron).toHaveBeenCalledOnce();
    const [binary, args, env] = h.spawnElectron.mock.calls[0] ?? [];
    expect(binary).toBe('/e/electron');
    expect(args).toEqual(['/app']);
    expect(env).not.toHaveProperty('ELECTRON_RUN_AS_NODE');
    expect(h.startServer).not.toHaveBeenCalled();
    expect(h.out).toEqual([]);
    h.child.emit('exit', 3, null);
    expect(h.exits).toEqual([3]);
  });

  it('when a signal arrives while Electron runs, then it is forwarded and the exit is clean', async () => {
    const h = harness(dataDir, { findElectronBinary: () => '/e/electron' });
    await runLauncher(h.deps);
    raise(h, 'SIGTERM');
    expect(h.child.killed).toEqual(['SIGTERM']);
    h.child.emit('exit', null, 'SIGTERM');
    expect(h.exits).toEqual([0]);
  });

  it('when Electron cannot be spawned, then the headless server starts instead', async () => {
    const h = harness(dataDir, { findElectronBinary: () => '/e/electron' });
    await runLauncher(h.deps);
    h.child.emit('error', Object.assign(new Error('spawn /e/electron EACCES'), { code: 'EACCES' }));
    await vi.waitFor(() => expect(h.startServer).toHaveBeenCalledOnce());
    await vi.waitFor(() => expect(h.out).toHaveLength(3));
    expect(h.out[0]).toBe('Could not start Electron (spawn /e/electron EACCES); falling back to the headless server.');
    expect(h.exits).toEqual([]);
  });
});
