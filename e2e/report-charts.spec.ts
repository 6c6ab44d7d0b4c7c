import { test, expect } from './support/fixtures.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { captureScreen } from './support/screenshots.ts';
import { Seed } from './support/seed.ts';
import type { Api } from '../test/support/server.ts';

/**
 * The Reports screen's charts, each with the table of its figures: income and expenses by month
 * (twelve months at first), net worth over time, spending by category for the report's period,
 * in the home currency where the books hold two; and "Hide zero rows", kept across a reload.
 */

const pad = (n: number) => String(n).padStart(2, '0');
const now = new Date();
/** `back` months before this one, as YYYY-MM. */
const month = (back: number) => {
  const d = new Date(now.getFullYear(), now.getMonth() - back, 1);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}`;
};
const lastDay = (back: number) => {
  const d = new Date(now.getFullYear(), now.getMonth() - back + 1, 0);
  return `${month(back)}-${pad(d.getDate())}`;
};
/** The last twelve months, oldest first. */
const MONTHS = Array.from({ length: 12 }, (_, i) => 11 - i);

/**
 * Three months of books in USD and one euro fee: EUR at 1.50 USD from before the first entry, so
 * every converted figure is exact. Gifts and Opening balances are never used (their rows are zero).
 */
async function books(seed: Seed, api: Api) {
  const checking = await seed.account('Checking', 'ASSET');
  const card = await seed.account('Card', 'LIABILITY');
  await seed.account('Opening balances', 'EQUITY');
  const salary = await seed.account('Salary', 'INCOME');
  const groceries = await seed.account('Groceries', 'EXPENSE');
  const rent = await seed.account('Rent', 'EXPENSE');
  await seed.account('Gifts', 'EXPENSE');
  const euros = await seed.account('Euro account', 'ASSET', 'EUR');
  const fees = await seed.account('Euro fees', 'EXPENSE', 'EUR');
  await seed.price(`${month(2)}-01`, 'EUR', 'USD', '1.50');
  expect((await api.put('/api/settings', { home_currency: 'USD' }, seed.token)).status).toBe(200);
  await seed.posted(`${month(2)}-01`, 'Salary', checking, salary, '3000.00');
  await seed.posted(`${month(2)}-10`, 'Rent', rent, checking, '1200.00');
  await seed.posted(`${month(1)}-01`, 'Salary', checking, salary, '3000.00');
  await seed.posted(`${month(1)}-12`, 'Market', groceries, card, '82.50');
  await seed.posted(`${month(0)}-01`, 'Salary', checking, salary, '3100.00');
  await seed.posted(`${month(0)}-01`, 'Bakery', groceries, checking, '12.25');
  await seed.posted(`${month(0)}-01`, 'Bank fee', fees, euros, '4.20');
}

/** Income, expenses and net (USD) the books hold in each month; zero elsewhere. */
const INCOME_EXPENSES: Record<number, [string, string, string]> = {
  2: ['3,000.00', '1,200.00', '1,800.00'],
  1: ['3,000.00', '82.50', '2,917.50'],
  // 12.25 of groceries and the 4.20 EUR fee at 1.50
  0: ['3,100.00', '18.55', '3,081.45'],
};

/** Assets, liabilities and net worth (USD) at each month's end. */
const NET_WORTH: Record<number, [string, string, string]> = {
  2: ['1,800.00', '0.00', '1,800.00'],
  1: ['4,800.00', '82.50', '4,717.50'],
  // Checking 7,887.75 and the euro account's -4.20 EUR at 1.50
  0: ['7,881.45', '82.50', '7,798.95'],
};

const ZERO = ['0.00', '0.00', '0.00'];

for (const language of ['en', 'zh'] as const) {
  test(`when the books are reported, then income and expenses by month, net worth over time and spending by category are charts beside tables of the books' figures, and zero rows hide and come back across a reload (${language})`, async ({
    app,
    page,
    ledger,
  }, testInfo) => {
    const seed = await Seed.user(ledger.api);
    await books(seed, ledger.api);
    await app.openSignedIn(seed);
    await app.chooseLanguage(language);
    const t = app.words.t.bind(app.words);
    const reports = app.reports;
    await app.goTo('reports');

    // income and expenses: the last 12 months at first, in USD (the home currency)
    let tables = await reports.show('income-expenses');
    await expect(page.getByRole('button', { name: t('reports.preset.last-12-months'), exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    const incomeChart = reports.chart(
      t('reports.chart.incomeExpensesLabel', { currency: 'USD', count: 12, income: '9,100.00', expenses: '1,301.05' }),
    );
    await expect(incomeChart).toBeVisible();
    await expect(page.getByText(t('reports.chart.incomeExpenses', { currency: 'USD' }), { exact: true })).toBeVisible();
    // a bar for each figure that is not zero: income and expenses in each of three months; a bar
    // pointed at shows its exact figure
    await expect(reports.bars(incomeChart)).toHaveCount(6);
    await reports.bars(incomeChart).first().hover();
    await expect(incomeChart.locator('.recharts-tooltip-wrapper')).toContainText('3,000.00 USD');
    tables = await reports.tables();
    const table = page.getByRole('table', { name: tables[0]!.name, exact: true });
    await expect(table.getByRole('columnheader')).toHaveText([
      t('reports.period'),
      t('types.INCOME'),
      t('types.EXPENSE'),
      t('reports.net'),
    ]);
    expect(tables.map((table) => table.name)).toEqual([
      t('reports.tableLabel', { title: t('reports.kind.income-expenses'), currency: 'USD' }),
    ]);
    expect(tables[0]!.sections[0]!.rows.map((r) => [r.label, ...r.cells])).toEqual([
      ...MONTHS.map((back) => [month(back), ...(INCOME_EXPENSES[back] ?? ZERO)]),
      [t('reports.total'), '9,100.00', '1,301.05', '7,798.95'],
    ]);
    await captureScreen(page, testInfo, `report-income-expenses-${language}`);

    // each currency on its own: a chart and a table for the dollars and one for the euro fee
    await page.getByRole('button', { name: t('currency.perCurrency'), exact: true }).click();
    await expect(
      reports.chart(
        t('reports.chart.incomeExpensesLabel', {
          currency: 'USD',
          count: 12,
          income: '9,100.00',
          expenses: '1,294.75',
        }),
      ),
    ).toBeVisible();
    await expect(
      reports.chart(
        t('reports.chart.incomeExpensesLabel', { currency: 'EUR', count: 12, income: '0.00', expenses: '4.20' }),
      ),
    ).toBeVisible();
    tables = await reports.tables();
    expect(tables.map((shown) => shown.name)).toEqual(
      ['EUR', 'USD'].map((currency) => t('reports.tableLabel', { title: t('reports.kind.income-expenses'), currency })),
    );
    expect(tables[0]!.sections[0]!.rows.map((r) => [r.label, ...r.cells])).toEqual([
      ...MONTHS.map((back) => [month(back), ...(back === 0 ? ['0.00', '4.20', '-4.20'] : ZERO)]),
      [t('reports.total'), '0.00', '4.20', '-4.20'],
    ]);
    await page.getByRole('button', { name: t('currency.inHome', { currency: 'USD' }), exact: true }).click();
    await expect(incomeChart).toBeVisible();

    // net worth over the same twelve months, at each month's end
    tables = await reports.show('net-worth');
    const worthChart = reports.chart(
      t('reports.chart.netWorthLabel', { currency: 'USD', count: 12, value: '7,798.95', date: lastDay(0) }),
    );
    await expect(worthChart).toBeVisible();
    await expect(worthChart.locator('.recharts-line')).toHaveCount(3);
    expect(tables[0]!.sections[0]!.rows.map((r) => [r.label, ...r.cells])).toEqual(
      MONTHS.map((back) => [lastDay(back), ...(NET_WORTH[back] ?? ZERO)]),
    );

    // spending by category over this month: two bars, and every category (by name) with its figure beside them
    await reports.choosePeriod('this-month');
    tables = await reports.show('income-statement');
    const spendingChart = reports.chart(
      t('reports.chart.spendingLabel', { currency: 'USD', count: 2, total: '18.55' }),
    );
    await expect(spendingChart).toBeVisible();
    await expect(reports.bars(spendingChart)).toHaveCount(2);
    const spending = t('reports.chart.spending', { currency: 'USD' });
    expect(await reports.figures(spending)).toEqual([
      ['Euro fees', '6.30'],
      ['Gifts', '0.00'],
      ['Groceries', '12.25'],
      ['Rent', '0.00'],
      [t('reports.totalExpenses'), '18.55'],
    ]);
    const expenseRows = () =>
      reports.tables().then((shown) => shown[0]!.sections[1]!.rows.map((r) => [r.label, ...r.cells]));
    expect(await expenseRows()).toEqual([
      ['Euro fees', '6.30'],
      ['Gifts', '0.00'],
      ['Groceries', '12.25'],
      ['Rent', '0.00'],
      [t('reports.totalExpenses'), '18.55'],
    ]);
    await expectEveryControlNamed(page);
    await captureScreen(page, testInfo, `report-spending-${language}`);

    // zero rows hidden, from the keyboard, on the report and beside the chart
    await reports.hideZeroRows.focus();
    await page.keyboard.press('Space');
    await expect(reports.hideZeroRows).toBeChecked();
    const withoutZeros = [
      ['Euro fees', '6.30'],
      ['Groceries', '12.25'],
      [t('reports.totalExpenses'), '18.55'],
    ];
    await expect.poll(expenseRows).toEqual(withoutZeros);
    expect(await reports.figures(spending)).toEqual(withoutZeros);

    // still hidden after a reload (remembered on this computer), and back when unticked
    await page.reload();
    await expect(reports.hideZeroRows).toBeChecked();
    await reports.show('income-statement');
    await expect.poll(expenseRows).toEqual(withoutZeros);
    await reports.hideZeroRows.uncheck();
    await expect.poll(expenseRows).toContainEqual(['Gifts', '0.00']);
    await page.reload();
    await expect(reports.hideZeroRows).not.toBeChecked();
    await reports.show('income-statement');
    await expect.poll(expenseRows).toContainEqual(['Gifts', '0.00']);
    expect(await reports.figures(spending)).toContainEqual(['Gifts', '0.00']);
  });
}
