import path from 'node:path';
import { test, expect } from './support/fixtures.ts';
import { STATEMENT_FIXTURES } from './support/paths.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { captureScreen } from './support/screenshots.ts';
import { Seed } from './support/seed.ts';

/** Bank files as banks write them (issue 36): what the preview shows of each, in English and Chinese. */
const file = (name: string): string => path.join(STATEMENT_FIXTURES, name);

test('when a QBO holds checking, savings and a card, then the preview lists each account, each goes where it is sent, and the last step says where', async ({
  app,
  page,
  ledger,
}, testInfo) => {
  const seed = await Seed.user(ledger.api);
  await seed.account('Checking', 'ASSET');
  await seed.account('Savings', 'ASSET');
  await seed.account('Visa', 'LIABILITY');
  await seed.account('Euro account', 'ASSET', 'EUR');
  await app.openSignedIn(seed);
  await app.go('Statements');
  const statements = app.statements;
  await statements.chooseFile('Checking (USD)', file('qbo_own_checking_savings_card.qbo'));
  await statements.preview();
  const wizard = statements.wizard;

  const table = wizard.getByRole('table', { name: 'Accounts in this file' });
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('row').nth(1)).toContainText('000123456789USD');
  await expect(table.getByRole('row').nth(1)).toContainText('4215.372024-05-31');
  await expect(table.getByRole('row').nth(3)).toContainText('-612.44');
  // only the checking account goes anywhere until the person says otherwise
  await expect(wizard.getByTestId('preview-count')).toHaveText('3');
  const savingsTarget = wizard.getByLabel('Import account 000987656789 into');
  await expect(savingsTarget).toHaveValue('');
  // an account in another currency is not offered
  await expect(savingsTarget.getByRole('option', { name: 'Euro account (EUR)' })).toHaveCount(0);
  await savingsTarget.selectOption({ label: 'Savings (USD)' });
  await expect(wizard.getByTestId('preview-count')).toHaveText('5');
  await wizard.getByLabel('Import account 4111111111111111 into').selectOption({ label: 'Visa (USD)' });
  await expect(wizard.getByTestId('preview-count')).toHaveText('9');
  await captureScreen(page, testInfo, 'statements-file-accounts');
  await expectEveryControlNamed(page);

  await wizard.getByRole('button', { name: 'Import 9 transactions' }).click();
  const done = wizard.getByTestId('import-accounts');
  await expect(done).toContainText('Account 000123456789: 3 imported into Checking.');
  await expect(done).toContainText('Account 000987656789: 2 imported into Savings.');
  await expect(done).toContainText('Account 4111111111111111: 4 imported into Visa.');
});

test('when a CSV has notes between header and rows and cells beyond its header, then the preview lists each skipped line and each cell not read', async ({
  app,
  ledger,
}) => {
  const seed = await Seed.user(ledger.api);
  await seed.account('Girokonto', 'ASSET', 'EUR');
  await app.openSignedIn(seed);
  await app.go('Statements');
  const statements = app.statements;
  await statements.chooseFile('Girokonto (EUR)', file('csv_own_de_notes_between_header_and_rows.csv'));
  await statements.preview();
  const wizard = statements.wizard;
  await expect(wizard.getByTestId('preview-count')).toHaveText('3');
  const skipped = wizard.getByTestId('preview-skipped').getByRole('listitem');
  await expect(skipped).toHaveText([
    /^line 2: not a transaction: 1 cell, .*"\* noch nicht ausgeführte Umsätze"$/,
    /^line 3: not a transaction: no date in Buchungstag: .*Summe vorgemerkter Umsätze/,
    /^line 8: not a transaction: no date in Buchungstag: "Kontostand vom 05\.03\.2024:/,
  ]);

  await wizard.getByRole('button', { name: 'Back' }).click();
  await statements.chooseFile('Girokonto (EUR)', file('csv_own_at_text_over_extra_cells.csv'));
  await statements.preview();
  await expect(wizard.getByTestId('preview-ignored').getByRole('listitem')).toHaveText([
    'line 2: Vertrag 4711 | Kundennr. 0815',
  ]);
  await expect(wizard.getByTestId('preview-skipped')).toHaveCount(0);
});

test('when a short EUC-JP file is previewed, then its encoding is detected, another one chosen reads the file again, and the import keeps the one chosen', async ({
  app,
  ledger,
}) => {
  const seed = await Seed.user(ledger.api);
  const yen = await seed.account('Yucho', 'ASSET', 'JPY');
  await app.openSignedIn(seed);
  await app.go('Statements');
  const statements = app.statements;
  await statements.chooseFile('Yucho (JPY)', file('csv_own_jp_eucjp_ascii_header.csv'));
  await statements.preview();
  const wizard = statements.wizard;
  const encoding = wizard.getByLabel('Encoding');
  const rows = wizard.getByRole('table', { name: 'Transactions in the file' });
  await expect(encoding).toHaveValue('euc-jp');
  await expect(rows).toContainText('ローソン 渋谷店');

  await encoding.selectOption('windows-1252');
  await expect(encoding).toHaveValue('windows-1252');
  await expect(rows).not.toContainText('ローソン');
  await expect(rows).toContainText('¥í¡¼¥½¥ó');

  await encoding.selectOption('euc-jp');
  await expect(rows).toContainText('給与 ヤマダ商事');
  await wizard.getByRole('button', { name: 'Import 2 transactions' }).click();
  await expect(wizard.getByRole('status')).toContainText('Imported 2 transactions');
  const stored = await ledger.api.get(`/api/statements?account_id=${yen}`, seed.token);
  const lines = await ledger.api.get(`/api/statements/${stored.body.items[0].id}/transactions`, seed.token);
  expect(lines.body.items.map((l: { description: string }) => l.description)).toEqual([
    'ローソン 渋谷店',
    '給与 ヤマダ商事',
  ]);
});

test('when a CSV has no header row, then the preview says the first row is data and names columns by what they hold', async ({
  app,
  ledger,
}) => {
  const seed = await Seed.user(ledger.api);
  await seed.account('Easybank', 'ASSET', 'EUR');
  await app.openSignedIn(seed);
  await app.go('Statements');
  const statements = app.statements;
  await statements.chooseFile('Easybank (EUR)', file('csv_own_at_headerless_cp1252.csv'));
  await statements.preview();
  const wizard = statements.wizard;
  const form = wizard.getByRole('form', { name: 'CSV columns' });
  await expect(form.getByLabel('The first row is data (the file has no header row)')).toBeChecked();
  await expect(form.getByLabel('Date column')).toHaveValue('#2');
  await expect(form.getByLabel('Date column').locator('option:checked')).toHaveText('Column 3: 01.02.2024');
  await expect(wizard.getByTestId('preview-count')).toHaveText('3');
  await expect(wizard.getByRole('table', { name: 'Transactions in the file' })).toContainText(
    'Überweisung Miete Februar Hausverwaltung Gruber',
  );
});

test('when the language is Chinese, then the accounts in a file, the encoding, skipped lines and a file without transactions speak it', async ({
  app,
  page,
  ledger,
}) => {
  const seed = await Seed.user(ledger.api);
  await seed.account('Checking', 'ASSET');
  await seed.account('Girokonto', 'ASSET', 'EUR');
  await app.openSignedIn(seed);
  await app.chooseLanguage('zh');
  await page.getByRole('link', { name: '对账单', exact: true }).click();
  const wizard = page.getByRole('article', { name: '导入银行对账单' });
  const choose = async (account: string, name: string) => {
    await wizard.getByLabel('银行账户').selectOption({ label: account });
    await wizard.getByLabel('对账单文件').setInputFiles(file(name));
    await wizard.getByRole('button', { name: '预览', exact: true }).click();
    await expect(wizard.getByTestId('preview-count')).toBeVisible();
  };

  await choose('Checking (USD)', 'qbo_own_checking_savings_card.qbo');
  await expect(wizard.getByRole('table', { name: '文件中的账户' })).toBeVisible();
  await expect(wizard.getByLabel('将账户 000987656789 导入到')).toHaveValue('');
  await expect(wizard.getByLabel('编码')).toHaveValue('windows-1252');
  await expect(wizard.getByLabel('编码').locator('optgroup[label="西欧"]')).toHaveCount(1);

  await wizard.getByRole('button', { name: '返回' }).click();
  await choose('Girokonto (EUR)', 'csv_own_de_notes_between_header_and_rows.csv');
  await expect(wizard.getByText('跳过了 3 行：')).toBeVisible();
  await expect(wizard.getByTestId('preview-skipped').getByRole('listitem').first()).toHaveText(/^第 2 行：/);
  await expect(wizard.getByLabel('第一行是数据（文件没有标题行）')).not.toBeChecked();

  await wizard.getByRole('button', { name: '返回' }).click();
  await choose('Girokonto (EUR)', 'ofx1_own_empty_statement_crlf.ofx');
  await expect(wizard.getByTestId('preview-empty')).toContainText('该文件中没有可导入的交易');
  await expect(wizard.getByRole('button', { name: '没有可导入的内容' })).toBeDisabled();
});
