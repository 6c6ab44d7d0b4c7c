import path from 'node:path';
import type { Locator } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { STATEMENT_FIXTURES } from './support/paths.ts';
import { PASSWORD } from './support/people.ts';
import { Seed } from './support/seed.ts';

/**
 * The finish of the screens, in English and Chinese: errors named on their field with the real
 * reason, limits seen before they cut, a new entry one key away, signed journal amounts, and a new
 * ledger in Chinese all the way (home currency, names the server made, month picker, delimiters).
 */

const today = new Date().toISOString().slice(0, 10);

/** Pastes text into a field as the clipboard does (a paste event carrying the text). */
async function paste(field: Locator, text: string): Promise<void> {
  await field.focus();
  await field.evaluate((element, pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

for (const language of ['en', 'zh'] as const) {
  const words = {
    en: {
      budget: 'Budget',
      amountOf: 'Budget for Groceries',
      negative: 'This must not be negative.',
      notice: 'Some of what you entered cannot be used: This must not be negative.',
      saved: 'Saved.',
      overspent: 'Overspent by 15.00',
    },
    zh: {
      budget: '预算',
      amountOf: 'Groceries 的预算',
      negative: '此项不能为负数。',
      notice: '您输入的部分内容无法使用：此项不能为负数。',
      saved: '已保存。',
      overspent: '超支 15.00',
    },
  }[language];

  test(`when a budget amount is negative (${language}), then its field is marked with the real reason, the old "Saved." goes, and overspending is not struck through`, async ({
    app,
    page,
    ledger,
  }) => {
    const seed = await Seed.user(ledger.api);
    const checking = await seed.account('Checking', 'ASSET');
    const groceries = await seed.account('Groceries', 'EXPENSE');
    const dining = await seed.account('Dining out', 'EXPENSE');
    await seed.posted(today, 'Pizza', dining, checking, '65.00');
    await seed.budget(today.slice(0, 7), { [groceries]: '300.00', [dining]: '50.00' });
    await app.openSignedIn(seed);
    if (language === 'zh') await app.chooseLanguage('zh');
    await app.openFromNav('/budget');
    await expect(page.getByRole('heading', { level: 1, name: words.budget })).toBeVisible();

    const amount = page.getByRole('textbox', { name: words.amountOf });
    await amount.fill('250.00');
    await amount.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: words.saved })).toBeVisible();

    await amount.fill('-15');
    await amount.press('Enter');
    await expect(page.getByRole('alert')).toContainText(words.notice);
    await expect(amount).toHaveAttribute('aria-invalid', 'true');
    await expect(amount).toHaveAccessibleDescription(words.negative);
    await expect(page.getByRole('status').filter({ hasText: words.saved })).toHaveCount(0);

    const overspent = page.getByText(words.overspent);
    await expect(overspent).toBeVisible();
    expect(await overspent.evaluate((e) => getComputedStyle(e).textDecorationLine)).toBe('none');
  });
}

test('when a memo or an account name is pasted longer than the ledger keeps, then the field says what it cut and counts to its limit, and the list ellipsises the long memo', async ({
  app,
  page,
  ledger,
}) => {
  const seed = await Seed.user(ledger.api);
  await seed.account('Checking', 'ASSET');
  await seed.account('Groceries', 'EXPENSE');
  await app.openSignedIn(seed);

  // an account name of 150 characters: 100 kept, and said so
  await app.go('Accounts');
  await page.locator('.screen-head').getByRole('button', { name: 'New account' }).click();
  const form = page.getByRole('form', { name: 'New account' });
  const name = form.getByRole('textbox', { name: 'Name' });
  await paste(name, 'Joint savings account '.repeat(7).slice(0, 150));
  await expect(name).toHaveValue('Joint savings account '.repeat(7).slice(0, 100));
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(form).toContainText(
    'The pasted text was too long: only the first 100 characters fit, 50 were left out.',
  );
  await expect(form).toContainText('100 of 100 characters');
  // typing more changes nothing: the field refuses it
  await name.press('End');
  await name.pressSequentially('xyz');
  await expect(name).toHaveValue('Joint savings account '.repeat(7).slice(0, 100));

  // a memo of 776 characters: 500 kept, and said so; the counter shows as the limit nears
  const memo = `${Array.from({ length: 97 }, (_, i) => `word${String(i).padStart(3, '0')}`).join(' ')}.`;
  expect(memo.length).toBe(776);
  await app.go('Journal');
  await app.journal.newEntry();
  const editor = app.journal.editor;
  const memoField = editor.getByRole('textbox', { name: 'Memo' });
  await memoField.fill('a'.repeat(440));
  await expect(editor).not.toContainText('of 500 characters');
  await memoField.fill('a'.repeat(455));
  await expect(editor).toContainText('455 of 500 characters');
  await memoField.fill('');
  await paste(memoField, memo);
  await expect(memoField).toHaveValue(memo.slice(0, 500));
  await expect(editor).toContainText('only the first 500 characters fit, 276 were left out.');
  await expect(editor).toContainText('500 of 500 characters');
  await editor.getByRole('combobox', { name: 'Account, line 1' }).fill('Groceries');
  await page.keyboard.press('Enter');
  await page.keyboard.type('12.50');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Checking');
  await page.keyboard.press('Enter');
  await app.journal.postButton.click();
  await expect(app.journal.details).toBeVisible();

  // the list ellipsises it at two lines, the whole memo on hover (title) and read out whole
  const open = app.journal.register.locator('button.row-open').first();
  await expect(open.locator('.clip-text')).toHaveAttribute('title', memo.slice(0, 500));
  await expect(open).toContainText(memo.slice(0, 500));
  const row = app.journal.register.locator('tbody tr').first();
  const height = (await row.boundingBox())!.height;
  const line = await open.locator('.clip-text').evaluate((e) => Number.parseFloat(getComputedStyle(e).lineHeight));
  expect(height).toBeLessThan(line * 3 + 20);
});

test('when N is pressed on any screen, then a new entry opens; Tab from an amount goes to the next line, and an empty cost row shows no error until typed in', async ({
  app,
  page,
  ledger,
}) => {
  const seed = await Seed.user(ledger.api);
  await seed.account('Checking', 'ASSET');
  await seed.account('Groceries', 'EXPENSE');
  await app.openSignedIn(seed);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  // one key from the dashboard, and the button says which
  await page.keyboard.press('n');
  const editor = app.journal.editor;
  await expect(editor.getByRole('textbox', { name: 'Memo' })).toBeFocused();
  await expect(page.getByRole('button', { name: 'New entry' })).toHaveAttribute('aria-keyshortcuts', 'N');
  await page.keyboard.type('Market');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Groc');
  await page.keyboard.press('Enter');
  await expect(editor.getByLabel('Debit, line 1')).toBeFocused();
  await page.keyboard.type('82.50');
  await page.keyboard.press('Tab');
  await expect(editor.getByRole('combobox', { name: 'Account, line 2' })).toBeFocused();
  await page.keyboard.type('Check');
  await page.keyboard.press('Enter');
  await expect(editor.getByLabel('Credit, line 2')).toHaveValue('82.50');

  // @ in an amount opens its cost; empty, it is no error yet; something unreadable is one
  await page.keyboard.press('@');
  const cost = editor.getByLabel('Cost of line 2', { exact: true });
  await expect(cost).toBeFocused();
  await expect(editor.locator('.line-error')).toHaveCount(0);
  await expect(app.journal.balanceHint).toHaveText('Balanced: 82.50 USD.');
  await page.keyboard.type('x');
  await expect(editor.locator('.line-error')).toHaveText('The cost is not a valid amount in its currency');
  await editor.getByRole('button', { name: 'Remove the cost of line 2' }).click();
  await app.journal.postButton.click();
  await expect(app.journal.details.getByTestId('entry-status')).toHaveText('Posted');

  // the key is not taken from a field being typed in
  await app.journal.newEntry();
  await page.keyboard.type('nn');
  await expect(editor.getByRole('textbox', { name: 'Memo' })).toHaveValue('nn');

  // in Chinese the same key, and the button's hint in Chinese
  await app.chooseLanguage('zh');
  await app.openFromNav('/');
  await expect(page.getByRole('heading', { level: 1, name: '概览' })).toBeVisible();
  await page.keyboard.press('n');
  await expect(page.getByRole('form', { name: '新建分录' }).getByRole('textbox', { name: '摘要' })).toBeFocused();
  await expect(page.getByRole('button', { name: '新建分录' })).toHaveAttribute('title', '新建分录：在任何页面按 N');
});

for (const language of ['en', 'zh'] as const) {
  const words = {
    en: { journal: 'Journal', header: 'In (+) / out (−)', of: 'Amount in Groceries', account: 'Account' },
    zh: { journal: '日记账', header: '流入（+）/ 流出（−）', of: 'Groceries 的金额', account: '账户' },
  }[language];

  test(`when the journal lists income and spending (${language}), then money in reads + and money out −, and a viewed account's amounts are signed for it`, async ({
    app,
    page,
    ledger,
  }) => {
    const seed = await Seed.user(ledger.api);
    const checking = await seed.account('Checking', 'ASSET');
    const savings = await seed.account('Savings', 'ASSET');
    const groceries = await seed.account('Groceries', 'EXPENSE');
    const salary = await seed.account('Salary', 'INCOME');
    await seed.posted('2026-01-05', 'Pay', checking, salary, '3000.00');
    await seed.posted('2026-01-06', 'Market', groceries, checking, '82.50');
    await seed.posted('2026-01-07', 'To savings', savings, checking, '500.00');
    await app.openSignedIn(seed);
    if (language === 'zh') await app.chooseLanguage('zh');
    await app.openFromNav('/journal');
    await expect(page.getByRole('heading', { level: 1, name: words.journal })).toBeVisible();

    const table = page.locator('table.register');
    await expect(table.locator('thead')).toContainText(words.header);
    const amountOf = (memo: string) => table.locator('tbody tr', { hasText: memo }).locator('td.num');
    await expect(amountOf('Pay')).toHaveClass(/num/);
    expect(await amountOf('Pay').innerText()).toMatch(/^\+3,000\.00 USD/);
    expect(await amountOf('Market').innerText()).toMatch(/^-82\.50 USD/);
    expect(await amountOf('To savings').innerText()).toMatch(/^500\.00 USD/);

    await page.getByRole('combobox', { name: words.account, exact: true }).selectOption({ label: 'Groceries' });
    await expect(table.locator('thead')).toContainText(words.of);
    await expect(table.locator('tbody tr')).toHaveCount(1);
    expect(await amountOf('Market').innerText()).toMatch(/^\+82\.50 USD/);
  });
}

test.describe('a new ledger in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('when a zh-CN browser opens a new ledger, then the home currency offered is CNY and confirmed on the first screen, and the names the server made, the month picker and the CSV delimiters are in Chinese', async ({
    app,
    page,
    ledger,
  }) => {
    const seed = await Seed.user(ledger.api);
    await page.goto('/');
    await page.getByRole('tab', { name: '登录' }).click();
    await page.getByLabel('电子邮箱').fill(seed.email);
    await page.getByLabel('密码').fill(PASSWORD);
    await page.getByLabel('密码').press('Enter');

    // the first screen asks for the home currency, offering the browser region's
    const card = page.getByRole('form', { name: '你的本位币' });
    const home = card.getByRole('combobox', { name: '本位币' });
    await expect(home).toHaveValue('CNY');
    await expect(home.locator('option:checked')).toHaveText('CNY · 人民币');
    expect(await home.locator('option').count()).toBeGreaterThan(150);
    await card.getByRole('button', { name: '使用 CNY' }).click();
    await expect(card).toBeHidden();
    expect((await ledger.api.get('/api/settings', seed.token)).body).toMatchObject({
      home_currency: 'CNY',
      home_currency_set: true,
    });

    // a starter set in the home currency
    await app.openFromNav('/accounts');
    await page.getByRole('button', { name: '添加常用账户' }).click();
    await expect(page.getByRole('heading', { name: 'CNY 账户' })).toBeVisible();
    const accounts = (await ledger.api.get('/api/accounts?per_page=100', seed.token)).body.items as {
      id: string;
      name: string;
      currency: string;
    }[];
    expect(new Set(accounts.map((a) => a.currency))).toEqual(new Set(['CNY']));
    const checking = accounts.find((a) => a.name === '活期账户')!;
    const groceries = accounts.find((a) => a.name === '日常购物')!;

    // an exchange makes a trading account; the server names it in English, the screen in Chinese
    await seed.account('Travel', 'EXPENSE', 'EUR');
    const travel = (await ledger.api.get('/api/accounts?per_page=100', seed.token)).body.items.find(
      (a: { name: string }) => a.name === 'Travel',
    );
    const exchange = await ledger.api.post(
      '/api/journal-entries',
      {
        entry_date: today,
        memo: 'Dinner in Paris',
        auto_post: true,
        lines: [
          { account_id: travel.id, direction: 'DEBIT', amount: '100.00', cost: { amount: '780.00', currency: 'CNY' } },
          { account_id: checking.id, direction: 'CREDIT', amount: '780.00' },
        ],
      },
      seed.token,
    );
    expect(exchange.status).toBe(201);
    await page.reload();
    await expect(page.getByRole('link', { name: '打开 货币兑换 EUR 的明细账' })).toBeVisible();
    await expect(page.getByText('Currency trading EUR')).toHaveCount(0);

    // a statement imported without a name
    await seed.statement(checking.id, [{ date: '2011-03-31', description: 'Market', amount: '-12.00' }]);
    await app.openFromNav('/statements');
    const list = page.getByRole('article', { name: '已导入的对账单' });
    await expect(list).toContainText('对账单 2011-03-31');
    await expect(list).not.toContainText('Statement 2011-03-31');

    // the CSV delimiters
    await page.getByLabel('银行账户').selectOption({ label: `${checking.name} (CNY)` });
    await page
      .getByLabel('对账单文件')
      .setInputFiles(path.join(STATEMENT_FIXTURES, 'csv_own_us_mdyyyy_trailing_comma.csv'));
    await page.getByRole('button', { name: '预览', exact: true }).click();
    const delimiter = page.getByRole('combobox', { name: '分隔符' });
    await expect(delimiter.locator('option:checked')).toHaveText(', （逗号）');

    // the budget's month picker names the month in Chinese
    await ledger.api.request('PUT', `/api/budgets/${today.slice(0, 7)}`, {
      body: { lines: [{ account_id: groceries.id, amount: '300.00' }] },
      token: seed.token,
    });
    await app.openFromNav('/budget');
    const month = page.getByRole('combobox', { name: '月份' });
    await expect(month.locator('option:checked')).toHaveText(/^[一二三四五六七八九十]+月$/);
    await expect(page.getByRole('spinbutton', { name: '年份' })).toHaveValue(today.slice(0, 4));
  });
});
