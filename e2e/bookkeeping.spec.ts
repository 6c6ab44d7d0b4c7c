import { test, expect } from './support/fixtures.ts';
import { newEmail } from './support/people.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { captureScreen } from './support/screenshots.ts';

test('when a new user signs up, creates accounts and posts entries with the keyboard, then the balances and the dashboard show them', async ({
  app,
  page,
}, testInfo) => {
  await app.open();
  await expect(page.getByRole('heading', { name: 'Personal Ledger' })).toBeVisible();
  await captureScreen(page, testInfo, 'sign-in');
  await expectEveryControlNamed(page);

  await app.signIn.signUp({ email: newEmail(), name: 'Ada Lovelace' });
  await expect(page.getByText('Welcome! Your ledger is empty.')).toBeVisible();

  await page.getByRole('button', { name: 'Create accounts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts' })).toBeVisible();
  await expect(page.getByText('No accounts yet')).toBeVisible();
  await page.getByRole('button', { name: 'New account' }).first().click();
  await expectEveryControlNamed(page);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await app.accounts.create('Checking', 'Asset');
  await app.accounts.create('Food', 'Expense');
  await app.accounts.create('Groceries', 'Expense', { parent: 'Food (USD)' });
  await app.accounts.create('Salary', 'Income');

  // Keyboard only: Tab between fields, Enter to choose an account and to go to the next line,
  // the balancing amount offered on the last line, Ctrl+Enter to post.
  await app.go('Journal');
  await expect(page.getByText('No entries yet')).toBeVisible();
  await app.journal.newEntry();
  const keys = page.keyboard;
  await expect(app.journal.editor.getByRole('textbox', { name: 'Date' })).toHaveValue(/^\d{4}-\d{2}-\d{2}$/); // today
  await expect(app.journal.editor.getByLabel('Memo')).toBeFocused();
  await keys.type('Weekly groceries');
  await keys.press('Tab');
  await expect(app.journal.editor.getByRole('combobox', { name: 'Account, line 1' })).toBeFocused();
  await keys.type('groc');
  await keys.press('Enter');
  await expect(app.journal.editor.getByLabel('Debit, line 1')).toBeFocused();
  await keys.type('82.50');
  await expect(app.journal.balanceHint).toHaveText('Unbalanced by 82.50 USD: debits exceed credits.');
  await keys.press('Enter');
  await expect(app.journal.editor.getByRole('combobox', { name: 'Account, line 2' })).toBeFocused();
  await keys.type('check');
  await keys.press('Enter');
  await expect(app.journal.editor.getByLabel('Credit, line 2')).toBeFocused();
  await expect(app.journal.editor.getByLabel('Credit, line 2')).toHaveValue('82.50');
  await expectEveryControlNamed(page);
  await captureScreen(page, testInfo, 'journal-editor');
  await expect(app.journal.balanceHint).toHaveText('Balanced: 82.50 USD.');
  await keys.press('Control+Enter');
  await expect(app.journal.details.getByTestId('entry-status')).toHaveText('Posted');
  await expect(app.journal.registerRow('Weekly groceries')).toContainText('82.50 USD');

  await app.journal.newEntry();
  await keys.type('Salary for the month');
  await keys.press('Tab');
  await keys.type('Checking');
  await keys.press('Enter');
  await keys.type('2000');
  await keys.press('Enter');
  await keys.type('sal');
  await keys.press('Enter');
  await expect(app.journal.editor.getByLabel('Credit, line 2')).toHaveValue('2,000.00');
  // a typed amount reads as figures do everywhere once the field is left
  await expect(app.journal.editor.getByLabel('Debit, line 1')).toHaveValue('2,000.00');
  await app.journal.postButton.click();
  await expect(app.journal.details.getByTestId('entry-status')).toHaveText('Posted');
  await expect(app.journal.register.getByRole('row')).toHaveCount(3); // header + 2 entries
  await app.journal.open('Weekly groceries');
  await captureScreen(page, testInfo, 'journal');
  await expectEveryControlNamed(page);

  await app.go('Accounts');
  await app.accounts.expectBalances('Checking', '1,917.50', '1,917.50');
  await app.accounts.expectBalances('Groceries', '82.50', '82.50');
  await app.accounts.expectBalances('Food', '0.00', '82.50'); // rolled up from Groceries
  await app.accounts.expectBalances('Salary', '2,000.00', '2,000.00');
  await captureScreen(page, testInfo, 'accounts');
  await expectEveryControlNamed(page);

  // the as-of date picker: before today nothing had happened
  await page.getByRole('textbox', { name: 'Balances as of' }).fill('2000-01-01');
  await app.accounts.expectBalances('Checking', '0.00', '0.00');

  await app.go('Dashboard');
  const summary = page.getByRole('article', { name: 'Summary in USD' });
  await expect(summary.getByTestId('net-worth-USD')).toHaveText('1,917.50 USD');
  await expect(summary).toContainText('Income this month2,000.00 USD');
  await expect(summary).toContainText('Spending this month82.50 USD');
  await expect(page.getByRole('img', { name: /Line chart of net worth by month in USD; now 1,917.50/ })).toBeVisible();
  await expect(
    page.getByRole('img', { name: /Bar chart of spending per month in USD across 1 expense accounts/ }),
  ).toBeVisible();
});
