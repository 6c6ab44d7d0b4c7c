import { test, expect } from './support/fixtures.ts';
import { Seed } from './support/seed.ts';

test('when the journal holds more than a page, then it pages on the server and filters by status, dates and account', async ({
  app,
  page,
  ledger,
}) => {
  const seed = await Seed.user(ledger.api);
  const checking = await seed.account('Checking', 'ASSET');
  const groceries = await seed.account('Groceries', 'EXPENSE');
  const fuel = await seed.account('Fuel', 'EXPENSE');
  for (let day = 1; day <= 28; day++) {
    await seed.posted(
      `2026-02-${String(day).padStart(2, '0')}`,
      `Shop ${day}`,
      day % 4 === 0 ? fuel : groceries,
      checking,
      `${day}.25`,
    );
  }
  const draft = await ledger.api.post(
    '/api/journal-entries',
    {
      entry_date: '2026-03-01',
      memo: 'Unsure',
      lines: [
        { account_id: fuel, direction: 'DEBIT', amount: '5.00' },
        { account_id: checking, direction: 'CREDIT', amount: '5.00' },
      ],
    },
    seed.token,
  );
  expect(draft.status).toBe(201);

  await app.openSignedIn(seed);
  await app.go('Journal');
  const pager = page.getByRole('navigation', { name: 'Journal pages' });
  await expect(pager).toContainText('Page 1 of 2 (29 in all)');
  await expect(app.journal.register.getByRole('row')).toHaveCount(26);
  await expect(app.journal.register.getByRole('row').nth(1)).toContainText('Unsure'); // newest first
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(pager).toContainText('Page 2 of 2');
  await expect(app.journal.register.getByRole('row')).toHaveCount(5);

  await page.getByLabel('Status').selectOption({ label: 'Draft' });
  await expect(app.journal.register.getByRole('row')).toHaveCount(2);
  await expect(pager).toHaveCount(0);

  // a draft is finished later: edited, then posted
  await app.journal.open('Unsure');
  await app.journal.details.getByRole('button', { name: 'Edit' }).click();
  await app.journal.editor.getByLabel('Memo').fill('Fuel at the station');
  await app.journal.editor.getByLabel('Debit, line 1').fill('6.10');
  await app.journal.editor.getByLabel('Credit, line 2').fill('6.10');
  await app.journal.editor.getByRole('button', { name: 'Save as draft' }).click();
  await expect(app.journal.details.getByTestId('entry-status')).toHaveText('Draft');
  await expect(app.journal.details).toContainText('6.10');
  await app.journal.details.getByRole('button', { name: 'Post' }).click();
  await expect(app.journal.details.getByTestId('entry-status')).toHaveText('Posted');
  await expect(page.getByText('No entries match these filters')).toBeVisible();

  await page.getByLabel('Status').selectOption({ label: 'All' });
  await page.getByLabel('Account').selectOption({ label: 'Fuel' });
  await expect(app.journal.register.getByRole('row')).toHaveCount(9); // a header, 7 in February and the one just posted
  await page.getByRole('textbox', { name: 'From', exact: true }).fill('2026-02-10');
  await page.getByRole('textbox', { name: 'To', exact: true }).fill('2026-02-20');
  await expect(app.journal.register.getByRole('row')).toHaveCount(4); // a header, the 12th, 16th and 20th
  await page.getByLabel('Source').selectOption({ label: 'Import' });
  await expect(page.getByText('No entries match these filters')).toBeVisible();
});
