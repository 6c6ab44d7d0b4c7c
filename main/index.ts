/**
 * Electron main process: lifecycle, one window, security wiring. No business rules, no SQL: the
 * ledger is the local server (`server/`), started in-process on 127.0.0.1 and shown in the window.
 * Every decision is a pure function in security.ts, settings.ts or shutdown.ts.
 */
import { app, BrowserWindow, dialog, ipcMain, screen, session, shell } from 'electron';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorMessage } from './launcher.ts';
import { ensurePreload } from './preload-build.ts';
import {
  OPEN_EXTERNAL_CHANNEL,
  contentSecurityPolicy,
  installContentsGuards,
  openExternalRequest,
  permissionDecision,
  windowOptions,
  withContentSecurityPolicy,
} from './security.ts';
import { runResetPassword, startServer, type RunningServer } from './server.ts';
import { startOnPreferredPort } from './settings.ts';
import { createQuitCoordinator } from './shutdown.ts';

const mainDir = path.dirname(fileURLToPath(import.meta.url));

let server: RunningServer | null = null;
let appOrigin: string | null = null;
let mainWindow: BrowserWindow | null = null;

const log = (message: string): void => console.error(`[personal-ledger] ${message}`);

const openExternal = (url: string): Promise<void> => shell.openExternal(url);

function createWindow(preloadPath: string, url: string): BrowserWindow {
  const window = new BrowserWindow(
    windowOptions(preloadPath, { appVersion: app.getVersion(), workArea: screen.getPrimaryDisplay().workAreaSize }),
  );
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  void window.loadURL(url);
  return window;
}

function focusMainWindow(): void {
  if (mainWindow === null) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

async function main(): Promise<void> {
  // Sandbox every renderer, whatever options a window is created with.
  app.enableSandbox();

  // Tests (and power users) may point the app at another data folder; Chromium's own files follow it.
  const dataDirOverride = process.env.LEDGER_DATA_DIR?.trim();
  if (dataDirOverride) app.setPath('userData', path.resolve(dataDirOverride));

  // `personal-ledger --reset-password <email>`: the data folder owner's way back into an account (no
  // window; it works beside a running app, so before the single-instance lock).
  const reset = process.argv.indexOf('--reset-password');
  if (reset !== -1) {
    const code = await runResetPassword(process.argv.slice(reset + 1, reset + 2), {
      input: process.stdin,
      output: process.stdout,
      env: { ...process.env, LEDGER_DATA_DIR: app.getPath('userData') },
    });
    app.exit(code);
    return;
  }

  if (!app.requestSingleInstanceLock()) {
    app.quit(); // another instance owns the ledger; it gets a 'second-instance' event and shows itself
    return;
  }
  app.on('second-instance', focusMainWindow);

  const quitCoordinator = createQuitCoordinator({
    close: () => (server === null ? Promise.resolve() : server.close()),
    quit: () => app.quit(),
    log,
  });
  app.on('will-quit', (event) => quitCoordinator.onQuitRequested(event));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Every webContents (windows, and anything else Chromium creates) gets the same guards.
  app.on('web-contents-created', (_event, contents) => {
    installContentsGuards(
      contents,
      () => appOrigin,
      openExternal,
      (error) => log(`openExternal failed: ${errorMessage(error)}`),
    );
  });

  await app.whenReady();

  const dataDir = app.getPath('userData');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // The app folder (app.asar when packaged, the checkout when run from source) holds renderer/dist and
  // migrations/; the server's own defaults are relative to its source file, which moves when compiled
  // into dist/, so both are passed explicitly. No secretKey: the server generates a per-install secret
  // and keeps it in the data folder.
  const appPath = app.getAppPath();
  const serverOptions = {
    dataDir,
    // The desktop app picks its own port (desktop.json); a PORT meant for `npm run serve` must not apply.
    env: { ...process.env, PORT: undefined },
    rendererDir: path.join(appPath, 'renderer', 'dist'),
    migrationsDir: path.join(appPath, 'migrations'),
  };
  server = await startOnPreferredPort({
    dataDir,
    listen: (port) => startServer({ ...serverOptions, port }),
    onWarning: log,
  });
  appOrigin = new URL(server.url).origin;

  const policy = contentSecurityPolicy(appOrigin);
  const ses = session.defaultSession;
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders, policy) });
  });
  ses.setPermissionRequestHandler((webContents, permission, callback) => {
    callback(permissionDecision(permission, webContents.getURL()));
  });
  ses.setPermissionCheckHandler((_webContents, permission, requestingOrigin) =>
    permissionDecision(permission, requestingOrigin),
  );

  ipcMain.handle(OPEN_EXTERNAL_CHANNEL, async (event, url: unknown) => {
    const target = appOrigin === null ? null : openExternalRequest(event.senderFrame?.url, url, appOrigin);
    if (target === null) return false;
    try {
      await shell.openExternal(target);
      return true;
    } catch (error) {
      log(`openExternal failed: ${errorMessage(error)}`);
      return false;
    }
  });

  const preloadPath = ensurePreload(mainDir, path.join(mainDir, '..', 'dist', 'dev'));
  const url = `${server.url}/`;
  mainWindow = createWindow(preloadPath, url);
  app.on('activate', () => {
    if (mainWindow === null) mainWindow = createWindow(preloadPath, url);
    else focusMainWindow();
  });
}

main().catch((error: unknown) => {
  const message = errorMessage(error);
  log(`could not start: ${message}`);
  if (app.isReady()) dialog.showErrorBox('Personal Ledger could not start', message);
  const closing = server === null ? Promise.resolve() : server.close();
  closing.catch(() => undefined).finally(() => app.exit(1));
});
