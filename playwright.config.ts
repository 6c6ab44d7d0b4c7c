import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/support/browser.ts';

/**
 * End-to-end tests: the real renderer, served by the real headless server that each test starts
 * in-process over its own temporary data folder (see e2e/support/fixtures.ts), driven in Debian's
 * Chromium. Every test has its own server, data folder and user, so the tests run in any order
 * and side by side: two workers, one per core of the two-core machines the suite runs on.
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'e2e/artifacts/test-results',
  globalSetup: './e2e/support/global-setup.ts',
  workers: 2,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // A test that fails once is a failure: no retry turns it into a pass.
  retries: 0,
  // Hang guards, not speed bounds: each is far beyond what a step takes on a busy machine.
  timeout: 3 * 60_000,
  globalTimeout: 30 * 60_000,
  expect: { timeout: 30_000 },
  reporter: [
    ['list'],
    ['html', { outputFolder: 'e2e/artifacts/report', open: 'never' }],
    // CI asks for a JSON report to count passed and failed tests.
    ...(process.env.PLAYWRIGHT_JSON_REPORT
      ? [['json', { outputFile: process.env.PLAYWRIGHT_JSON_REPORT }] as ['json', { outputFile: string }]]
      : []),
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    actionTimeout: 30_000,
    navigationTimeout: 30_000,
    screenshot: 'only-on-failure',
    // No trace: recording one for every test (to keep those that fail) was a quarter of the suite's
    // CPU. A failure keeps its screenshot and the page's accessibility tree (error-context.md);
    // `npx playwright test --trace retain-on-failure` records traces when they are wanted.
    trace: 'off',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
});
