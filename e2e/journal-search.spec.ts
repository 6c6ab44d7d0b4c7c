import { test, expect } from './support/fixtures.ts';
import { captureScreen } from './support/screenshots.ts';
import { Seed } from './support/seed.ts';

/**
 * Issue 33 item 11: the journal's search finds an entry by its account's name, by its payee and by
 * the description the bank gave the bank line matched to it, not only by its memo, in both languages.
 */

/** A month of books: bills, meals, and two bank lines booked from the statement with memos of their own. */
async function books(seed: Seed, api: Parameters<typeof Seed.user>[0]) {
  const checking = await seed.account('Checking', 'ASSET');
  const utilities = await seed.account('Utilities', 'EXPENSE');
  const groceries = await seed.account('Groceries', 'EXPENSE');
  const dining = await seed.account('餐饮', 'EXPENSE');
  await seed.posted('2026-04-02', 'Electric bill', utilities, checking, '60.00');
  await seed.posted('2026-04-03', 'Water bill', utilities, checking, '20.00');
  await seed.posted('2026-04-04', '午饭', dining, checking, '35.00');
  const lines = await seed.bankLines(checking, [
    { date: '2026-04-10', description: 'CARD PAYMENT TO TESCO STORES 3297', amount: '12.34', type: 'debit' },
    { date: '2026-04-11', description: '支付宝 星巴克咖啡', amount: '30.00', type: 'debit' },
  ]);
  for (const [description, account, memo] of [
    ['CARD PAYMENT TO TESCO STORES 3297', groceries, 'Weekly shop'],
    ['支付宝 星巴克咖啡', dining, '下午茶'],
  ] as const) {
    const res = await api.post(
      `/api/reconciliation/unmatched/${lines[description]}/create-entry`,
      { account_id: account, memo },
      seed.token,
    );
    expect(res.status).toBe(201);
  }
}

for (const language of ['en', 'zh'] as const) {
  test(`when an account name, a payee or a bank description is typed in the journal search (${language}), then the entries holding it are listed`, async ({
    app,
    page,
    ledger,
  }, testInfo) => {
    const seed = await Seed.user(ledger.api);
    await books(seed, ledger.api);
    await app.openSignedIn(seed);
    if (language === 'zh') await app.chooseLanguage('zh');
    await app.goTo('journal');
    const rows = app.journal.register.locator('tbody tr');
    await expect(rows).toHaveCount(5);
    // the box says what it looks in
    await expect(app.journal.searchBox).toHaveAccessibleDescription(app.words.t('journal.searchHint'));

    // an account's name: both bills, whatever their memos
    await app.journal.search('Utilities');
    await expect(rows).toHaveCount(2);
    await expect(app.journal.registerRow('Electric bill')).toHaveCount(1);
    await expect(app.journal.registerRow('Water bill')).toHaveCount(1);
    await captureScreen(page, testInfo, language === 'en' ? 'journal-search-account' : 'journal-search-account-zh');

    // a payee: the entry booked from the bank line, its memo "Weekly shop"
    await app.journal.search('tesco');
    await expect(rows).toHaveCount(1);
    await expect(app.journal.registerRow('Weekly shop')).toHaveCount(1);

    // the bank's own words for the line
    await app.journal.search('card payment 3297');
    await expect(rows).toHaveCount(1);
    await expect(app.journal.registerRow('Weekly shop')).toHaveCount(1);

    // Chinese: a bank description, and a two-character account name
    await app.journal.search('星巴克');
    await expect(rows).toHaveCount(1);
    await expect(app.journal.registerRow('下午茶')).toHaveCount(1);
    await app.journal.search('餐饮');
    await expect(rows).toHaveCount(2);
    await expect(app.journal.registerRow('午饭')).toHaveCount(1);

    await app.journal.search('');
    await expect(rows).toHaveCount(5);
  });
}
