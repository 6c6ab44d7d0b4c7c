import { test, expect } from './support/fixtures.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { Seed } from './support/seed.ts';

// March's two lines, booked and ticked; the bank's balance also holds 160.49 from before them
const BALANCE = '2119.29';

for (const language of ['en', 'zh'] as const) {
  test(`when a first reconciliation is left with a difference (${language}), then booking it as an adjustment to an account picked, after its preview, lets it finish`, async ({
    app,
    page,
    ledger,
  }) => {
    const t = (...args: Parameters<typeof app.words.t>) => app.words.t(...args);
    const seed = await Seed.user(ledger.api);
    const checking = await seed.account('Checking', 'ASSET');
    const food = await seed.account('Groceries', 'EXPENSE');
    const pay = await seed.account('Salary', 'INCOME');
    await seed.account('Unexplained differences', 'EXPENSE');
    await seed.posted('2026-03-02', 'Tesco', food, checking, '41.20');
    await seed.posted('2026-03-05', 'Payroll', checking, pay, '2000.00');

    await app.openSignedIn(seed);
    if (language === 'zh') await app.chooseLanguage('zh');
    await app.goTo('statements');
    const reconcile = app.statements.reconcile;
    await reconcile.getByLabel(t('reconcile.account')).selectOption({ label: 'Checking (USD)' });
    await reconcile.getByRole('textbox', { name: t('reconcile.date') }).fill('2026-03-31');
    await reconcile.getByLabel(t('reconcile.balance')).fill(BALANCE);
    const ticks = reconcile.getByRole('checkbox');
    await expect(ticks).toHaveCount(2);
    for (const tick of await ticks.all()) await tick.check();
    await expect(reconcile.getByTestId('reconcile-difference')).toHaveText('160.49 USD');
    await expect(reconcile.getByRole('button', { name: t('reconcile.finish') })).toBeDisabled();

    await reconcile.getByRole('button', { name: t('reconcile.bookAdjustment') }).click();
    const preview = reconcile.getByRole('region', { name: t('reconcile.adjustmentPreview') });
    await expect(preview.getByRole('textbox', { name: t('reconcile.entryDate') })).toHaveValue('2026-03-31');
    await preview.getByLabel(t('reconcile.adjustmentAccount')).selectOption({ label: 'Unexplained differences (USD)' });
    const lines = preview.getByRole('table', { name: t('reconcile.previewLines') });
    // the account's balance rises: a debit on checking, a credit on the account picked
    const cells = (row: number) => lines.getByRole('row').nth(row).getByRole('cell');
    await expect(cells(1)).toHaveText(['Checking', '160.49 USD', '']);
    await expect(cells(2)).toHaveText(['Unexplained differences', '', '160.49 USD']);
    await expectEveryControlNamed(page);
    await preview.getByRole('button', { name: t('reconcile.bookIt') }).click();

    await expect(reconcile.getByTestId('difference-booked')).toContainText('2026-03-31');
    await expect(reconcile.getByTestId('reconcile-difference')).toHaveText('0.00 USD');
    await reconcile.getByRole('button', { name: t('reconcile.finish') }).click();
    await expect(reconcile.getByTestId('reconciled')).toContainText(BALANCE);
    const adjustment = (await seed.entriesOf(checking)).find((e) => e.entry_date === '2026-03-31');
    expect(adjustment.memo).toBe(language === 'en' ? 'Reconciliation adjustment' : '对账调整');
  });
}
