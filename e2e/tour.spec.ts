import { test, expect } from './support/fixtures.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { captureScreen } from './support/screenshots.ts';
import { Seed } from './support/seed.ts';

/** A day of the month `back` months before this one, as ISO text (clamped to today for this month). */
function dayOf(back: number, day: number): string {
  const now = new Date();
  const date = new Date(now.getFullYear(), now.getMonth() - back, back === 0 ? Math.min(day, now.getDate()) : day);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

test('when a household has kept its books for half a year, then the dashboard draws its months, in English and in Chinese', async ({
  app,
  page,
  ledger,
}, testInfo) => {
  const seed = await Seed.user(ledger.api, 'Mei Lin');
  const checking = await seed.account('Checking', 'ASSET');
  const savings = await seed.account('Savings', 'ASSET');
  const card = await seed.account('Credit card', 'LIABILITY');
  const opening = await seed.account('Opening balances', 'EQUITY');
  const salary = await seed.account('Salary', 'INCOME');
  const rent = await seed.account('Rent', 'EXPENSE');
  const groceries = await seed.account('Groceries', 'EXPENSE');
  const utilities = await seed.account('Utilities', 'EXPENSE');
  const dining = await seed.account('Dining out', 'EXPENSE');
  await seed.posted(dayOf(6, 1), 'Opening balance', checking, opening, '4200.00');
  for (let back = 5; back >= 0; back--) {
    await seed.posted(dayOf(back, 1), 'Salary', checking, salary, '3850.00');
    await seed.posted(dayOf(back, 2), 'Rent', rent, checking, '1450.00');
    await seed.posted(dayOf(back, 5), 'Supermarket', groceries, checking, `${310 + back * 17}.40`);
    await seed.posted(dayOf(back, 9), 'Electricity and water', utilities, checking, `${96 + back * 5}.15`);
    await seed.posted(dayOf(back, 12), 'Restaurants', dining, card, `${80 + back * 23}.60`);
    await seed.posted(dayOf(back, 20), 'To savings', savings, checking, '600.00');
  }

  await app.openSignedIn(seed);
  await expect(
    page.getByRole('img', { name: /Bar chart of spending per month in USD across 4 expense accounts/ }),
  ).toBeVisible();
  await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await captureScreen(page, testInfo, 'dashboard');
  await expectEveryControlNamed(page);

  await app.chooseLanguage('zh');
  await expect(page.getByRole('heading', { level: 1, name: '概览' })).toBeVisible();
  await captureScreen(page, testInfo, 'dashboard-zh');
});
