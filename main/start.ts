/**
 * `npm start` (plain Node 22, types stripped): the desktop app when Electron's binary is installed,
 * the headless server otherwise. All decisions live in `launcher.ts`; this file only wires real effects.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectronBinary, nodeBinaryLookup } from './electron-binary.ts';
import { errorMessage, runLauncher } from './launcher.ts';
import { startServer } from './server.ts';

const fatal = (error: unknown): void => {
  console.error(`Personal Ledger stopped: ${errorMessage(error)}`);
  process.exit(1);
};
process.on('uncaughtException', fatal);
process.on('unhandledRejection', fatal);

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

await runLauncher({
  platform: process.platform,
  env: process.env,
  homedir: os.homedir(),
  cwd: process.cwd(),
  appDir,
  findElectronBinary: () => findElectronBinary(nodeBinaryLookup(process.env, import.meta.url)),
  spawnElectron: (binary, args, env) => spawn(binary, args, { stdio: 'inherit', env, cwd: appDir }),
  startServer,
  log: (line) => console.log(line),
  error: (line) => console.error(line),
  onSignal: (signal, handler) => {
    process.on(signal, handler);
  },
  exit: (code) => process.exit(code),
});
