import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron } from '@playwright/test';
import { findElectronBinary, nodeBinaryLookup } from '../main/electron-binary.ts';
import { test, expect } from './support/fixtures.ts';
import { ROOT } from './support/paths.ts';

/**
 * The real desktop app, launched as `npm start` launches it (Electron on the project folder).
 * The Electron binary is downloaded by electron's install script, which needs the network; where it
 * is missing (as on the build machines) the test is skipped and says why.
 */
const binary = findElectronBinary(nodeBinaryLookup(process.env, import.meta.url));

test('when the desktop app starts, then its window shows the sign-in screen', async () => {
  test.skip(
    binary === null,
    'the Electron binary is not installed (node_modules/electron has no dist/; its download needs the network): nothing to launch',
  );
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-electron-'));
  // as the launcher does: ELECTRON_RUN_AS_NODE would turn Electron into plain Node
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[0] !== 'ELECTRON_RUN_AS_NODE' && e[1] !== undefined,
    ),
  );
  const app = await electron.launch({
    executablePath: binary!,
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), ROOT],
    cwd: ROOT,
    env: { ...env, LEDGER_DATA_DIR: dataDir },
    timeout: 30_000,
  });
  try {
    const window = await app.firstWindow();
    await expect(window.getByRole('heading', { name: 'Personal Ledger' })).toBeVisible({ timeout: 20_000 });
    await expect(window.getByRole('tab', { name: 'Create account' })).toBeVisible();
    expect(window.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    // the preload exposes only its named functions
    expect(
      await window.evaluate(() =>
        Object.keys((window as unknown as { ledgerDesktop?: object }).ledgerDesktop ?? {}).sort(),
      ),
    ).toEqual(['openExternal', 'version']);
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
