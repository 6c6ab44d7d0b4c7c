/**
 * Debian's Chromium (`apt-get install -y chromium`), because Playwright's own browser download does
 * not work on the build machines. The flags are listed and explained in e2e/README.md.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
