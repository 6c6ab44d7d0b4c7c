import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { captureScreen } from './support/screenshots.ts';
import { Seed } from './support/seed.ts';

/**
 * A posted entry corrected in one step from the journal (voided and reposted, linked both ways), a
 * bank-matched entry refused with the reason, and an exchange line's cost prefilled from the rate
 * table, in English and Chinese.
 */

const LANGUAGES = [
  {
    code: 'en',
    nav: ['Main', 'Journal'],
    register: 'Journal entries',
    edit: 'Edit',
    heading: 'Correct a posted entry',
    memo: 'Memo',
    account: (n: number) => `Account, line ${n}`,
    debit: (n: number) => `Debit, line ${n}`,
    credit: (n: number) => `Credit, line ${n}`,
    save: 'Save correction',
    corrects: 'This entry corrects an earlier one.',
    openEarlier: 'Open the earlier entry',
    correctedBy: 'Corrected: a corrected entry took its place.',
    statusVoid: 'Void',
    statusPosted: 'Posted',
    blocked: 'This entry is matched to a bank line or reconciled with a statement, so it cannot be corrected.',
    newEntry: 'New entry',
    addCost: (n: number) => `Exchange: what line ${n} cost in another currency`,
    cost: (n: number) => `Cost of line ${n}`,
    fromTable: 'From the rate table of 2026-01-01.',
  },
  {
    code: 'zh',
    nav: ['主导航', '日记账'],
    register: '日记账分录',
    edit: '修改',
    heading: '更正已过账的分录',
    memo: '摘要',
    account: (n: number) => `第 ${n} 行账户`,
    debit: (n: number) => `第 ${n} 行借方`,
    credit: (n: number) => `第 ${n} 行贷方`,
    save: '保存更正',
    corrects: '此分录更正了之前的一笔分录。',
    openEarlier: '打开之前的分录',
    correctedBy: '已更正：由更正后的分录取代。',
    statusVoid: '已作废',
    statusPosted: '已过账',
    blocked: '此分录已与银行流水匹配或已与对账单对账，不能更正。',
    newEntry: '新建分录',
    addCost: (n: number) => `货币兑换：第 ${n} 行以另一种货币计的成本`,
    cost: (n: number) => `第 ${n} 行的成本`,
    fromTable: '取自汇率表 2026-01-01 的汇率。',
  },
] as const;

/** Opens an entry of the journal's register by its memo, in the screen's language. */
async function openEntry(page: Page, l: (typeof LANGUAGES)[number], memo: string) {
  await page
    .getByRole('table', { name: l.register })
    .getByRole('row')
    .filter({ hasText: memo })
    .first()
    .getByRole('button')
    .click();
  await expect(page.locator('article.entry-details').getByRole('heading', { name: memo })).toBeVisible();
}

for (const l of LANGUAGES) {
  test.describe(`in ${l.code}`, () => {
    test('when a posted entry is edited and saved, then it is voided and the corrected entry posted, each linking the other; an entry matched to a bank line is refused with the reason', async ({
      app,
      page,
      ledger,
    }, testInfo) => {
      const seed = await Seed.user(ledger.api);
      const checking = await seed.account('Checking', 'ASSET');
      const groceries = await seed.account('Groceries', 'EXPENSE');
      await seed.account('Eating out', 'EXPENSE');
      await seed.posted('2026-03-10', 'Market', groceries, checking, '82.50');
      const lines = await seed.bankLines(checking, [
        { date: '2026-03-02', description: 'TESCO', amount: '41.20', type: 'debit' },
      ]);
      const booked = await ledger.api.post(
        `/api/reconciliation/unmatched/${lines.TESCO}/create-entry`,
        { account_id: groceries, memo: 'Tesco' },
        seed.token,
      );
      expect(booked.status).toBe(201);

      await app.openSignedIn(seed);
      if (l.code !== 'en') await app.chooseLanguage(l.code);
      await page.getByRole('navigation', { name: l.nav[0] }).getByRole('link', { name: l.nav[1] }).click();
      await openEntry(page, l, 'Market');
      await app.journal.details.getByRole('button', { name: l.edit, exact: true }).click();
      const editor = page.getByRole('form', { name: l.heading });
      await expect(editor.getByRole('combobox', { name: l.account(1) })).toHaveValue('Groceries');
      await editor.getByLabel(l.memo).fill('Farmers market');
      const first = editor.getByRole('combobox', { name: l.account(1) });
      await first.fill('Eating out');
      await first.press('Enter');
      await editor.getByRole('textbox', { name: l.debit(1) }).fill('28.50');
      await editor.getByRole('textbox', { name: l.credit(2) }).fill('28.50');
      await captureScreen(page, testInfo, `journal-correct-${l.code}`);
      await expectEveryControlNamed(page);
      await editor.getByRole('button', { name: l.save }).click();

      const details = app.journal.details;
      await expect(details.getByRole('heading', { name: 'Farmers market' })).toBeVisible();
      await expect(details.getByTestId('entry-status')).toHaveText(l.statusPosted);
      await expect(details).toContainText(l.corrects);
      await details.getByRole('button', { name: l.openEarlier }).click();
      await expect(details.getByRole('heading', { name: 'Market' })).toBeVisible();
      await expect(details.getByTestId('entry-status')).toHaveText(l.statusVoid);
      await expect(details).toContainText(l.correctedBy);
      const latest = (await seed.entriesOf(checking)).find((e) => e.memo === 'Farmers market');
      expect(latest).toMatchObject({ memo: 'Farmers market', status: 'posted', corrects: expect.any(String) });
      expect((await seed.entry(latest.corrects)).corrected_by).toBe(latest.id);

      await openEntry(page, l, 'Tesco');
      await app.journal.details.getByRole('button', { name: l.edit, exact: true }).click();
      await page.getByRole('form', { name: l.heading }).getByRole('button', { name: l.save }).click();
      await expect(page.getByRole('alert')).toContainText(l.blocked);
      await expect(page.getByRole('alert')).toContainText('TESCO');
      expect((await seed.entry(booked.body.entry.id)).status).toBe('posted');
    });

    test('when a line in pounds states its cost, then the cost is prefilled from the rate table and says where it came from', async ({
      app,
      page,
      ledger,
    }) => {
      const seed = await Seed.user(ledger.api);
      await seed.account('UK current', 'ASSET', 'GBP');
      await seed.price('2026-01-01', 'GBP', 'USD', '1.25');
      await app.openSignedIn(seed);
      if (l.code !== 'en') await app.chooseLanguage(l.code);
      await page.getByRole('navigation', { name: l.nav[0] }).getByRole('link', { name: l.nav[1] }).click();
      await page.getByRole('button', { name: l.newEntry }).click();
      const editor = page.getByRole('form', { name: l.newEntry });
      const account = editor.getByRole('combobox', { name: l.account(1) });
      await account.fill('UK current');
      await account.press('Enter');
      await editor.getByRole('textbox', { name: l.credit(1) }).fill('10.10');
      await editor.getByRole('button', { name: l.addCost(1) }).click();
      await expect(editor.getByRole('textbox', { name: l.cost(1), exact: true })).toHaveValue('12.62');
      await expect(editor.getByTestId('cost-source-of-line-1')).toHaveText(l.fromTable);
    });
  });
}
