import { test, expect } from './support/fixtures.ts';
import { Seed } from './support/seed.ts';

/**
 * The Unmatched list for a month's lines: filtered by account and statement, each line naming its
 * account, a page size the person chooses (kept for next time), and lines ticked on one page still
 * booked with those ticked on another.
 */

for (const language of ['en', 'zh'] as const) {
  test(`when a month's bank lines are reviewed, then the list filters by account and statement, keeps its page size and books the lines ticked on every page (${language})`, async ({
    app,
    page,
    ledger,
  }) => {
    const seed = await Seed.user(ledger.api);
    const checking = await seed.account('Checking', 'ASSET');
    const card = await seed.account('Card', 'LIABILITY');
    const groceries = await seed.account('Groceries', 'EXPENSE');
    const rule = await ledger.api.post(
      '/api/rules',
      { name: 'Shop', description: { op: 'contains', value: 'shop' }, account_id: groceries },
      seed.token,
    );
    expect(rule.status).toBe(201);
    // 12 shop lines on Checking (one statement), 3 on the card (another)
    const shop = (n: number) => `SHOP ${String(n).padStart(2, '0')}`;
    await seed.bankLines(
      checking,
      Array.from({ length: 12 }, (_, i) => ({
        date: `2011-03-${String(i + 1).padStart(2, '0')}`,
        description: shop(i + 1),
        amount: `${i + 1}.00`,
        type: 'debit' as const,
      })),
    );
    await seed.bankLines(card, [
      { date: '2011-03-20', description: 'CARD SHOP A', amount: '1.50', type: 'debit' },
      { date: '2011-03-21', description: 'CARD SHOP B', amount: '2.50', type: 'debit' },
      { date: '2011-03-22', description: 'CARD SHOP C', amount: '3.50', type: 'debit' },
    ]);

    await app.openSignedIn(seed);
    await app.chooseLanguage(language);
    const t = app.words.t.bind(app.words);
    await app.goTo('statements');
    const list = await app.statements.openUnmatched();
    const items = list.locator('article.unmatched-item');

    // 25 a page the first time: all 15 lines, each naming its account
    await expect(items).toHaveCount(15);
    await expect(app.statements.unmatched('CARD SHOP A').getByTestId('unmatched-account')).toHaveText('Card');
    await expect(app.statements.unmatched(shop(12)).getByTestId('unmatched-account')).toHaveText('Checking');

    // filtered by account, then by statement
    await list
      .getByRole('combobox', { name: t('unmatched.filterAccount'), exact: true })
      .selectOption({ label: 'Card' });
    await expect(items).toHaveCount(3);
    await list.getByRole('combobox', { name: t('unmatched.filterAccount'), exact: true }).selectOption({ index: 0 });
    const statements = list.getByRole('combobox', { name: t('unmatched.filterStatement'), exact: true });
    await expect(statements.locator('option')).toHaveCount(3);
    const byStatement: string[][] = [];
    // each statement's list differs in length from the one shown before it (15, then 3 or 12), so a
    // list read before the new one arrives is never taken for it
    let shown = 15;
    for (const index of [1, 2]) {
      await statements.selectOption({ index });
      await expect
        .poll(async () => {
          const count = await items.count();
          return count > 0 && count !== shown;
        })
        .toBe(true);
      const lines = (await items.locator('h3').allTextContents()).sort();
      byStatement.push(lines);
      shown = lines.length;
    }
    expect(byStatement.sort((a, b) => a.length - b.length)).toEqual([
      ['CARD SHOP A', 'CARD SHOP B', 'CARD SHOP C'],
      Array.from({ length: 12 }, (_, i) => shop(i + 1)),
    ]);
    await statements.selectOption({ index: 0 });

    // 10 a page: tick two on page 1, untick one on page 2, and book what is ticked on both pages
    await list.getByRole('combobox', { name: t('unmatched.pageSize'), exact: true }).selectOption('10');
    await expect(items).toHaveCount(10);
    const firstPage = await items.locator('h3').allTextContents();
    // every line has a rule's account and starts ticked; untick all but two on this page
    const keep = firstPage.slice(0, 2);
    for (const description of firstPage.slice(2)) await app.statements.select(description).uncheck();
    await list
      .getByRole('navigation', { name: t('unmatched.pages') })
      .getByRole('button', { name: t('pager.next') })
      .click();
    await expect(items).toHaveCount(5);
    await expect(list.getByTestId('selected-elsewhere')).toHaveText(
      new RegExp(`^${t('unmatched.selectedElsewhere', { count: 2 })}`),
    );
    const secondPage = await items.locator('h3').allTextContents();
    await app.statements.select(secondPage[0]!).uncheck();
    await list.getByRole('button', { name: t('unmatched.bookSelected', { count: 2 + secondPage.length - 1 }) }).click();
    await expect(page.getByTestId('booked-count')).toHaveText(t('unmatched.bookedCount', { count: 6 }));

    // what is left: the 8 lines unticked on page 1 and the one on page 2
    const open = await ledger.api.get('/api/reconciliation/unmatched?type=bank_transaction&per_page=100', seed.token);
    const left = open.body.items.map((i: { transaction: { description: string } }) => i.transaction.description).sort();
    expect(left).toEqual([...firstPage.slice(2), secondPage[0]!].sort());
    expect(left).not.toContain(keep[0]);

    // the page size is kept for next time
    await page.reload();
    await app.goTo('statements');
    const again = await app.statements.openUnmatched();
    await expect(again.getByRole('combobox', { name: t('unmatched.pageSize'), exact: true })).toHaveValue('10');
  });
}
