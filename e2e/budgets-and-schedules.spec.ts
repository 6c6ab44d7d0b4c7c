import { test, expect } from './support/fixtures.ts';
import { Seed } from './support/seed.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { captureScreen } from './support/screenshots.ts';

function isoDate(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}
const now = new Date();
const today = isoDate(now);
const inDays = (days: number) => isoDate(new Date(now.getFullYear(), now.getMonth(), now.getDate() + days));

test('when a month is budgeted from the keyboard, then spent, left and the dashboard card follow the figures', async ({
  app,
  page,
  ledger,
}, testInfo) => {
  const seed = await Seed.user(ledger.api);
  const checking = await seed.account('Checking', 'ASSET');
  const groceries = await seed.account('Groceries', 'EXPENSE');
  const dining = await seed.account('Dining out', 'EXPENSE');
  await seed.account('Rent', 'EXPENSE');
  await seed.posted(today, 'Market', groceries, checking, '120.40');
  await seed.posted(today, 'Pizza', dining, checking, '45.00');

  await app.openSignedIn(seed);
  await app.nav.getByRole('link', { name: 'Budget' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Budget' })).toBeVisible();
  await expect(page.getByText(/No budget for \d{4}-\d{2} yet/)).toBeVisible();

  // add two lines from the keyboard: pick the account, Enter, type the amount, Enter
  const account = page.getByRole('combobox', { name: 'Account to budget' });
  await account.fill('Groc');
  await account.press('Enter');
  await expect(page.getByLabel('Amount to budget')).toBeFocused();
  await page.getByLabel('Amount to budget').fill('300.00');
  await page.getByLabel('Amount to budget').press('Enter');
  await expect(page.getByTestId('budget-row')).toHaveCount(1);
  await expect(account).toBeFocused();
  await account.fill('Dining');
  await account.press('Enter');
  await page.getByLabel('Amount to budget').fill('40');
  await page.getByLabel('Amount to budget').press('Enter');

  const table = page.getByRole('table', { name: 'Budget' });
  const diningRow = table.getByRole('row', { name: /Dining out/ });
  await expect(diningRow).toContainText('45.00 USD');
  await expect(diningRow).toContainText('Overspent by 5.00');
  await expect(diningRow.getByRole('meter')).toHaveAttribute('aria-valuetext', '-5.00 left of 40.00');
  const groceriesRow = table.getByRole('row', { name: /Groceries/ });
  await expect(groceriesRow.getByRole('meter')).toHaveAttribute('aria-valuetext', '179.60 left of 300.00');

  // edit in place: Escape undoes, Enter saves and moves down
  const diningBudget = page.getByLabel('Budget for Dining out');
  await diningBudget.fill('999');
  await diningBudget.press('Escape');
  await expect(diningBudget).toHaveValue('40.00');
  await diningBudget.fill('60.00');
  await diningBudget.press('Enter');
  await expect(diningRow.getByRole('meter')).toHaveAttribute('aria-valuetext', '15.00 left of 60.00');
  await expect(page.getByRole('status')).toHaveText('Saved.');
  await expect(table.getByRole('row', { name: /Total Expenses \(USD\)/ })).toContainText('194.60');

  await expectEveryControlNamed(page);
  await captureScreen(page, testInfo, 'budget');

  await app.go('Dashboard');
  const card = page.getByRole('article', { name: 'Left to spend this month' });
  await expect(card.getByTestId('budget-left')).toContainText('194.60 USD');
  await expect(card).toContainText('194.60 left of 360.00');

  // next month: one action copies this month's budget
  await app.nav.getByRole('link', { name: 'Budget' }).click();
  await page.getByRole('button', { name: 'Next month' }).click();
  await page.getByRole('button', { name: 'Copy last month' }).click();
  await expect(page.getByTestId('budget-row')).toHaveCount(2);
  await expect(page.getByLabel('Budget for Dining out')).toHaveValue('60.00');
});

test('when an entry is repeated monthly and a bill is scheduled, then both show as upcoming, a skip removes one, and due ones are booked', async ({
  app,
  page,
  ledger,
}, testInfo) => {
  const seed = await Seed.user(ledger.api);
  const checking = await seed.account('Checking', 'ASSET');
  await seed.account('Streaming', 'EXPENSE');
  const rent = await seed.account('Rent', 'EXPENSE');
  await seed.posted(inDays(-20), 'Rent for the flat', rent, checking, '1200.00');

  await app.openSignedIn(seed);
  await app.go('Journal');
  await app.journal.open('Rent for the flat');
  await app.journal.details.getByRole('button', { name: 'Repeat monthly' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Scheduled entries' })).toBeVisible();
  const rows = page.getByTestId('schedule-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Rent for the flat');
  await expect(rows.first()).toContainText('Monthly');
  await expect(rows.first()).toContainText('1,200.00 USD');

  // a weekly bill, due today, entered with the keyboard
  await page.getByRole('button', { name: 'New schedule' }).click();
  await page.getByLabel('Name').fill('Music');
  await page.getByLabel('Amount').fill('9.99');
  const from = page.getByRole('combobox', { name: 'Paid from' });
  await from.fill('Check');
  await from.press('Enter');
  const to = page.getByRole('combobox', { name: 'Paid to (account)' });
  await to.fill('Stream');
  await to.press('Enter');
  await page.getByLabel('Repeats').selectOption('weekly');
  await page.getByRole('textbox', { name: 'Starts' }).fill(today);
  await page.getByLabel('Post automatically (else booked as drafts to check)').check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(rows).toHaveCount(2);

  const upcoming = page.getByTestId('upcoming-item');
  await expect(upcoming.filter({ hasText: 'Music' })).toHaveCount(5);
  await page.getByRole('button', { name: `Skip Music on ${inDays(7)}` }).click();
  await expect(upcoming.filter({ hasText: 'Music' })).toHaveCount(4);

  await page.getByRole('button', { name: 'Book due entries now' }).click();
  await expect(page.getByRole('status')).toContainText('Entries booked: 1.');
  await expect(upcoming.filter({ hasText: 'Music' })).toHaveCount(3);

  await expectEveryControlNamed(page);
  await captureScreen(page, testInfo, 'schedules');

  await app.go('Dashboard');
  const bills = page.getByRole('article', { name: 'Upcoming bills (next 14 days)' });
  await expect(bills).toContainText(inDays(14));
  await expect(bills).toContainText('Music');

  await app.go('Journal');
  await expect(app.journal.registerRow('Music')).toContainText('Schedule');
});

test('when the year view is chosen from the keyboard, then each month shows its actual against its budget, and a month opens from its heading', async ({
  app,
  page,
  ledger,
}, testInfo) => {
  const seed = await Seed.user(ledger.api);
  const checking = await seed.account('Checking', 'ASSET');
  const groceries = await seed.account('Groceries', 'EXPENSE');
  const year = today.slice(0, 4);
  await seed.budget(`${year}-01`, { [groceries]: '300.00' });
  await seed.budget(`${year}-02`, { [groceries]: '250.00' });
  await seed.posted(`${year}-01-15`, 'Market', groceries, checking, '120.40');
  await seed.posted(`${year}-02-03`, 'Market', groceries, checking, '275.00');

  await app.openSignedIn(seed);
  await app.nav.getByRole('link', { name: 'Budget' }).click();
  await page.getByRole('tab', { name: 'Month' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Year' })).toHaveAttribute('aria-selected', 'true');

  const table = page.getByRole('table', { name: `Budget against actual, ${year}` });
  const row = table.getByTestId('budget-year-row').filter({ hasText: 'Groceries' });
  const cells = row.getByRole('cell');
  // the year's budgeted, actual and left, then twelve months
  await expect(cells).toHaveCount(15);
  await expect(cells.nth(0)).toHaveText('550.00');
  await expect(cells.nth(1)).toHaveText('395.40');
  await expect(cells.nth(2)).toHaveText('154.60');
  await expect(cells.nth(3)).toContainText('120.40');
  await expect(cells.nth(3)).toContainText('/ 300.00');
  await expect(cells.nth(3)).not.toHaveClass(/budget-missed/);
  await expect(cells.nth(4)).toContainText('275.00');
  await expect(cells.nth(4)).toHaveClass(/budget-missed/);
  await expect(cells.nth(5)).toHaveText('–');
  await expect(table.getByRole('row', { name: /Total Expenses \(USD\)/ })).toContainText('395.40');
  await expectEveryControlNamed(page);
  await captureScreen(page, testInfo, 'budget-year');

  await page.getByRole('button', { name: 'Previous year' }).click();
  await expect(page.getByText(`Nothing budgeted in ${Number(year) - 1}`)).toBeVisible();
  await page.getByRole('button', { name: 'Next year' }).click();
  await table.getByRole('button', { name: `Open ${year}-02` }).click();
  await expect(page.getByRole('tab', { name: 'Month' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('combobox', { name: 'Month' })).toHaveValue('02');
  await expect(page.getByRole('spinbutton', { name: 'Year' })).toHaveValue(year);
  await expect(page.getByRole('table', { name: 'Budget' }).getByRole('row', { name: /Groceries/ })).toContainText(
    'Overspent by 25.00',
  );
});

test('when the language is Chinese, then the budget and schedules screens speak it', async ({ app, page, ledger }) => {
  const seed = await Seed.user(ledger.api);
  await seed.account('Groceries', 'EXPENSE');
  await app.openSignedIn(seed);
  await app.chooseLanguage('zh');
  await page.getByRole('link', { name: '预算', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: '预算' })).toBeVisible();
  await expect(page.getByRole('button', { name: '复制上月预算' })).toBeVisible();
  await page.getByRole('tab', { name: '年' }).click();
  await expect(page.getByText(/^\d{4} 年没有预算$/)).toBeVisible();
  await page.getByRole('link', { name: '定期分录', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: '定期分录' })).toBeVisible();
  await expect(page.getByText('还没有定期分录')).toBeVisible();
});
