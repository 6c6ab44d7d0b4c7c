import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, defaultDataDir, resolveSecretKey, secureDataDir } from './config.ts';

describe('defaultDataDir', () => {
  it('when on Linux without XDG_CONFIG_HOME, then the folder is ~/.config/personal-ledger', () => {
    expect(defaultDataDir('linux', {}, '/home/ann')).toBe('/home/ann/.config/personal-ledger');
  });

  it('when on Linux with an absolute XDG_CONFIG_HOME, then the folder is inside it', () => {
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/data/cfg' }, '/home/ann')).toBe('/data/cfg/personal-ledger');
  });

  it('when XDG_CONFIG_HOME is blank, then ~/.config is used; when relative, it is taken from the working folder', () => {
    expect(defaultDataDir('freebsd', { XDG_CONFIG_HOME: '  ' }, '/home/ann')).toBe('/home/ann/.config/personal-ledger');
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: 'cfg' }, '/home/ann', '/work')).toBe('/work/cfg/personal-ledger');
  });

  it('when on macOS, then the folder is in ~/Library/Application Support (XDG is ignored)', () => {
    expect(defaultDataDir('darwin', { XDG_CONFIG_HOME: '/x' }, '/Users/ann')).toBe(
      '/Users/ann/Library/Application Support/personal-ledger',
    );
  });

  it('when on Windows with APPDATA, then the folder is %APPDATA%\\personal-ledger', () => {
    expect(defaultDataDir('win32', { APPDATA: 'C:\\Users\\Ann\\AppData\\Roaming' }, 'C:\\Users\\Ann')).toBe(
      'C:\\Users\\Ann\\AppData\\Roaming\\personal-ledger',
    );
  });

  it('when on Windows without APPDATA, then the roaming folder under the home folder is used', () => {
    expect(defaultDataDir('win32', {}, 'C:\\Users\\Ann')).toBe('C:\\Users\\Ann\\AppData\\Roaming\\personal-ledger');
  });

  it('when LEDGER_DATA_DIR is set, then it wins on every platform, relative paths against the working folder', () => {
    expect(defaultDataDir('linux', { LEDGER_DATA_DIR: '/srv/ledger', XDG_CONFIG_HOME: '/x' }, '/home/ann')).toBe(
      '/srv/ledger',
    );
    expect(defaultDataDir('darwin', { LEDGER_DATA_DIR: 'data' }, '/Users/ann', '/Users/ann/work')).toBe(
      '/Users/ann/work/data',
    );
    expect(defaultDataDir('win32', { LEDGER_DATA_DIR: 'D:\\Ledger', APPDATA: 'C:\\x' }, 'C:\\Users\\Ann')).toBe(
      'D:\\Ledger',
    );
  });

  it('when LEDGER_DATA_DIR is blank, then the OS folder is used', () => {
    expect(defaultDataDir('linux', { LEDGER_DATA_DIR: '' }, '/home/ann')).toBe('/home/ann/.config/personal-ledger');
  });
});

describe('the data folder and its secret key on every start', () => {
  const temp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-modes-'));
  const mode = (file: string) => fs.statSync(file).mode & 0o777;

  it('when an existing data folder is 0755 with 0644 files and 0755 sub-folders, then a start tightens them to 0700 and 0600 and says what it changed', () => {
    const dir = temp();
    try {
      fs.chmodSync(dir, 0o755);
      fs.mkdirSync(path.join(dir, 'ledgers'), { mode: 0o755 });
      fs.mkdirSync(path.join(dir, 'backups', 'u1'), { recursive: true, mode: 0o755 });
      fs.writeFileSync(path.join(dir, 'identity.sqlite'), '', { mode: 0o644 });
      fs.writeFileSync(path.join(dir, 'ledgers', 'a.sqlite'), '', { mode: 0o666 });
      fs.writeFileSync(path.join(dir, 'backups', 'u1', 'b.sqlite'), '', { mode: 0o644 });
      fs.symlinkSync('/etc/hostname', path.join(dir, 'ledgers', 'link'));
      const before = mode('/etc/hostname');
      const tightened = secureDataDir(dir);
      expect(mode(dir)).toBe(0o700);
      for (const sub of ['ledgers', 'backups', 'backups/u1']) expect(mode(path.join(dir, sub))).toBe(0o700);
      for (const file of ['identity.sqlite', 'ledgers/a.sqlite', 'backups/u1/b.sqlite'])
        expect(mode(path.join(dir, file))).toBe(0o600);
      expect(mode('/etc/hostname')).toBe(before); // a link is never followed
      expect(tightened).toContain(`${dir} (0755 -> 0700)`);
      expect(tightened).toHaveLength(7);
      expect(secureDataDir(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when the data folder belongs to another user, then the start is refused naming the folder, and nothing in it changes', () => {
    const dir = temp();
    try {
      let foreign = '/';
      if (process.getuid?.() === 0) {
        foreign = path.join(dir, 'theirs');
        fs.mkdirSync(foreign, { mode: 0o755 });
        fs.chownSync(foreign, 65534, 65534);
      }
      const before = mode(foreign);
      expect(() => secureDataDir(foreign)).toThrow(ConfigError);
      expect(() => secureDataDir(foreign)).toThrow(/belongs to another user .* run the app as that user/);
      expect(mode(foreign)).toBe(before);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['readable by everyone (0644)', 0o644, 'k'.repeat(64), /readable by other users \(mode 0644\).*delete it/],
    ['readable by its group (0640)', 0o640, 'k'.repeat(64), /readable by other users \(mode 0640\)/],
    ['short (3 bytes)', 0o600, 'abc', /shorter than 32 bytes; delete it/],
    ['32 bytes that are no key this app makes', 0o600, 'a'.repeat(32), /does not hold a key as this app makes them/],
    ['a key with characters outside base64url', 0o600, `${'k'.repeat(60)} ; x`, /does not hold a key/],
  ])(
    'when an existing secret.key is %s, then it is refused with what to do, and left as it is',
    (_what, fileMode, content, message) => {
      const dir = temp();
      try {
        const file = path.join(dir, 'secret.key');
        fs.writeFileSync(file, content, { mode: fileMode });
        fs.chmodSync(file, fileMode);
        expect(() => resolveSecretKey(undefined, dir)).toThrow(message);
        expect(fs.readFileSync(file, 'utf8')).toBe(content);
        expect(mode(file)).toBe(fileMode);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('when there is no secret.key, then one of 48 random bytes is made 0600 and read back the same on the next start', () => {
    const dir = temp();
    try {
      const secret = resolveSecretKey(undefined, dir);
      expect(secret).toMatch(/^[A-Za-z0-9_-]{64}$/);
      expect(mode(path.join(dir, 'secret.key'))).toBe(0o600);
      expect(resolveSecretKey(undefined, dir)).toBe(secret);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
