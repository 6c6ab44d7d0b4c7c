import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SETTINGS_FILE,
  isPortUnavailable,
  listenWithFallback,
  parseSettings,
  portAttempts,
  settingsAfterListen,
  startOnPreferredPort,
} from './settings.ts';

const inUse = (): Error =>
  Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:47615'), { code: 'EADDRINUSE' });

describe('parseSettings', () => {
  it('when the file holds a usable port, then it is read', () => {
    expect(parseSettings('{"port": 47615}')).toEqual({ port: 47615 });
  });

  it.each([
    null,
    '',
    'not json',
    '[]',
    'null',
    '{"port": "47615"}',
    '{"port": 80}',
    '{"port": 70000}',
    '{"port": 4761.5}',
  ])('when the file is %j, then no port is preferred', (text) => {
    expect(parseSettings(text)).toEqual({});
  });
});

describe('portAttempts', () => {
  it('when a port is remembered, then it is tried first and a free port (0) after', () => {
    expect(portAttempts({ port: 47615 })).toEqual([47615, 0]);
  });

  it('when nothing is remembered, then a free port (0) is used', () => {
    expect(portAttempts({})).toEqual([0]);
  });
});

describe('settingsAfterListen', () => {
  it('when no port was remembered, then the bound port is remembered', () => {
    expect(settingsAfterListen({}, 50123)).toEqual({ port: 50123 });
  });

  it('when a port is remembered (even if busy this time), then nothing is rewritten', () => {
    expect(settingsAfterListen({ port: 47615 }, 50123)).toBeNull();
  });
});

describe('isPortUnavailable', () => {
  it('when listening failed with EADDRINUSE or EACCES (also as a cause), then the port is unavailable', () => {
    expect(isPortUnavailable(inUse())).toBe(true);
    expect(isPortUnavailable(Object.assign(new Error('listen EACCES'), { code: 'EACCES', syscall: 'listen' }))).toBe(
      true,
    );
    expect(isPortUnavailable(new Error('wrapped', { cause: inUse() }))).toBe(true);
  });

  it('when the failure is anything else, then it is not about the port', () => {
    expect(isPortUnavailable(new Error('SQLITE_CORRUPT'))).toBe(false);
    expect(
      isPortUnavailable(Object.assign(new Error('EACCES: open secret.key'), { code: 'EACCES', syscall: 'open' })),
    ).toBe(false);
    expect(isPortUnavailable('EADDRINUSE')).toBe(false);
    expect(isPortUnavailable(null)).toBe(false);
  });
});

describe('listenWithFallback', () => {
  it('when the preferred port is taken, then a free port is used', async () => {
    const listen = vi.fn(async (port: number) => {
      if (port === 47615) throw inUse();
      return { port: 50123 };
    });
    await expect(listenWithFallback([47615, 0], listen)).resolves.toEqual({ port: 50123 });
    expect(listen.mock.calls).toEqual([[47615], [0]]);
  });

  it('when starting fails for another reason, then it is not retried', async () => {
    const listen = vi.fn(async () => {
      throw new Error('migration failed');
    });
    await expect(listenWithFallback([47615, 0], listen)).rejects.toThrow('migration failed');
    expect(listen).toHaveBeenCalledOnce();
  });

  it('when the last port is taken too, then that error is reported', async () => {
    await expect(listenWithFallback([5180], async () => Promise.reject(inUse()))).rejects.toThrow('EADDRINUSE');
  });
});

describe('startOnPreferredPort (settings file)', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'ledger-settings-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('when first started, then the free port obtained is saved for next time', async () => {
    const running = await startOnPreferredPort({
      dataDir,
      listen: async (port) => ({ port: port === 0 ? 50123 : port }),
    });
    expect(running.port).toBe(50123);
    expect(JSON.parse(await readFile(path.join(dataDir, SETTINGS_FILE), 'utf8'))).toEqual({ port: 50123 });
  });

  it('when a port was saved, then it is asked for again', async () => {
    await writeFile(path.join(dataDir, SETTINGS_FILE), '{"port": 47615}');
    const listen = vi.fn(async (port: number) => ({ port }));
    await startOnPreferredPort({ dataDir, listen });
    expect(listen).toHaveBeenCalledExactlyOnceWith(47615);
  });

  it('when the saved port is taken, then a free port is used and the preference is kept', async () => {
    await writeFile(path.join(dataDir, SETTINGS_FILE), '{"port": 47615}');
    const running = await startOnPreferredPort({
      dataDir,
      listen: async (port) => {
        if (port !== 0) throw inUse();
        return { port: 50999 };
      },
    });
    expect(running.port).toBe(50999);
    expect(JSON.parse(await readFile(path.join(dataDir, SETTINGS_FILE), 'utf8'))).toEqual({ port: 47615 });
  });

  it('when the settings cannot be saved, then the server still runs and a warning is given', async () => {
    const onWarning = vi.fn();
    const blocked = path.join(dataDir, 'a-file');
    await writeFile(blocked, 'x');
    const running = await startOnPreferredPort({ dataDir: blocked, listen: async () => ({ port: 50123 }), onWarning });
    expect(running.port).toBe(50123);
    expect(onWarning).toHaveBeenCalledOnce();
  });
});
