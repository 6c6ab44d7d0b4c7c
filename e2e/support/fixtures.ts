import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import { startServer, type RunningServer } from '../../server/index.ts';
import { FakeOllama } from '../../test/support/fake-ollama.ts';
import { Api, TEST_SECRET } from '../../test/support/server.ts';
import { LedgerApp } from '../pages/ledger-app.ts';
import { RENDERER_DIST } from './paths.ts';
import { PASSWORD } from './people.ts';

export interface Ledger {
  server: RunningServer;
  url: string;
  dataDir: string;
  /** The advisor's model server, scripted by the test. */
  fake: FakeOllama;
  /** Plain HTTP to the same server, for seeding data a test is not about. */
  api: Api;
}

/** The real server (startServer from server/index.ts) on a free loopback port over a fresh temporary data folder. */
async function startLedger(): Promise<{ ledger: Ledger; stop: () => Promise<void> }> {
  const fake = new FakeOllama();
  await fake.start();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-e2e-'));
  const server = await startServer({
    dataDir,
    port: 0,
    secretKey: TEST_SECRET,
    bcryptCost: 4,
    rendererDir: RENDERER_DIST,
    env: { OLLAMA_HOST: fake.url },
    log: () => {},
  });
  const stop = async () => {
    await server.close();
    await fake.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { ledger: { server, url: server.url, dataDir, fake, api: new Api(server.url) }, stop };
}

/**
 * Each test gets the real server on a free loopback port over a fresh temporary data folder,
 * serving the built renderer, with a fake Ollama for the advisor. `otherLedger` is a second app
 * (another computer, its own data folder), started only for the tests that ask for it (sync).
 */
export const test = base.extend<{ ledger: Ledger; otherLedger: Ledger; app: LedgerApp }>({
  // Playwright reads the fixtures a function needs from its first parameter's pattern: none here.
  ledger: async ({}, use) => {
    const { ledger, stop } = await startLedger();
    await use(ledger);
    await stop();
  },
  otherLedger: async ({}, use) => {
    const { ledger, stop } = await startLedger();
    await use(ledger);
    await stop();
  },
  baseURL: async ({ ledger }, use) => {
    await use(ledger.url);
  },
  // Every test fails on an uncaught error in the page or on anything the CSP refused.
  page: async ({ page }, use) => {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
        problems.push(`CSP: ${message.text()}`);
    });
    await use(page);
    expect(problems, 'errors in the page').toEqual([]);
  },
  // The page objects know no test data: the fixture hands them the password people sign up with.
  app: async ({ page }, use) => {
    await use(new LedgerApp(page, { password: PASSWORD }));
  },
});

export { expect };
