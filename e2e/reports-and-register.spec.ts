import fs from 'node:fs';
import { test, expect } from './support/fixtures.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { captureScreen } from './support/screenshots.ts';
import { Seed } from './support/seed.ts';

function isoDate(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}
const now = new Date();
const today = isoDate(now);
const thisMonth = today.slice(0, 7);
const lastMonth = isoDate(new Date(now.getFullYear(), now.getMonth() - 1, 1)).slice(0, 7);
// the days of this month's entries: before today, so that an entry made today is the newest line
const day = (n: number) => `${thisMonth}-${String(Math.min(n, now.getDate())).padStart(2, '0')}`;

/** Two months of a household's books: salary in, groceries out. */
async function books(seed: Seed) {
  const checking = await seed.account('Checking', 'ASSET');
  const groceries = await seed.account('Groceries', 'EXPENSE');
  const salary = await seed.account('Salary', 'INCOME');
  await seed.posted(`${lastMonth}-01`, 'Salary October', checking, salary, '3000');
  await seed.posted(`${lastMonth}-15`, 'Farmers market', groceries, checking, '50');
  await seed.posted(day(1), 'Salary', checking, salary, '3000');
  await seed.posted(day(1), 'Market', groceries, checking, '82.50');
  await seed.posted(day(1), 'Bakery rolls', groceries, checking, '12.25');
  return { checking, groceries, salary };
}

test('when an account is clicked, then its register shows each line with the balance after it and the keyboard opens, adds and closes entries', async ({
  app,
  page,
  ledger,
}, testInfo) => {
  const seed = await Seed.user(ledger.api);
  await books(seed);
  await app.openSignedIn(seed);
  await app.go('Accounts');
  await page.getByRole('link', { name: 'Open the register of Checking' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Checking' })).toBeVisible();
  await expect(page).toHaveURL(/\/accounts\/[^/?]+$/);

  const table = page.getByRole('table', { name: 'Register of Checking' });
  const rows = table.locator('tbody tr');
  // newest first, each line's balance just after it; the other account named beside it
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(0)).toContainText('Bakery rolls');
  await expect(rows.nth(0)).toContainText('Groceries');
  await expect(rows.nth(0)).toContainText('-12.25');
  await expect(rows.nth(0)).toContainText('5,855.25 USD');
  await expect(rows.nth(1)).toContainText('5,867.50 USD');
  await expect(rows.nth(2)).toContainText('3,000.00');
  await expect(rows.nth(2)).toContainText('5,950.00 USD');
  await expect(rows.nth(4)).toContainText('3,000.00 USD');
  await expect(rows.nth(0).getByLabel('Not cleared')).toBeAttached();
  await expect(page.locator('.register-balance')).toHaveText('5,855.25 USD');

  // the keyboard: one line in the Tab order, arrows move, Enter opens beside the list, Escape closes
  await rows.nth(0).focus();
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(rows.nth(4)).toBeFocused();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const details = page.locator('article.entry-details');
  await expect(details.getByRole('heading', { name: 'Market' })).toBeVisible();
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');
  await rows.nth(1).focus();
  await page.keyboard.press('Escape');
  await expect(details).toHaveCount(0);

  // a date range: only this month's lines, the balances still those of the whole history
  await page.getByRole('textbox', { name: 'From' }).fill(`${thisMonth}-01`);
  await page.getByRole('textbox', { name: 'From' }).press('Enter');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(2)).toContainText('5,950.00 USD');
  await page.getByRole('button', { name: 'All dates' }).click();
  await expect(rows).toHaveCount(5);

  // a new entry started here has this account on its first line; posted, it is the newest line
  await page.getByRole('button', { name: 'New entry' }).click();
  const editor = app.journal.editor;
  await expect(editor.getByRole('combobox', { name: 'Account, line 1' })).toHaveValue(/Checking/);
  await page.keyboard.type('Coffee beans');
  await editor.getByLabel('Credit, line 1').fill('4.5');
  await editor.getByRole('combobox', { name: 'Account, line 2' }).fill('Groceries');
  await page.keyboard.press('Enter');
  await editor.getByLabel('Debit, line 2').fill('4.50');
  await page.keyboard.press('Control+Enter');
  await expect(rows).toHaveCount(6);
  await expect(rows.nth(0)).toContainText('Coffee beans');
  await expect(rows.nth(0)).toContainText('5,850.75 USD');
  await expect(page.locator('.register-balance')).toHaveText('5,850.75 USD');

  await expectEveryControlNamed(page);
  await captureScreen(page, testInfo, 'register');

  // the other account of a line opens its own register
  await rows.nth(0).getByRole('link', { name: 'Groceries' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Groceries' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Register of Groceries' }).locator('tbody tr')).toHaveCount(4);
  await page.getByRole('link', { name: '← All accounts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts' })).toBeVisible();
});

test('when the Reports screen is used, then each report reads the chosen period, compares it, drills down to the register, downloads as CSV and prints without its controls', async ({
  app,
  page,
  ledger,
}, testInfo) => {
  const seed = await Seed.user(ledger.api);
  await books(seed);
  await app.openSignedIn(seed);
  await app.nav.getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();

  // the balance sheet as of the end of this month
  await expect(page.getByRole('tab', { name: 'Balance sheet' })).toHaveAttribute('aria-selected', 'true');
  const sheet = page.getByRole('table', { name: 'Balance sheet in USD' });
  await expect(sheet.getByRole('row', { name: /Checking/ })).toContainText('5,855.25');

  // the income statement of this month, compared with last month
  await page.getByRole('tab', { name: 'Income statement' }).click();
  const income = page.getByRole('table', { name: 'Income statement in USD' });
  await expect(income.getByRole('row', { name: /^Groceries/ })).toContainText('94.75');
  await expect(income.getByRole('row', { name: /Net income/ })).toContainText('2,905.25');
  await page.getByRole('checkbox', { name: /Compare with/ }).check();
  await expect(income.getByRole('columnheader', { name: 'Previous period' })).toBeVisible();
  await expect(income.getByRole('row', { name: /^Groceries/ })).toContainText('50.00');
  await expect(income.getByRole('row', { name: /^Groceries/ })).toContainText('44.75');

  await expectEveryControlNamed(page);
  await captureScreen(page, testInfo, 'reports');

  // CSV: the figures as the screen shows them, a row per account
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^income-statement-.*\.csv$/);
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  expect(csv).toMatch(/Groceries.*94\.75.*50\.00/);

  // the print layout: the report without the controls
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeHidden();
  await expect(app.nav).toBeHidden();
  await expect(income).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  // last month by its preset
  await page.getByRole('checkbox', { name: /Compare with/ }).uncheck();
  await page.getByRole('button', { name: 'Last month' }).click();
  await expect(income.getByRole('row', { name: /^Groceries/ })).toContainText('50.00');
  await expect(income.getByRole('row', { name: /Net income/ })).toContainText('2,950.00');

  // the other reports read the same books
  await page.getByRole('tab', { name: 'Trial balance' }).click();
  await expect(
    page.getByRole('table', { name: 'Trial balance in USD' }).getByRole('row', { name: /Salary/ }),
  ).toContainText('3,000.00');
  await page.getByRole('tab', { name: 'Cash flow' }).click();
  await expect(page.getByRole('table', { name: 'Cash flow in USD' })).toContainText('Groceries');
  await page.getByRole('tab', { name: 'Net worth' }).click();
  await expect(page.getByRole('table', { name: 'Net worth in USD' })).toContainText('2,950.00');

  // a figure opens the register lines behind it: this month's groceries
  await page.getByRole('tab', { name: 'Income statement' }).click();
  await page.getByRole('button', { name: 'This month' }).click();
  await page.getByRole('link', { name: 'Open the lines behind Groceries, Amount: 94.75' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Groceries' })).toBeVisible();
  const lines = page.getByRole('table', { name: 'Register of Groceries' }).locator('tbody tr');
  await expect(lines).toHaveCount(2);
  await expect(page.getByRole('textbox', { name: 'From' })).toHaveValue(`${thisMonth}-01`);
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
});

test('when words or an amount are typed in the journal search, then only the entries holding them are listed', async ({
  app,
  page,
  ledger,
}, testInfo) => {
  const seed = await Seed.user(ledger.api);
  await books(seed);
  await app.openSignedIn(seed);
  await app.go('Journal');
  const search = page.getByRole('searchbox', { name: 'Search' });
  const rows = app.journal.register.locator('tbody tr');
  await expect(rows).toHaveCount(5);

  await search.fill('bakery');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Bakery rolls');

  await search.fill('salary');
  await expect(rows).toHaveCount(2);

  await search.fill('82.50');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Market');
  await captureScreen(page, testInfo, 'journal-search');

  await search.fill('snorkel');
  await expect(page.getByText('No entries match “snorkel”')).toBeVisible();
  await search.fill('');
  await expect(rows).toHaveCount(5);
});

for (const language of ['en', 'zh'] as const) {
  test(`when an amount range is typed in the journal's filters (${language}), then only entries with a line inside it are listed`, async ({
    app,
    page,
    ledger,
  }, testInfo) => {
    const seed = await Seed.user(ledger.api);
    await books(seed);
    await app.openSignedIn(seed);
    if (language === 'zh') await app.chooseLanguage('zh');
    await app.goTo('journal');
    const rows = app.journal.register.locator('tbody tr');
    await expect(rows).toHaveCount(5);

    await app.journal.filterByAmount('40', '100');
    await expect(rows).toHaveCount(2);
    await expect(app.journal.registerRow('Farmers market')).toHaveCount(1);
    await expect(app.journal.registerRow('82.50')).toHaveCount(1);
    await captureScreen(page, testInfo, language === 'en' ? 'journal-amount-range' : 'journal-amount-range-zh');

    await app.journal.filterByAmount('1,000', '');
    await expect(rows).toHaveCount(2);
    await expect(app.journal.registerRow('Salary')).toHaveCount(2);

    // upside down: said beside the fields, and the list keeps the last range that made sense
    await app.journal.filterByAmount('100', '40');
    await expect(page.getByRole('alert').filter({ hasText: app.words.t('filter.amountUpsideDown') })).toBeVisible();
    await expect(rows).toHaveCount(2);
    await expect(app.journal.registerRow('Salary')).toHaveCount(2);

    await app.journal.filterByAmount('', '');
    await expect(rows).toHaveCount(5);
  });
}

test('when a word matches more entries than a search counts, then the pager says "at least" and the next pages still open', async ({
  app,
  page,
  ledger,
}) => {
  const seed = await Seed.user(ledger.api);
  const { checking, groceries } = await books(seed);
  // more coffees than a search counts past its first page (1,000 past it)
  for (const count of [1000, 100]) {
    const entries = Array.from({ length: count }, () => ({
      entry_date: day(1),
      memo: 'Coffee',
      auto_post: true,
      lines: [
        { account_id: groceries, direction: 'DEBIT', amount: '3.00' },
        { account_id: checking, direction: 'CREDIT', amount: '3.00' },
      ],
    }));
    expect((await ledger.api.post('/api/journal-entries/batch', { entries }, seed.token)).status).toBe(201);
  }
  await app.openSignedIn(seed);
  await app.go('Journal');
  const pager = page.getByRole('navigation', { name: 'Journal pages' });
  await expect(pager).toContainText('Page 1 of 45 (1105 in all)');
  await page.getByRole('searchbox', { name: 'Search' }).fill('coffee');
  await expect(pager).toContainText('Page 1 of 41+ (at least 1025 in all)');
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(pager).toContainText('Page 2 of 42+ (at least 1050 in all)');
  await expect(app.journal.register.locator('tbody tr')).toHaveCount(25);
});

test('when the language is Chinese, then the register and the reports speak it, with the same figures', async ({
  app,
  page,
  ledger,
}, testInfo) => {
  const seed = await Seed.user(ledger.api);
  await books(seed);
  await app.openSignedIn(seed);
  await app.chooseLanguage('zh');
  await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '报表' }).click();
  await expect(page.getByRole('heading', { level: 1, name: '报表' })).toBeVisible();
  await page.getByRole('tab', { name: '利润表' }).click();
  await expect(
    page.getByRole('table', { name: '利润表（USD）' }).getByRole('row', { name: /^Groceries/ }),
  ).toContainText('94.75');
  await captureScreen(page, testInfo, 'reports-zh');

  await page.getByRole('link', { name: /Groceries.*94\.75/ }).click();
  await expect(page.getByRole('table', { name: 'Groceries 的明细账' }).locator('tbody tr')).toHaveCount(2);
  await captureScreen(page, testInfo, 'register-zh');
});

test('when the books hold two currencies, then the reports show them in the home currency, each currency one click away, and say which rates are missing', async ({
  app,
  page,
  ledger,
}) => {
  const seed = await Seed.user(ledger.api);
  const checking = await seed.account('Checking', 'ASSET');
  const salary = await seed.account('Salary', 'INCOME');
  const euros = await seed.account('Euro account', 'ASSET', 'EUR');
  const openingEur = await seed.account('Opening EUR', 'EQUITY', 'EUR');
  const yen = await seed.account('Yen wallet', 'ASSET', 'JPY');
  const openingJpy = await seed.account('Opening JPY', 'EQUITY', 'JPY');
  await seed.posted(day(1), 'Salary', checking, salary, '1000.00');
  await seed.posted(day(1), 'Opening EUR', euros, openingEur, '200.00');
  await seed.posted(day(1), 'Opening JPY', yen, openingJpy, '5000');
  const price = await ledger.api.post(
    '/api/prices',
    { date: `${lastMonth}-01`, from: 'EUR', to: 'USD', rate: '1.5' },
    seed.token,
  );
  expect(price.status).toBe(201);
  const home = await ledger.api.put('/api/settings', { home_currency: 'USD' }, seed.token);
  expect(home.status).toBe(200);
  await app.openSignedIn(seed);
  await app.nav.getByRole('link', { name: 'Reports' }).click();

  // in USD: 1,000.00 + 200 EUR at 1.5; the yen left out, and said so
  const sheet = page.getByRole('table', { name: 'Balance sheet in USD' });
  await expect(page.getByRole('button', { name: 'In USD' })).toHaveAttribute('aria-pressed', 'true');
  await expect(sheet.getByRole('row', { name: /Euro account/ })).toContainText('300.00');
  await expect(page.getByText(/No rate from JPY to USD/)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Balance sheet in EUR' })).toHaveCount(0);

  // per currency: one table each, in its own figures
  await page.getByRole('button', { name: 'Per currency' }).click();
  await expect(
    page.getByRole('table', { name: 'Balance sheet in EUR' }).getByRole('row', { name: /Euro account/ }),
  ).toContainText('200.00');
  await expect(page.getByRole('table', { name: 'Balance sheet in JPY' })).toContainText('5,000');
  await expect(page.getByText(/No rate from JPY to USD/)).toHaveCount(0);
});
