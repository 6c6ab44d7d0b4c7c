import { test, expect } from './support/fixtures.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { InvestmentsPage } from './pages/investments-page.ts';
import { captureScreen } from './support/screenshots.ts';
import { Seed } from './support/seed.ts';

test('when VTI is bought twice, sold first in first out and from a named lot, then each gain is shown before booking, the holding is at market with its lots, and the balance sheet adds up', async ({
  app,
  page,
  ledger,
}, testInfo) => {
  const seed = await Seed.user(ledger.api, 'Ada Lovelace');
  const broker = await seed.account('Brokerage', 'ASSET');
  const opening = await seed.account('Opening', 'EQUITY');
  await seed.account('Capital gains', 'INCOME');
  await seed.posted('2026-01-02', 'Opening', broker, opening, '10000.00');
  await app.openSignedIn(seed);
  await app.openFromNav('/investments');
  await expect(page.getByRole('heading', { level: 1, name: 'Investments' })).toBeVisible();
  const inv = new InvestmentsPage(page);
  await expect(page.getByText('No holdings yet')).toBeVisible();

  await inv.declare('VTI', 'Vanguard Total Stock Market', 'USD');
  await inv.settle('Brokerage (USD)', 'FIFO', 'Capital gains (USD)');

  // two buys: 10 @ 200.00 and 10 @ 220.00
  for (const [date, price, cost] of [
    ['2026-01-05', '200', '2,000.00'],
    ['2026-02-05', '220', '2,200.00'],
  ] as const) {
    await inv.fillTrade(/^Buy$/, { date, account: 'Brokerage (USD)', security: /^VTI/, units: '10', price });
    await inv.showGain();
    await expect(page.getByTestId('preview-cost')).toHaveText(`${cost} USD`);
    await inv.book();
  }

  // sell 15 @ 250 first in, first out: the January lot and 5 of February's; the gain before booking
  await inv.fillTrade(/^Sell$/, {
    date: '2026-03-05',
    account: 'Brokerage (USD)',
    security: /^VTI/,
    units: '15',
    price: '250',
  });
  await inv.showGain();
  await expect(page.getByTestId('preview-gain')).toHaveText('650.00 USD');
  const reduced = inv.preview.getByRole('table', { name: 'Lots the sale reduces' });
  await expect(reduced.getByRole('row')).toHaveCount(3);
  await expect(reduced.getByRole('row').nth(1)).toContainText('2026-01-05');
  await expectEveryControlNamed(page);
  await captureScreen(page, testInfo, 'investments-sale-preview');
  await inv.book();
  await expect(page.getByTestId('realized-VTI')).toHaveText('650.00');

  // sell 1 from the lot named: February's, at 240
  await inv.fillTrade(/^Sell$/, {
    date: '2026-03-06',
    account: 'Brokerage (USD)',
    security: /^VTI/,
    units: '1',
    price: '240',
  });
  await inv.tradeForm.getByRole('checkbox', { name: 'Choose the lots to sell' }).check();
  await inv.tradeForm.getByRole('textbox', { name: /^Lot of 2026-02-05: 5 held/ }).fill('1');
  await inv.showGain();
  await expect(page.getByTestId('preview-gain')).toHaveText('20.00 USD');
  await inv.book();

  // prices imported from a CSV file; then one entered for a later day: the holding at market, its lot one click away
  const file = testInfo.outputPath('vti-prices.csv');
  await import('node:fs').then((fs) =>
    fs.writeFileSync(file, 'date,symbol,price\n2026-03-07,VTI,245\n2026-03-08,vti,250\n'),
  );
  const importForm = page.getByRole('form', { name: 'Import prices' });
  await importForm.getByLabel('CSV file').setInputFiles(file);
  await importForm.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'prices kept' })).toHaveText('2 prices kept.');
  await expect(page.getByTestId('market-VTI')).toHaveText('1,000.00 USD');
  const priceForm = page.getByRole('form', { name: 'Save price' });
  await priceForm.getByRole('combobox', { name: /^Security$/ }).selectOption({ label: 'VTI' });
  await priceForm.getByRole('textbox', { name: /^Date$/ }).fill('2026-03-10');
  await priceForm.getByRole('textbox', { name: /^Price$/ }).fill('260');
  await priceForm.getByRole('button', { name: 'Save price' }).click();
  const row = page.getByTestId('holding-VTI');
  await expect(row).toContainText('4');
  await expect(page.getByTestId('market-VTI')).toHaveText('1,040.00 USD');
  await expect(page.getByTestId('unrealized-VTI')).toHaveText('160.00');
  await expect(page.getByTestId('realized-VTI')).toHaveText('670.00');
  await page.getByRole('button', { name: 'Show the lots of VTI · Brokerage' }).click();
  await expect(inv.holdings.getByRole('row', { name: /Lot bought 2026-02-05/ })).toContainText('880.00');
  await expectEveryControlNamed(page);
  await captureScreen(page, testInfo, 'investments');

  // the balance sheet holds VTI at market and still balances: assets = liabilities + equity + unrealised gains
  const sheet = await ledger.api.get('/api/reports/balance-sheet?as_of=2026-12-31', seed.token);
  const usd = sheet.body.currencies.find((c: { currency: string }) => c.currency === 'USD');
  expect(usd.total_assets).toBe('10830.00');
  expect(usd.unrealized_gains).toBe('160.00');
  expect(usd.total_liabilities_and_equity).toBe(usd.total_assets);
});

test('when the language is Chinese, then the investments screen speaks it and a buy shows its cost before booking', async ({
  app,
  page,
  ledger,
}, testInfo) => {
  const seed = await Seed.user(ledger.api, 'Ada Lovelace');
  const broker = await seed.account('Brokerage', 'ASSET');
  const opening = await seed.account('Opening', 'EQUITY');
  await seed.posted('2026-01-02', 'Opening', broker, opening, '1000.00');
  await ledger.api.post('/api/securities', { symbol: 'AAPL', name: 'Apple', currency: 'USD' }, seed.token);
  await app.openSignedIn(seed);
  await app.openFromNav('/investments');
  await app.chooseLanguage('zh');
  await expect(page.getByRole('heading', { level: 1, name: '投资' })).toBeVisible();
  await expect(page.getByText('还没有持仓')).toBeVisible();
  const inv = new InvestmentsPage(page);
  await inv.fillTrade(/^买入$/, {
    date: '2026-01-05',
    account: 'Brokerage (USD)',
    security: /^AAPL/,
    units: '2.5',
    price: '180.10',
  });
  await inv.showGain();
  await expect(page.getByTestId('preview-cost')).toHaveText('450.25 USD');
  await inv.book();
  await expect(page.getByTestId('holding-AAPL')).toContainText('2.5');
  await expect(page.getByTestId('market-AAPL')).toHaveText('450.25 USD');
  await expectEveryControlNamed(page);
  await captureScreen(page, testInfo, 'investments-zh');
});
