import { test, expect } from './support/fixtures.ts';
import { captureScreen } from './support/screenshots.ts';
import { Seed } from './support/seed.ts';

test.use({ viewport: { width: 420, height: 800 } });

async function noSidewaysScroll(page: import('@playwright/test').Page): Promise<void> {
  const overflow = await page.evaluate(() => {
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    return [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 1)
      .slice(0, 8)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}px`);
  });
  expect(overflow, 'elements wider than the window').toEqual([]);
}

test('when the window is narrow, then every screen fits its width and stays usable', async ({
  app,
  page,
  ledger,
}, testInfo) => {
  const seed = await Seed.user(ledger.api);
  const checking = await seed.account('Checking', 'ASSET');
  const groceries = await seed.account('Groceries', 'EXPENSE');
  const today = new Date().toISOString().slice(0, 10);
  await seed.posted(today, 'Market', groceries, checking, '82.50');
  await seed.budget(today.slice(0, 7), { [groceries]: '300.00' });
  await app.openSignedIn(seed);

  await expect(page.getByTestId('net-worth-USD')).toHaveText('-82.50 USD');
  await noSidewaysScroll(page);
  await captureScreen(page, testInfo, 'narrow-dashboard');

  await app.go('Accounts');
  await expect(app.accounts.row('Checking')).toBeVisible();
  await noSidewaysScroll(page);
  await captureScreen(page, testInfo, 'narrow-accounts');

  await app.accounts.row('Checking').getByRole('link', { name: 'Open the register of Checking' }).click();
  await expect(page.getByRole('table', { name: 'Register of Checking' }).locator('tbody tr')).toHaveCount(1);
  await noSidewaysScroll(page);
  await captureScreen(page, testInfo, 'narrow-register');

  await app.go('Reports');
  await page.getByRole('tab', { name: 'Income statement' }).click();
  await expect(page.getByRole('table', { name: 'Income statement in USD' })).toContainText('82.50');
  await noSidewaysScroll(page);
  await captureScreen(page, testInfo, 'narrow-reports');

  await app.go('Statements');
  await noSidewaysScroll(page);

  await app.go('Budget');
  await expect(page.getByTestId('budget-row')).toHaveCount(1);
  await noSidewaysScroll(page);
  await page.getByRole('tab', { name: 'Year' }).click();
  await expect(page.getByTestId('budget-year-row')).toHaveCount(1);
  await noSidewaysScroll(page);

  await app.go('History');
  await expect(app.history.table.getByRole('row', { name: /Market/ })).toHaveCount(1);
  await expect(app.history.undoButton).toBeInViewport();
  await noSidewaysScroll(page);

  await app.go('Journal');
  await app.journal.newEntry();
  await expect(app.journal.editor.getByRole('combobox', { name: 'Account, line 1' })).toBeVisible();
  await noSidewaysScroll(page);
  await captureScreen(page, testInfo, 'narrow-journal');

  await app.chat.open();
  await expect(app.chat.panel.getByRole('textbox', { name: 'Your question' })).toBeInViewport();
  await noSidewaysScroll(page);
});
