import { test, expect } from './support/fixtures.ts';
import { Seed } from './support/seed.ts';

test('when accounts are renamed, deactivated, reactivated and deleted, then the tree follows and the server says what is not allowed', async ({
  app,
  page,
  ledger,
}) => {
  const seed = await Seed.user(ledger.api);
  const checking = await seed.account('Checking', 'ASSET');
  const groceries = await seed.account('Groceries', 'EXPENSE');
  await seed.account('Old wallet', 'ASSET');
  await seed.posted('2026-01-05', 'Market', groceries, checking, '40.00');
  await app.openSignedIn(seed);
  await app.go('Accounts');

  await page.getByRole('button', { name: 'Rename Checking' }).click();
  await page.getByRole('textbox', { name: 'New name for Checking' }).fill('Main checking');
  await page.keyboard.press('Enter');
  await expect(app.accounts.row('Main checking')).toBeVisible();
  await app.accounts.expectBalances('Main checking', '-40.00', '-40.00');

  await page.getByRole('button', { name: 'Deactivate Groceries' }).click();
  await expect(app.accounts.row('Groceries')).toContainText('Inactive');
  // an inactive account is not offered for new entries
  await app.go('Journal');
  await app.journal.newEntry();
  await app.journal.editor.getByRole('combobox', { name: 'Account, line 1' }).fill('Groc');
  await expect(app.journal.editor.getByText('No account has that name')).toBeVisible();
  await app.journal.editor.getByRole('button', { name: 'Cancel' }).click();

  await app.go('Accounts');
  await page.getByRole('button', { name: 'Reactivate Groceries' }).click();
  await expect(app.accounts.row('Groceries')).toContainText('Active');

  // an account with entries cannot be deleted: the server's reason is shown
  await page.getByRole('button', { name: 'Delete Groceries' }).click();
  await app.accounts.row('Groceries').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText(/entries/i);

  await page.getByRole('button', { name: 'Delete Old wallet' }).click();
  await app.accounts.row('Old wallet').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(app.accounts.row('Old wallet')).toHaveCount(0);

  // a sub-account: its parent's total includes it
  await page.getByRole('button', { name: 'Add a sub-account under Main checking' }).click();
  const form = page.getByRole('form', { name: 'New account' });
  await expect(form.getByLabel('Parent account')).toHaveValue(checking);
  await form.getByLabel('Name').fill('Bills pot');
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(app.accounts.row('Bills pot')).toBeVisible();
  await expect(app.accounts.row('Bills pot').locator('.tree-branch')).toBeVisible();
});
