import { test, expect } from './support/fixtures.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { captureScreen } from './support/screenshots.ts';
import { Seed } from './support/seed.ts';

const RATES_CSV = ['date,from,to,rate', '2026-02-01,EUR,USD,1.2', '2026-02-01,USD,CHF,0.88', ''].join('\n');

test('when rates are entered and imported, an exchange is booked and the home currency chosen, then the dashboard shows one net worth, with the per-currency figures one click away', async ({
  app,
  page,
  ledger,
}, testInfo) => {
  const seed = await Seed.user(ledger.api, 'Ada Lovelace');
  const checking = await seed.account('Checking', 'ASSET');
  const opening = await seed.account('Opening', 'EQUITY');
  const euros = await seed.account('Euro account', 'ASSET', 'EUR');
  const openingEur = await seed.account('Opening EUR', 'EQUITY', 'EUR');
  const yen = await seed.account('Yen wallet', 'ASSET', 'JPY');
  const openingJpy = await seed.account('Opening JPY', 'EQUITY', 'JPY');
  await seed.account('Travel', 'EXPENSE', 'EUR');
  await seed.posted('2026-01-05', 'Opening USD', checking, opening, '1000.00');
  await seed.posted('2026-01-05', 'Opening EUR', euros, openingEur, '200.00');
  await seed.posted('2026-01-05', 'Opening JPY', yen, openingJpy, '5000');
  await app.openSignedIn(seed);

  // --- the rates screen: enter one, import a file, see the latest per pair ---
  await app.nav.getByRole('link', { name: 'Rates' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Exchange rates' })).toBeVisible();
  await expect(page.getByText('No rates yet')).toBeVisible();
  const form = page.getByRole('form', { name: 'Enter a rate' });
  await form.getByRole('textbox', { name: 'Date' }).fill('2026-01-01');
  await form.getByLabel('From').fill('eur');
  await form.getByLabel('To').fill('USD');
  await form.getByLabel('Rate').fill('1.1');
  await form.getByRole('button', { name: 'Save rate' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved:' })).toHaveText(
    'Saved: 1 EUR = 1.1 USD on 2026-01-01.',
  );
  const file = testInfo.outputPath('rates.csv');
  await import('node:fs').then((fs) => fs.writeFileSync(file, RATES_CSV));
  const importForm = page.getByRole('form', { name: 'Import rates' });
  await importForm.getByLabel('CSV file').setInputFiles(file);
  await importForm.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'rates added' })).toHaveText('2 rates added, 0 replaced.');
  await expect(page.getByTestId('latest-EUR-USD')).toHaveText('1 EUR = 1.2 USD');
  await expect(page.getByTestId('latest-USD-CHF')).toHaveText('1 USD = 0.88 CHF');
  await expectEveryControlNamed(page);
  await captureScreen(page, testInfo, 'prices');

  // --- the home currency lives in Settings, beside the language ---
  await app.go('Settings');
  const home = page.getByRole('combobox', { name: 'Home currency' });
  await expect(home).toHaveValue('EUR'); // most accounts are in EUR until one is chosen
  await home.selectOption('USD');
  await expect(page.getByRole('status').filter({ hasText: 'Figures are now shown' })).toHaveText(
    'Figures are now shown in USD.',
  );

  // --- an exchange in the entry editor: a EUR line's cost in USD, the rate shown, the balance by cost ---
  await app.go('Journal');
  await app.journal.newEntry();
  const editor = app.journal.editor;
  await page.keyboard.type('Dinner in Paris');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Travel');
  await page.keyboard.press('Enter');
  await page.keyboard.type('100.00');
  await editor.getByRole('button', { name: 'Exchange: what line 1 cost in another currency' }).click();
  await expect(editor.getByLabel('Cost of line 1', { exact: true })).toBeFocused();
  await expect(editor.getByLabel('Currency of the cost of line 1')).toHaveValue('USD');
  await page.keyboard.type('108.50');
  await expect(editor.getByTestId('rate-of-line-1')).toHaveText('1 EUR = 1.0850 USD');
  await expect(app.journal.balanceHint).toHaveText('Unbalanced by 108.50 USD: debits exceed credits.');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Checking');
  await page.keyboard.press('Enter');
  await expect(editor.getByLabel('Credit, line 2')).toHaveValue('108.50');
  await expect(app.journal.balanceHint).toHaveText('Balanced: 108.50 USD.');
  await expectEveryControlNamed(page);
  await captureScreen(page, testInfo, 'journal-exchange');
  await app.journal.postButton.click();
  await expect(app.journal.details.getByTestId('entry-status')).toHaveText('Posted');
  await expect(app.journal.details.getByRole('row').filter({ hasText: 'Currency trading EUR' })).toContainText(
    'automatic',
  );
  await expect(app.journal.details.getByRole('row').filter({ hasText: 'Travel' })).toContainText('Cost 108.50 USD');
  // repeated monthly, the schedule keeps the typed lines with the cost (its entries get their own automatic lines)
  await app.journal.details.getByRole('button', { name: 'Repeat monthly' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Scheduled entries' })).toBeVisible();
  await expect(page.getByTestId('schedule-row')).toHaveCount(1);
  await expect(page.getByTestId('schedule-row').first()).toContainText('100.00 EUR');
  const schedules = await ledger.api.get('/api/schedules', seed.token);
  expect(
    schedules.body.items[0].lines.map(
      (l: { account_name: string; amount: string; currency: string; cost: { amount: string } | null }) =>
        `${l.account_name} ${l.amount} ${l.currency}${l.cost ? ` cost ${l.cost.amount}` : ''}`,
    ),
  ).toEqual(['Travel 100.00 EUR cost 108.50', 'Checking 108.50 USD']);

  // --- the dashboard in the home currency, and per currency one click away ---
  await app.go('Dashboard');
  const inUsd = page.getByRole('button', { name: 'In USD' });
  await expect(inUsd).toHaveAttribute('aria-pressed', 'true');
  // 1000.00 − 108.50 USD, 200.00 EUR at 1.2; JPY has no rate and is left out (never counted as zero)
  await expect(page.getByTestId('net-worth-USD')).toHaveText('1,131.50 USD');
  await expect(page.getByRole('status').filter({ hasText: 'No rate from JPY to USD' })).toContainText(
    'JPY is left out of these totals',
  );
  await expect(page.getByRole('article', { name: 'Summary in USD' })).toContainText('Unrealised gains11.50 USD');
  await captureScreen(page, testInfo, 'dashboard-home-currency');
  await page.getByRole('button', { name: 'Per currency' }).click();
  await expect(page.getByTestId('net-worth-EUR')).toHaveText('200.00 EUR');
  await expect(page.getByTestId('net-worth-JPY')).toHaveText('5,000 JPY');
  await expect(page.getByTestId('net-worth-USD')).toHaveText('891.50 USD');

  // in Chinese the switch says the same
  await app.chooseLanguage('zh');
  await page.getByRole('button', { name: '折合 USD' }).click();
  await expect(page.getByRole('button', { name: '折合 USD' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: '按币种' })).toBeVisible();
  await expect(page.getByText(/没有 JPY 兑 USD 的汇率/)).toBeVisible();
  await expectEveryControlNamed(page);
});

const SECURITY_PRICES_CSV = ['date,from,to,rate', '2026-02-01,VTI,USD,250.125', '2026-02-01,EUR,USD,1.2', ''].join(
  '\n',
);

for (const l of [
  {
    code: 'en',
    form: 'Import rates',
    file: 'CSV file',
    button: 'Import',
    done: '2 rates added, 0 replaced; 1 of them securities’ prices.',
    hint: 'its symbol in from',
  },
  {
    code: 'zh',
    form: '导入汇率',
    file: 'CSV 文件',
    button: '导入',
    done: '新增 2 个汇率，替换 0 个；其中 1 个为证券价格。',
    hint: 'from 填代码',
  },
] as const) {
  test(`in ${l.code}: when a rates file holds a security's price, then the rates screen imports it as that security's price and the holding is valued at it`, async ({
    app,
    page,
    ledger,
  }, testInfo) => {
    const seed = await Seed.user(ledger.api);
    const broker = await seed.account('Brokerage', 'ASSET');
    const opening = await seed.account('Opening', 'EQUITY');
    await seed.posted('2026-01-02', 'Opening', broker, opening, '5000.00');
    const vti = await ledger.api.post(
      '/api/securities',
      { symbol: 'VTI', name: 'Total market', currency: 'USD' },
      seed.token,
    );
    const buy = {
      kind: 'buy',
      date: '2026-01-05',
      account_id: broker,
      security_id: vti.body.id,
      units: '10',
      price: '200',
    };
    expect((await ledger.api.post('/api/investments/trades', buy, seed.token)).status).toBe(201);
    await app.openSignedIn(seed);
    if (l.code !== 'en') await app.chooseLanguage(l.code);

    await app.openFromNav('/prices');
    const importForm = page.getByRole('form', { name: l.form });
    await expect(page.getByText(l.hint)).toBeVisible();
    const file = testInfo.outputPath('prices.csv');
    await import('node:fs').then((fs) => fs.writeFileSync(file, SECURITY_PRICES_CSV));
    await importForm.getByLabel(l.file).setInputFiles(file);
    await importForm.getByRole('button', { name: l.button, exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: l.done })).toHaveText(l.done);
    // the rates table holds the currencies' rate only; the security's price is on the holding
    await expect(page.getByTestId('latest-EUR-USD')).toHaveText('1 EUR = 1.2 USD');
    await expect(page.getByTestId('latest-VTI-USD')).toHaveCount(0);
    await expectEveryControlNamed(page);

    await app.openFromNav('/investments');
    await expect(page.getByTestId('holding-VTI')).toContainText('250.125');
    await expect(page.getByTestId('market-VTI')).toContainText('2,501.25');
  });
}
