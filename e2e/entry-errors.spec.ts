import { test, expect } from './support/fixtures.ts';
import { Seed } from './support/seed.ts';

test.describe('entries that must not be posted', () => {
  test('when the debits and credits differ, then the hint shows the exact difference and the entry cannot be posted or saved', async ({
    app,
    page,
    ledger,
  }) => {
    const seed = await Seed.user(ledger.api);
    await seed.account('Checking', 'ASSET');
    await seed.account('Groceries', 'EXPENSE');
    await app.open();
    await app.signIn.signIn({ email: seed.email });
    await app.go('Journal');
    await app.journal.newEntry();

    const editor = app.journal.editor;
    await page.keyboard.type('Market');
    await editor.getByRole('combobox', { name: 'Account, line 1' }).fill('Groceries');
    await page.keyboard.press('Enter');
    await editor.getByLabel('Debit, line 1').fill('82.50');
    await editor.getByRole('combobox', { name: 'Account, line 2' }).fill('Checking');
    await page.keyboard.press('Enter');
    await editor.getByLabel('Credit, line 2').fill('80.05');

    // exact decimal arithmetic: 82.50 - 80.05 is 2.45, not 2.4500000000000028
    await expect(app.journal.balanceHint).toHaveText('Unbalanced by 2.45 USD: debits exceed credits.');
    await expect(app.journal.postButton).toBeDisabled();
    await expect(editor.getByRole('button', { name: 'Save as draft' })).toBeDisabled();
    await page.keyboard.press('Control+Enter'); // the shortcut is refused too
    await expect(editor).toBeVisible();

    await editor.getByLabel('Credit, line 2').fill('82.501');
    await expect(editor.getByText('Too many decimals for this currency')).toBeVisible();
    await expect(app.journal.postButton).toBeDisabled();

    await editor.getByLabel('Credit, line 2').fill('1000000000000');
    await expect(editor.getByText('The amount must be less than one trillion')).toBeVisible();
    await expect(app.journal.postButton).toBeDisabled();

    await editor.getByLabel('Credit, line 2').fill('90');
    await expect(app.journal.balanceHint).toHaveText('Unbalanced by 7.50 USD: credits exceed debits.');

    await editor.getByLabel('Credit, line 2').fill('82.5');
    await expect(app.journal.balanceHint).toHaveText('Balanced: 82.50 USD.');
    await expect(app.journal.postButton).toBeEnabled();
    const entries = await ledger.api.get('/api/journal-entries', seed.token);
    expect(entries.body.total).toBe(0); // nothing was stored on the way
  });

  test('when the server refuses a change, then its detail is shown in words', async ({ app, page, ledger }) => {
    const seed = await Seed.user(ledger.api);
    const checking = await seed.account('Checking', 'ASSET');
    await seed.account('Groceries', 'EXPENSE');
    await app.open();
    await app.signIn.signIn({ email: seed.email });

    // an account name that exists already
    await app.go('Accounts');
    await page.getByRole('button', { name: 'New account' }).click();
    const form = page.getByRole('form', { name: 'New account' });
    await form.getByLabel('Name').fill('checking');
    await form.getByRole('button', { name: 'Create account' }).click();
    await expect(form.getByRole('alert')).toContainText(/already exists/i);

    // an account deactivated (elsewhere) while the entry was being written
    await app.go('Journal');
    await app.journal.newEntry();
    const editor = app.journal.editor;
    await page.keyboard.type('Market');
    await editor.getByRole('combobox', { name: 'Account, line 1' }).fill('Groceries');
    await page.keyboard.press('Enter');
    await page.keyboard.type('10');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Checking');
    await page.keyboard.press('Enter');
    await expect(app.journal.postButton).toBeEnabled();
    const deactivated = await ledger.api.put(`/api/accounts/${checking}`, { is_active: false }, seed.token);
    expect(deactivated.status).toBe(200);
    await app.journal.postButton.click();
    const alert = editor.getByRole('alert');
    await expect(alert).toContainText('The account Checking is deactivated');
    await expect(alert).toContainText('Something went wrong:');
  });
});
