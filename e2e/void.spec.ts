import { test, expect } from './support/fixtures.ts';
import { Seed } from './support/seed.ts';

test('when a posted entry is voided with a reason, then its reversal is shown and the balances return', async ({
  app,
  page,
  ledger,
}) => {
  const seed = await Seed.user(ledger.api);
  const checking = await seed.account('Checking', 'ASSET');
  const rent = await seed.account('Rent', 'EXPENSE');
  const salary = await seed.account('Salary', 'INCOME');
  await seed.posted('2026-01-01', 'January salary', checking, salary, '3000.00');
  await seed.posted('2026-01-03', 'Rent January', rent, checking, '1200.00');

  await app.openSignedIn(seed);
  await app.go('Journal');
  await app.journal.open('Rent January');
  const details = app.journal.details;
  await details.getByRole('button', { name: 'Void entry' }).click();
  await details.getByLabel('Reason (optional)').fill('Entered twice');
  await details.getByRole('button', { name: 'Void it' }).click();

  await expect(details.getByTestId('entry-status')).toHaveText('Void');
  const reversal = details.getByRole('region', { name: 'Reversal entry' });
  await expect(reversal).toContainText('Void: Rent January (Entered twice)');
  // the same lines with the directions swapped (Rent's amount in the credit column, the last before
  // the line's cleared state)
  const lines = reversal.getByRole('table', { name: 'Reversal entry' });
  await expect(lines.getByRole('row', { name: /Checking/ })).toHaveText(/Checking\s*1,200.00 USD/);
  await expect(lines.getByRole('row', { name: /Rent/ })).toHaveText(/Rent\s*1,200.00 USD\s*Not cleared$/);

  await expect(app.journal.registerRow('Void: Rent January (Entered twice)')).toContainText('System');
  await expect(app.journal.registerRow('Rent January').first()).toContainText('Void');

  await page.getByLabel('Status').selectOption({ label: 'Void' });
  await expect(app.journal.register.getByRole('row')).toHaveCount(2);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(app.journal.register.getByRole('row')).toHaveCount(4);

  await app.go('Accounts');
  await app.accounts.expectBalances('Checking', '3,000.00', '3,000.00');
  await app.accounts.expectBalances('Rent', '0.00', '0.00');
});
