import { describe, expect, it } from 'vitest';
import { defaultDataDir } from './config.ts';

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
