import fs from 'node:fs';
import { test, expect } from './support/fixtures.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { captureScreen } from './support/screenshots.ts';
import { Seed } from './support/seed.ts';

const SMALL_JOURNAL = [
  '; a small hledger journal',
  '2024-01-01 * Opening balance',
  '    Assets:Wallet    100.00 USD',
  '    Equity:Opening',
  '',
  '2024-01-05 Bookshop',
  '    Expenses:Books    12.50 USD',
  '    Assets:Wallet',
  '',
].join('\n');

// the second transaction (from line 5) does not balance: nothing of the file may be imported
const UNBALANCED_JOURNAL = [
  '2024-02-01 ok',
  '  Assets:Wallet  1.00 USD',
  '  Income:Gift',
  '',
  '2024-02-02 bad',
  '  Assets:Wallet  5.00 USD',
  '  Income:Gift  -4.99 USD',
  '',
].join('\n');

test('when the books are exported, a journal imported, a backup taken and restored, then the settings screen shows each outcome in the server’s words', async ({
  app,
  page,
  ledger,
}, testInfo) => {
  const seed = await Seed.user(ledger.api, 'Ada Lovelace');
  const checking = await seed.account('Checking', 'ASSET');
  const groceries = await seed.account('Groceries', 'EXPENSE');
  await seed.posted('2026-01-05', 'Corner market', groceries, checking, '40.00');
  await app.openSignedIn(seed);
  await app.go('Settings');
  const settings = app.settings;

  // nothing backed up yet: the empty state says what to do
  await expect(settings.backupPanel.getByText('No backups yet')).toBeVisible();
  await expect(settings.backupPanel).toContainText('Back up now');

  // export: a real download (Blob + <a download>), with the entry in it
  const exported = await settings.export('hledger');
  expect(exported.download.suggestedFilename()).toMatch(/^personal-ledger.*\.journal$/);
  expect(exported.text).toContain('Corner market');
  expect(exported.text).toMatch(/Expenses:Groceries\s+(USD ?)?40\.00/);
  await expect(settings.exportPanel.getByRole('status')).toContainText(
    `Downloaded ${exported.download.suggestedFilename()}`,
  );

  // import a small journal: the counts
  const good = testInfo.outputPath('small.journal');
  const bad = testInfo.outputPath('unbalanced.journal');
  fs.writeFileSync(good, SMALL_JOURNAL);
  fs.writeFileSync(bad, UNBALANCED_JOURNAL);
  await settings.importJournal('hledger', good);
  await expect(settings.importPanel.getByRole('status')).toHaveText(
    'Imported 2 entries (4 lines) dated 2024-01-01 to 2024-01-05.',
  );
  const summary = settings.importPanel.getByRole('definition');
  await expect(settings.importPanel.getByTestId('entries-imported')).toHaveText('2');
  await expect(settings.importPanel.getByTestId('lines-imported')).toHaveText('4');
  await expect(settings.importPanel.getByTestId('accounts-created')).toHaveText('3');
  await expect(summary).toHaveCount(4);

  // an unbalanced transaction: the server's detail names the line, and nothing is imported
  await settings.importJournal('hledger', bad);
  const refusal = settings.importPanel.getByRole('alert');
  await expect(refusal).toContainText('line 5: Debits do not equal credits');
  await expect(settings.importPanel.getByRole('status')).toHaveCount(0);

  // a backup, then another entry
  await settings.backUpNow();
  await expect(settings.backupRow('Manual')).toHaveCount(1);
  await seed.posted('2026-01-20', 'Late dinner', groceries, checking, '65.00');
  await app.go('Journal');
  await expect(app.journal.registerRow('Late dinner')).toBeVisible();
  await expect(app.journal.registerRow('Gift')).toHaveCount(0);

  // restore asks first; cancelling changes nothing
  await app.go('Settings');
  const restoreButton = settings
    .backupRow('Manual')
    .getByRole('button', { name: /^Restore the backup of .+ \(Manual\)$/ });
  await restoreButton.click();
  const confirm = settings.backupPanel.getByRole('group', { name: 'Confirm the restore' });
  await expect(confirm).toContainText('is backed up first');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);

  await restoreButton.click();
  await confirm.getByRole('button', { name: 'Restore this backup' }).click();
  const outcome = settings.backupPanel.getByRole('status').filter({ hasText: 'Restored the backup of' });
  // Checking, Groceries and the three imported accounts; Corner market and the two imported entries
  await expect(outcome).toContainText('the ledger now holds 5 accounts and 3 entries.');
  await expect(outcome).toContainText('Your ledger as it was just before is kept as the backup of');
  await expect(confirm).toHaveCount(0);
  await expect(settings.backupRow('Before a restore')).toHaveCount(1);
  await expect(settings.backupRow('Manual')).toHaveCount(1);

  await captureScreen(page, testInfo, 'settings');
  await expectEveryControlNamed(page);

  await app.go('Journal');
  await expect(app.journal.registerRow('Corner market')).toBeVisible();
  await expect(app.journal.registerRow('Bookshop')).toBeVisible();
  await expect(app.journal.registerRow('Late dinner')).toHaveCount(0);
});
