import path from 'node:path';
import { test, expect } from './support/fixtures.ts';
import { STATEMENT_FIXTURES } from './support/paths.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { captureScreen } from './support/screenshots.ts';
import { Seed } from './support/seed.ts';

// 3 lines (+0.01, -34.51, -25.00) and a LEDGERBAL of 100.99 on 2013-05-25
const OFX = path.join(STATEMENT_FIXTURES, 'ofx1_ofxparse_checking_usd.ofx');
const FEE = 'RETURNED CHECK FEE, CHECK # 319 FOR $45.33 ON 04/07/11';
const ELECTRIC = 'AUTOMATIC WITHDRAWAL, ELECTRIC BILL WEB(S )';
const DIVIDEND = 'DIVIDEND EARNED FOR PERIOD OF 03/01/2011 THROUGH 03/31/2011 ANNUAL PERCENTAGE YIELD EARNED IS 0.05%';

test('when a statement with a closing balance is imported, then its lines are booked in bulk through rules, the account reconciled to zero difference, and the journal shows them reconciled', async ({
  app,
  page,
  ledger,
}, testInfo) => {
  const seed = await Seed.user(ledger.api);
  const checking = await seed.account('Checking', 'ASSET');
  await seed.account('Utilities', 'EXPENSE');
  await seed.account('Bank fees', 'EXPENSE');
  await seed.account('Interest', 'INCOME');
  const opening = await seed.account('Opening balances', 'EQUITY');
  // what the account held before the statement's lines: 160.49 + 0.01 − 34.51 − 25.00 = 100.99
  await seed.posted('2011-03-01', 'Opening balance', checking, opening, '160.49');

  await app.openSignedIn(seed);
  await app.go('Statements');
  const statements = app.statements;
  await statements.chooseFile('Checking (USD)', OFX);
  await statements.preview();
  const wizard = statements.wizard;
  await expect(wizard.getByTestId('preview-closing-balance')).toHaveText('100.99 (2013-05-25)');
  // the preview fits the 1280×800 window: no column is cut off, and the last row can be seen
  const table = wizard.getByRole('table', { name: 'Transactions in the file' });
  const box = table.locator('xpath=..');
  expect(await box.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await table.getByRole('row').last().scrollIntoViewIfNeeded();
  await expect(table.getByRole('row').last()).toBeInViewport();
  await wizard.getByRole('button', { name: 'Import 3 transactions' }).click();
  await expect(wizard.getByRole('status').first()).toContainText('Imported 3 transactions');
  await expect(page.getByRole('article', { name: 'Imported statements' })).toContainText('100.99');

  // the review list: no suggestion is sure of these new payees, so nothing is chosen for them yet
  const unmatched = await statements.tab('Unmatched');
  const fee = statements.unmatched(FEE);
  await expect(fee.getByRole('checkbox', { name: `Select ${FEE}` })).toBeDisabled();
  await expect(fee).toContainText('Choose an account');

  // a rule from the fee line, one click away and prefilled from it
  await fee.getByRole('button', { name: `Make a rule from ${FEE}` }).click();
  const feeRule = fee.getByRole('form', { name: 'New rule' });
  await expect(feeRule.getByLabel('Name')).toHaveValue('Returned Check Fee');
  await expect(feeRule.getByLabel('Text of the description')).toHaveValue('returned check fee');
  await expect(feeRule.getByLabel('Direction')).toHaveValue('debit');
  await feeRule.getByRole('combobox', { name: 'Book to account' }).fill('Bank fees');
  await feeRule.getByRole('combobox', { name: 'Book to account' }).press('Enter');
  await feeRule.getByRole('button', { name: 'Save rule' }).click();
  await expect(feeRule).toBeHidden();

  const electric = statements.unmatched(ELECTRIC);
  await electric.getByRole('button', { name: `Make a rule from ${ELECTRIC}` }).click();
  const electricRule = electric.getByRole('form', { name: 'New rule' });
  await electricRule.getByRole('combobox', { name: 'Book to account' }).fill('Utilities');
  await electricRule.getByRole('combobox', { name: 'Book to account' }).press('Enter');
  await electricRule.getByRole('button', { name: 'Save rule' }).click();
  await expect(electricRule).toBeHidden();

  // the rules' accounts come first and are chosen; the dividend's account is chosen by hand
  await expect(fee.getByRole('combobox', { name: `Account for ${FEE}` })).toHaveValue('Bank fees');
  await expect(fee.getByRole('checkbox', { name: `Select ${FEE}` })).toBeChecked();
  await expect(electric.getByRole('combobox', { name: `Account for ${ELECTRIC}` })).toHaveValue('Utilities');
  const dividend = statements.unmatched(DIVIDEND);
  await dividend.getByRole('combobox', { name: `Account for ${DIVIDEND}` }).fill('Interest');
  await dividend.getByRole('combobox', { name: `Account for ${DIVIDEND}` }).press('Enter');
  await dividend.getByRole('checkbox', { name: `Select ${DIVIDEND}` }).check();
  await captureScreen(page, testInfo, 'statements-bulk-booking');
  await expectEveryControlNamed(page);
  await unmatched.getByRole('button', { name: 'Book 3 selected' }).click();
  await expect(page.getByTestId('booked-count')).toHaveText('Booked 3 lines.');
  await expect(statements.unmatched(FEE)).toBeHidden();

  const rules = await statements.tab('Rules');
  await expect(rules.getByRole('table', { name: 'Rules in the order they apply' }).getByRole('row')).toHaveCount(3);

  // reconcile: the statement's date and balance come from the import; tick the opening balance
  const reconcile = statements.reconcile;
  await reconcile.getByLabel('Account to reconcile').selectOption({ label: 'Checking (USD)' });
  await expect(reconcile.getByRole('textbox', { name: 'Statement date' })).toHaveValue('2013-05-25');
  await expect(reconcile.getByLabel('Statement ending balance')).toHaveValue('100.99');
  await expect(reconcile.getByTestId('cleared-balance')).toHaveText('-59.50 USD');
  await expect(reconcile.getByTestId('reconcile-difference')).toHaveText('160.49 USD');
  await expect(reconcile.getByRole('button', { name: 'Finish reconciling' })).toBeDisabled();
  await reconcile.getByRole('checkbox', { name: 'Cleared: Opening balance, 2011-03-01, 160.49' }).check();
  await expect(reconcile.getByTestId('reconcile-difference')).toHaveText('0.00 USD');
  await captureScreen(page, testInfo, 'reconcile-account');
  await expectEveryControlNamed(page);
  await reconcile.getByRole('button', { name: 'Finish reconciling' }).click();
  await expect(reconcile.getByTestId('reconciled')).toHaveText('Reconciled 4 lines to 100.99 on 2013-05-25.');
  await expect(reconcile.getByText('No lines left to reconcile up to this date.')).toBeVisible();

  // the journal shows every entry of the account reconciled
  await app.go('Journal');
  const register = page.getByRole('table', { name: 'Journal entries' });
  await expect(register.getByRole('row')).toHaveCount(5);
  await expect(register.getByText('Reconciled', { exact: true })).toHaveCount(4);
  const reconciled = await ledger.api.get(`/api/accounts/${checking}/reconciliations`, seed.token);
  expect(reconciled.body.items).toEqual([expect.objectContaining({ statement_balance: '100.99', line_count: 4 })]);
});

test('when a run matches a line on its own, then the match is listed under the review queue and can be undone', async ({
  app,
  page,
  ledger,
}) => {
  const seed = await Seed.user(ledger.api);
  const checking = await seed.account('Checking', 'ASSET');
  const fees = await seed.account('Bank fees', 'EXPENSE');
  await seed.posted('2011-04-07', FEE, fees, checking, '25.00');
  await app.openSignedIn(seed);
  await app.go('Statements');
  await app.statements.chooseFile('Checking (USD)', OFX);
  await app.statements.preview();
  await app.statements.wizard.getByRole('button', { name: 'Import 3 transactions' }).click();
  await app.statements.wizard.getByRole('button', { name: 'Match this statement’s lines' }).click();
  await expect(page.getByTestId('run-summary')).toContainText('1 matched automatically');
  const automatic = page.getByRole('region', { name: /Matched automatically/ });
  const card = automatic.locator(`article.match-card[data-match="${FEE}"]`);
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: `Undo the automatic match for ${FEE}` }).click();
  await expect(card).toBeHidden();
  // the bank line is unmatched again (beside the entry, which has lost its bank line)
  await app.statements.tab('Unmatched');
  await expect(
    app.statements.unmatched(FEE).filter({ has: page.getByRole('checkbox', { name: `Select ${FEE}` }) }),
  ).toBeVisible();
});

test('when the language is Chinese, then rules and reconciling speak it', async ({ app, page, ledger }) => {
  const seed = await Seed.user(ledger.api);
  await seed.account('Checking', 'ASSET');
  await app.openSignedIn(seed);
  await app.chooseLanguage('zh');
  await page.getByRole('link', { name: '对账单', exact: true }).click();
  const reconcile = page.getByRole('article', { name: '账户对账' });
  await expect(reconcile.getByLabel('要对账的账户')).toBeVisible();
  await reconcile.getByLabel('要对账的账户').selectOption({ label: 'Checking (USD)' });
  await expect(reconcile.getByLabel('对账单期末余额')).toBeVisible();
  await expect(reconcile.getByRole('button', { name: '完成对账' })).toBeDisabled();
  await page.getByRole('tab', { name: '规则' }).click();
  await expect(page.getByRole('tabpanel').getByText('还没有规则')).toBeVisible();
  await page.getByRole('tabpanel').getByRole('button', { name: '新建规则' }).click();
  await expect(page.getByRole('form', { name: '新建规则' }).getByRole('button', { name: '保存规则' })).toBeVisible();
});
