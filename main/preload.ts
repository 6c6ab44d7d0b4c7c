/**
 * Preload (sandboxed). Electron evaluates it as a classic script with a restricted `require` (only
 * 'electron' and a few built-ins), so it has no import/export statements and no relative requires;
 * `main/preload-build.ts` strips the types into `preload.cjs`.
 *
 * It exposes a handful of named functions, never a generic IPC bridge.
 */
const { contextBridge, ipcRenderer } = require('electron') as typeof import('electron');

// Same values as OPEN_EXTERNAL_CHANNEL and VERSION_ARGUMENT_PREFIX in security.ts (a test keeps them equal).
const OPEN_EXTERNAL_CHANNEL = 'ledger:open-external';
const VERSION_ARGUMENT_PREFIX = '--ledger-version=';

const versionArgument = process.argv.find((argument) => argument.startsWith(VERSION_ARGUMENT_PREFIX));

contextBridge.exposeInMainWorld(
  'ledgerDesktop',
  Object.freeze({
    /** The desktop app's version, e.g. "0.1.0" ('' when unknown). */
    version: versionArgument === undefined ? '' : versionArgument.slice(VERSION_ARGUMENT_PREFIX.length),
    /** Opens an http(s) or mailto URL in the OS browser/mail client; resolves false when refused. */
    openExternal(url: string): Promise<boolean> {
      if (typeof url !== 'string') return Promise.resolve(false);
      return ipcRenderer.invoke(OPEN_EXTERNAL_CHANNEL, url) as Promise<boolean>;
    },
  }),
);
