import fs from 'node:fs';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { DOC_SCREENSHOTS, SCREENSHOTS } from './paths.ts';

/**
 * A screenshot of a main screen, kept as a test artifact (e2e/artifacts/screens/<name>.png) and
 * attached to the report. With E2E_UPDATE_DOCS=1 it also replaces docs/screenshots/<name>.png,
 * the pictures the README shows (unless `docs: false`: a picture kept for the report only).
 */
export async function captureScreen(
  page: Page,
  testInfo: TestInfo,
  name: string,
  { docs = true }: { docs?: boolean } = {},
): Promise<void> {
  // wait until nothing is loading any more, so the picture shows the screen, not a spinner
  await page
    .locator('.busy')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
  await page.evaluate(() => document.fonts.ready);
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
  if (docs && process.env.E2E_UPDATE_DOCS === '1') {
    fs.mkdirSync(DOC_SCREENSHOTS, { recursive: true });
    fs.copyFileSync(file, path.join(DOC_SCREENSHOTS, `${name}.png`));
  }
}
