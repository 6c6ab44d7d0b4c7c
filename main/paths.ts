/**
 * Where the ledger keeps its data when run without Electron: pure, so each platform is tested anywhere.
 *
 * The folder matches Electron's `app.getPath('userData')` for an app named `personal-ledger`
 * (package.json `name`; there is no `productName` there) and the server CLI's default, so the
 * desktop app and the headless server read and write the same ledger.
 */
import path from 'node:path';

export const APP_DATA_FOLDER = 'personal-ledger';

export type Env = Readonly<Record<string, string | undefined>>;

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

/**
 * The data folder: `LEDGER_DATA_DIR` when set (resolved against the current directory), otherwise the OS
 * application-data folder + `personal-ledger`:
 * - Linux and other Unixes: `$XDG_CONFIG_HOME` (when set, as Chromium/Electron read it) or `~/.config`
 * - macOS: `~/Library/Application Support`
 * - Windows: `%APPDATA%` or `~\AppData\Roaming`
 */
export function defaultDataDir(platform: NodeJS.Platform, env: Env, homedir: string, cwd: string = process.cwd()): string {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const override = nonEmpty(env.LEDGER_DATA_DIR);
  if (override !== undefined) return p.isAbsolute(override) ? p.normalize(override) : p.join(cwd, override);
  switch (platform) {
    case 'win32': {
      const appData = nonEmpty(env.APPDATA);
      return p.join(appData ?? p.join(homedir, 'AppData', 'Roaming'), APP_DATA_FOLDER);
    }
    case 'darwin':
      return p.join(homedir, 'Library', 'Application Support', APP_DATA_FOLDER);
    default: {
      const base = nonEmpty(env.XDG_CONFIG_HOME) ?? p.join(homedir, '.config');
      return p.isAbsolute(base) ? p.join(base, APP_DATA_FOLDER) : p.join(cwd, base, APP_DATA_FOLDER);
    }
  }
}
