import fs from 'node:fs';

/**
 * Debian's Chromium headless shell (`apt-get install -y chromium-headless-shell`), the build of
 * Chromium without its window that Playwright itself runs headless tests in, because Playwright's
 * own browser download does not work on the build machines; the full Chromium when the shell is
 * missing. The flags are listed and explained in e2e/README.md.
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ??
  (fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];
