import { expectEveryControlNamed } from './support/accessibility.ts';
import { test, expect } from './support/fixtures.ts';
import { captureScreen } from './support/screenshots.ts';
import { Seed } from './support/seed.ts';

/**
 * The History screen: the books' own changes, newest first, in the interface's words, with Undo of
 * this computer's last change. The books here are in no sync group: the history is theirs anyway.
 */

/** How the two changes and the undo read, written out (the spec imports nothing of the app). */
const SAID = {
  en: {
    account: 'Account created: Savings',
    entry: 'Entry posted: 2026-01-09 · Hardware store · 12.00 USD',
    thisComputer: 'This computer',
    undone: 'Undone: Entry posted: 2026-01-09 · Hardware store · 12.00 USD.',
    undoneMark: '(undone)',
  },
  zh: {
    account: '账户已创建：Savings',
    entry: '分录已过账：2026-01-09 · Hardware store · 12.00 USD',
    thisComputer: '这台电脑',
    undone: '已撤销：分录已过账：2026-01-09 · Hardware store · 12.00 USD。',
    undoneMark: '（已撤销）',
  },
} as const;

for (const language of ['en', 'zh'] as const) {
  test(`when two changes are made and the last is undone from the History screen (${language}), then both read in words and the books go back to before it`, async ({
    app,
    page,
    ledger,
  }, testInfo) => {
    const said = SAID[language];
    const seed = await Seed.user(ledger.api);
    await seed.account('Checking', 'ASSET');
    await seed.account('Groceries', 'EXPENSE');
    await app.openSignedIn(seed);
    if (language === 'zh') await app.chooseLanguage('zh');

    // two changes from the screens: an account made, then an entry posted
    await app.goTo('accounts');
    await app.accounts.create('Savings', 'Asset');
    const before = await app.accounts.balances('Checking');
    await app.goTo('journal');
    await app.journal.typeEntry({
      date: '2026-01-09',
      memo: 'Hardware store',
      lines: [
        { account: 'Groceries', debit: '12.00' },
        { account: 'Checking', credit: '12.00' },
      ],
    });
    await app.goTo('accounts');
    await expect.poll(() => app.accounts.balances('Checking')).not.toEqual(before);

    // History lists them newest first, in words, each made on this computer
    await app.goTo('history');
    const history = app.history;
    const rows = history.table.getByRole('row');
    await expect(rows.nth(1)).toContainText(said.entry);
    await expect(rows.nth(1)).toContainText(said.thisComputer);
    await expect(history.table.getByRole('row', { name: said.account })).toHaveCount(1);
    await expectEveryControlNamed(page);
    await captureScreen(page, testInfo, `history-screen-${language}`, { docs: false });

    // Undo from the keyboard takes back the entry (its void), and says what it undid
    await history.undoButton.focus();
    await page.keyboard.press('Enter');
    await expect(history.notice).toHaveText(said.undone);
    await expect(history.table.getByRole('row', { name: said.entry })).toContainText(said.undoneMark);
    await expect(history.table.getByRole('row', { name: said.account })).not.toContainText(said.undoneMark);

    // the books are as before the entry: Checking's balance is back
    await app.goTo('accounts');
    await expect.poll(() => app.accounts.balances('Checking')).toEqual(before);
    await expect(app.accounts.row('Savings')).toBeVisible();
  });
}
