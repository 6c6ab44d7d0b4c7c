import { test, expect } from './support/fixtures.ts';
import { Seed } from './support/seed.ts';

test.describe('entries that must not be posted', () => {
  test('when the debits and credits differ, then the hint shows the exact difference, posting waits and says why, and the entry can be kept as a draft', async ({
    app,
    page,
    ledger,
  }) => {
    const seed = await Seed.user(ledger.api);
    await seed.account('Checking', 'ASSET');
    await seed.account('Groceries', 'EXPENSE');
    await app.openSignedIn(seed);
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
    await expect(editor.getByRole('button', { name: 'Save as draft' })).toBeEnabled();
    // Ctrl+Enter does not post: it says why, as an alert
    await page.keyboard.press('Control+Enter');
    await expect(editor.getByRole('alert')).toHaveText(
      'Posting needs debits equal to credits (see the difference above). Fix the amounts, or save it as a draft and finish it later.',
    );
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

    // half-finished work is kept: an unbalanced entry saved as a draft, posted once it balances
    await editor.getByLabel('Credit, line 2').fill('80');
    await editor.getByRole('button', { name: 'Save as draft' }).click();
    await expect(app.journal.registerRow('Market')).toContainText('Draft');
    const drafts = await ledger.api.get('/api/journal-entries?status=draft', seed.token);
    expect(drafts.body.total).toBe(1);
    const balances = await ledger.api.get('/api/accounts/balances', seed.token);
    expect(balances.body.balances.every((a: { balance: string }) => a.balance === '0.00')).toBe(true);
  });

  test('when the server refuses a change, then its detail is shown in words', async ({ app, page, ledger }) => {
    const seed = await Seed.user(ledger.api);
    const checking = await seed.account('Checking', 'ASSET');
    await seed.account('Groceries', 'EXPENSE');
    await app.openSignedIn(seed);

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
    // what to do, in words; the server's own text behind "Details"
    await expect(alert).toContainText(
      'One of the accounts is deactivated. Reactivate it under Accounts, or choose another account.',
    );
    await expect(alert).not.toContainText('Something went wrong');
    await expect(alert.getByText('The account Checking is deactivated')).toBeHidden();
    await alert.getByText('Details', { exact: true }).click();
    await expect(alert.getByText('The account Checking is deactivated')).toBeVisible();
  });
});
