import { test, expect } from './support/fixtures.ts';
import { expectNothingClipped } from './support/layout.ts';
import { captureScreen } from './support/screenshots.ts';
import { Seed } from './support/seed.ts';
import type { LedgerApp } from './pages/ledger-app.ts';
import type { Page } from '@playwright/test';

/**
 * Every screen at the widths people's windows have (800, 1024 and 1366 px), in English and
 * Chinese: nothing is cut off sideways inside its box (a table's last column, a button), and no
 * column header breaks one character per line. Below 1000 px the navigation is one "Menu" away.
 */

const WIDTHS = [800, 1024, 1366] as const;
const LONG_MEMO = 'Weekly groceries at the farmers market on the square, with bread, cheese and vegetables';

/** Waits until the screen's heading is there and nothing is loading any more. */
async function settled(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('.busy')).toHaveCount(0);
}

/** A screen and the states of it that show more (a form open, another tab), each checked. */
const SCREENS: { path: string; name: string; states?: { name: string; open: (app: LedgerApp) => Promise<void> }[] }[] =
  [
    { path: '/', name: 'dashboard' },
    {
      path: '/accounts',
      name: 'accounts',
      states: [{ name: 'new-account', open: (app) => app.page.locator('.screen-head button.primary').click() }],
    },
    {
      path: '/journal',
      name: 'journal',
      states: [
        {
          name: 'entry',
          open: async (app) => {
            await app.page.locator('table.register tbody tr').first().locator('button.row-open').click();
            await expect(app.page.locator('article.entry-details')).toBeVisible();
          },
        },
        { name: 'editor', open: (app) => app.page.locator('.screen-head button.primary').click() },
      ],
    },
    {
      path: '/reports',
      name: 'reports',
      states: ['income-statement', 'cash-flow', 'net-worth', 'trial-balance'].map((kind) => ({
        name: kind,
        open: (app) => app.page.locator(`#report-tab-${kind}`).click(),
      })),
    },
    {
      path: '/statements',
      name: 'statements',
      states: ['unmatched', 'rules', 'stats'].map((tab) => ({
        name: tab,
        open: (app) => app.page.locator(`#reconciliation-tab-${tab}`).click(),
      })),
    },
    {
      path: '/budget',
      name: 'budget',
      states: [{ name: 'year', open: (app) => app.page.locator('#budget-tab-year').click() }],
    },
    {
      path: '/schedules',
      name: 'schedules',
      states: [{ name: 'new', open: (app) => app.page.locator('.screen-head button.primary').click() }],
    },
    { path: '/investments', name: 'investments' },
    { path: '/prices', name: 'rates' },
    { path: '/history', name: 'history' },
    { path: '/settings', name: 'settings' },
  ];

for (const language of ['en', 'zh'] as const) {
  test(`when the window is 800, 1024 or 1366 px wide (${language}), then no screen cuts a control or a column off and the whole navigation is at hand`, async ({
    app,
    page,
    ledger,
  }, testInfo) => {
    const seed = await Seed.user(ledger.api);
    const checking = await seed.account('Everyday checking account at the savings bank', 'ASSET');
    const groceries = await seed.account('Groceries and household supplies', 'EXPENSE');
    const salary = await seed.account('Salary', 'INCOME');
    const opening = await seed.account('Opening balances', 'EQUITY');
    const today = new Date().toISOString().slice(0, 10);
    await seed.posted('2011-03-01', 'Opening balance', checking, opening, '160.49');
    await seed.posted(today, LONG_MEMO, groceries, checking, '82.50');
    await seed.posted(today, 'Salary', checking, salary, '3000.00');
    await seed.budget(today.slice(0, 7), { [groceries]: '300.00' });
    await seed.statement(
      checking,
      [
        {
          date: '2011-03-31',
          description: 'DIVIDEND EARNED FOR PERIOD OF 03/01/2011 THROUGH 03/31/2011',
          amount: '0.01',
        },
        { date: '2011-04-05', description: 'AUTOMATIC WITHDRAWAL, ELECTRIC BILL WEB(S )', amount: '-34.51' },
        { date: '2011-04-07', description: 'RETURNED CHECK FEE, CHECK # 319 FOR $45.33 ON 04/07/11', amount: '-25.00' },
      ],
      '100.99',
    );
    await app.openSignedIn(seed);
    await settled(page);
    if (language === 'zh') await app.chooseLanguage('zh');

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      const menu = page.locator('.menu-button');
      if (width < 1000) {
        // the whole navigation opens from the menu button, every screen at hand, and closes with Escape
        await expect(menu).toBeVisible();
        await expect(page.locator('#main-nav')).toBeHidden();
        await menu.click();
        await expect(menu).toHaveAttribute('aria-expanded', 'true');
        await expect(page.locator('#main-nav a')).toHaveCount(SCREENS.length);
        for (const link of await page.locator('#main-nav a').all()) await expect(link).toBeInViewport({ ratio: 1 });
        await expectNothingClipped(page, `the open menu at ${width} px`);
        if (language === 'en') await captureScreen(page, testInfo, 'narrow-menu');
        await page.locator('#main-nav a').first().press('Escape');
        await expect(page.locator('#main-nav')).toBeHidden();
        await expect(menu).toBeFocused();
      } else {
        await expect(menu).toBeHidden();
        for (const link of await page.locator('#main-nav a').all()) await expect(link).toBeInViewport({ ratio: 1 });
      }
      for (const screen of SCREENS) {
        await app.openFromNav(screen.path);
        await expect(page).toHaveURL(new RegExp(`${screen.path}$`));
        await settled(page);
        await expectNothingClipped(page, `${screen.name} at ${width} px (${language})`);
        await captureScreen(page, testInfo, `width-${language}-${width}-${screen.name}`, { docs: false });
        for (const state of screen.states ?? []) {
          await state.open(app);
          await expect(page.locator('.busy')).toHaveCount(0);
          await expectNothingClipped(page, `${screen.name} (${state.name}) at ${width} px (${language})`);
        }
      }
      // an account's register
      await app.openFromNav('/accounts');
      await page.locator('.account-table a').first().click();
      await settled(page);
      await expectNothingClipped(page, `a register at ${width} px (${language})`);
    }
  });
}
