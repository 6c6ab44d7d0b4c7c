import path from 'node:path';
import { test, expect } from './support/fixtures.ts';
import { STATEMENT_FIXTURES } from './support/paths.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { captureScreen } from './support/screenshots.ts';
import { Seed } from './support/seed.ts';

const OFX = path.join(STATEMENT_FIXTURES, 'ofx1_ofxparse_checking_usd.ofx');
const CSV = path.join(STATEMENT_FIXTURES, 'csv_lloyds_uk_debit_credit_ddmmyyyy.csv');

const FEE = 'RETURNED CHECK FEE, CHECK # 319 FOR $45.33 ON 04/07/11';
const ELECTRIC = 'AUTOMATIC WITHDRAWAL, ELECTRIC BILL WEB(S )';
const DIVIDEND = 'DIVIDEND EARNED FOR PERIOD OF 03/01/2011 THROUGH 03/31/2011 ANNUAL PERCENTAGE YIELD EARNED IS 0.05%';

test('when a real OFX statement is imported and reconciled, then one match is accepted, one rejected, and an entry is created for an unmatched line', async ({
  app,
  page,
  ledger,
}, testInfo) => {
  // The book before the statement: two payments the bank will show, written in the user's own words.
  const seed = await Seed.user(ledger.api);
  const checking = await seed.account('Checking', 'ASSET');
  const utilities = await seed.account('Utilities', 'EXPENSE');
  const fees = await seed.account('Bank fees', 'EXPENSE');
  await seed.account('Interest', 'INCOME');
  await seed.posted('2011-04-03', 'Power company', utilities, checking, '34.51');
  await seed.posted('2011-04-09', 'Bank fee', fees, checking, '25.00');

  await app.openSignedIn(seed);
  await app.go('Statements');
  await expect(page.getByText('No statements imported yet')).toBeVisible();

  // 1. choose the file, 2. preview (nothing stored yet), 3. import
  const statements = app.statements;
  await statements.chooseFile('Checking (USD)', OFX);
  await statements.preview();
  const wizard = statements.wizard;
  await expect(wizard.getByTestId('preview-count')).toHaveText('3');
  await expect(wizard.getByRole('table', { name: 'Transactions in the file' }).getByRole('row')).toHaveCount(4);
  await expect(wizard).toContainText('OFX');
  expect((await ledger.api.get('/api/statements', seed.token)).body.total).toBe(0);
  await wizard.getByRole('button', { name: 'Import 3 transactions' }).click();
  await expect(wizard.getByRole('status')).toContainText('Imported 3 transactions');

  // the run, with a busy indicator while it works
  await wizard.getByRole('button', { name: 'Match this statement’s lines' }).click();
  await expect(page.getByTestId('run-summary')).toHaveText(
    'Checked 3 bank transactions: 0 matched automatically, 2 to review, 1 unmatched.',
  );

  // the review queue: both candidates side by side, the five-part score as bars
  const fee = statements.matchCard(FEE);
  const electric = statements.matchCard(ELECTRIC);
  await expect(fee).toBeVisible();
  await expect(electric).toBeVisible();
  await expect(fee.getByRole('region', { name: 'Bank transaction' })).toContainText('25.00');
  await expect(fee.getByRole('region', { name: 'Journal entry' })).toContainText('Bank fee');
  await expect(fee.getByRole('meter')).toHaveCount(5);
  await expect(fee.getByRole('meter', { name: 'Amount score' })).toHaveAttribute('aria-valuenow', '100');
  await captureScreen(page, testInfo, 'statements');
  await expectEveryControlNamed(page);

  await fee.getByRole('button', { name: `Accept match for ${FEE}` }).click();
  await expect(fee).toBeHidden();
  await electric.getByRole('button', { name: `Reject match for ${ELECTRIC}` }).click();
  await electric.getByLabel('Reason (optional)').fill('Not the same payment');
  await electric.getByRole('button', { name: 'Reject match' }).click();
  await expect(electric).toBeHidden();
  await expect(page.getByText('Nothing to review')).toBeVisible();

  // unmatched: the dividend, a payer never booked: no account is guessed; the person picks one and creates the entry
  const unmatched = await statements.tab('Unmatched');
  const dividend = statements.unmatched(DIVIDEND);
  await expect(dividend).toContainText('Choose an account');
  const picker = dividend.getByRole('combobox', { name: `Account for ${DIVIDEND}` });
  await picker.fill('Interest');
  await picker.press('Enter');
  await expect(picker).toHaveValue('Interest');
  await expect(unmatched.locator('article.unmatched-item')).toHaveCount(3); // the dividend, the rejected bank line, and the entry it left
  await captureScreen(page, testInfo, 'statements-unmatched');
  await expectEveryControlNamed(page);
  await dividend.getByRole('button', { name: `Create entry for ${DIVIDEND}` }).click();
  await expect(dividend).toBeHidden();
  // the line that left the list is confirmed in words: what was booked, and where
  await expect(unmatched.getByTestId('booked')).toContainText(`Booked: “${DIVIDEND}”`);
  await expect(unmatched.getByTestId('booked')).toContainText('is now a posted entry on Interest');

  const stats = await statements.tab('Statistics');
  await expect(stats.getByTestId('stats-matched')).toHaveText('2');
  await expect(stats).toContainText('66.7%');

  const created = await ledger.api.get('/api/journal-entries?source_type=reconciliation', seed.token);
  expect(created.body.items).toHaveLength(1);
  expect(
    created.body.items[0].lines
      .map(
        (l: { account_name: string; direction: string; amount: string }) =>
          `${l.direction} ${l.account_name} ${l.amount}`,
      )
      .sort(),
  ).toEqual(['CREDIT Interest 0.01', 'DEBIT Checking 0.01']);

  await app.go('Dashboard');
  await expect(page.getByRole('article', { name: 'Bank matching' })).toContainText(
    '2 of 3 bank transactions matched to entries',
  );
  // matching is not reconciling: the account was never agreed with the bank's balance
  await expect(page.getByRole('article', { name: 'Bank matching' })).toContainText(
    'Checking: not yet reconciled to the bank’s balance',
  );
});

test('when a CSV statement is imported, then the guessed column mapping can be changed before importing', async ({
  app,
  page,
  ledger,
}, testInfo) => {
  const seed = await Seed.user(ledger.api);
  await seed.account('Current account', 'ASSET', 'GBP');
  await app.openSignedIn(seed);
  await app.go('Statements');

  await app.statements.chooseFile('Current account (GBP)', CSV);
  await app.statements.preview();
  const wizard = app.statements.wizard;
  await expect(wizard.getByTestId('preview-count')).toHaveText('12');
  const mapping = wizard.getByRole('form', { name: 'CSV columns' });
  await expect(mapping.getByLabel('Date column')).toHaveValue('Transaction Date');
  await expect(mapping.getByLabel('Date format')).toHaveValue('DD/MM/YYYY');
  await expect(mapping.getByLabel('Money-out (debit) column')).toHaveValue('Debit Amount');
  await expect(mapping.getByLabel('Money-in (credit) column')).toHaveValue('Credit Amount');
  const table = wizard.getByRole('table', { name: 'Transactions in the file' });
  await expect(table).toContainText('ACME STORE CD 1417 14JAN24');

  // the user adds the transaction type to the description and previews again
  await mapping.getByRole('checkbox', { name: 'Transaction Type' }).check();
  await mapping.getByRole('button', { name: 'Preview with these columns' }).click();
  await expect(table.getByRole('row').nth(1)).toContainText('ACME STORE CD 1417 14JAN24 DEB');
  await captureScreen(page, testInfo, 'statements-csv-mapping');
  await expectEveryControlNamed(page);

  await wizard.getByRole('button', { name: 'Import 12 transactions' }).click();
  await expect(wizard.getByRole('status')).toContainText('Imported 12 transactions');
  const statements = page.getByRole('article', { name: 'Imported statements' });
  await expect(statements).toContainText('CSV import 2023-12-01');

  // the same file again adds nothing, and says so
  await wizard.getByRole('button', { name: 'Import another file' }).click();
  await app.statements.chooseFile('Current account (GBP)', CSV);
  await app.statements.preview();
  await expect(wizard).toContainText('Already imported');
  // nothing is new: the button says so and does nothing
  await expect(wizard.getByRole('button', { name: 'Import 0 transactions' })).toHaveCount(0);
  await expect(wizard.getByRole('button', { name: 'Nothing new to import' })).toBeDisabled();
});

test('when several matches wait for review, then all at or above a score are accepted at once', async ({
  app,
  page,
  ledger,
}) => {
  const seed = await Seed.user(ledger.api);
  const checking = await seed.account('Checking', 'ASSET');
  const utilities = await seed.account('Utilities', 'EXPENSE');
  const fees = await seed.account('Bank fees', 'EXPENSE');
  await seed.posted('2011-04-03', 'Power company', utilities, checking, '34.51');
  await seed.posted('2011-04-09', 'Bank fee', fees, checking, '25.00');
  await app.openSignedIn(seed);
  await app.go('Statements');
  await app.statements.chooseFile('Checking (USD)', OFX);
  await app.statements.preview();
  await app.statements.wizard.getByRole('button', { name: 'Import 3 transactions' }).click();
  await page
    .getByRole('article', { name: 'Imported statements' })
    .getByRole('button', { name: /^Match the lines of / })
    .click();
  await expect(page.getByTestId('run-summary')).toContainText('2 to review');

  const queue = page.getByRole('tabpanel');
  await expect(queue.locator('article.match-card')).toHaveCount(2);
  await queue.getByLabel('Accept all with a score of at least').fill('70');
  await queue.getByRole('button', { name: 'Accept all' }).click();
  await expect(queue.getByRole('status')).toHaveText('2 matches accepted.');
  await expect(page.getByText('Nothing to review')).toBeVisible();
  const stats = await app.statements.tab('Statistics');
  await expect(stats.getByTestId('stats-matched')).toHaveText('2');
});
